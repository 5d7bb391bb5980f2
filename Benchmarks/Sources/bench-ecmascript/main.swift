// bench-ecmascript: one chart of scxml/bench run on the SCXML machine with the ECMAScript (and
// null) datamodel, in a process of its own, printing the figures scripts/bench.sh puts beside
// Qt SCXML's (Benchmarks/Qt, the same measurements on QScxmlStateMachine):
//
//   bench-ecmascript CHART.scxml [--rounds N] [--millis M] [--sessions K]
//
// Lines on standard output, tab-separated: `project<TAB>CHART<TAB>METRIC<TAB>VALUE` with METRIC
//   ns_per_event        median over N runs of ~M ms (thread CPU time) of sends of resolved
//                       handles cycling through CHART.events, after a warm-up;
//   sessions_per_second sessions created from the parsed document and started, per CPU second;
//   resident_per_session growth of the resident set (/proc/self/statm) per started session while
//                       K of them are alive, measured first (before anything else has run).
//
//   bench-ecmascript CHART.scxml --events-only N   starts one machine and sends N events, nothing
//                       else: two runs under callgrind (N and 2N) give the instructions per event.
import Foundation
import StatechartECMAScript
import StatechartSCXML

struct Failure: Error, CustomStringConvertible { let description: String }

func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

var arguments = Array(CommandLine.arguments.dropFirst())
var rounds = 11, millis = 20.0, sessionCount = 2_000
var eventsOnly: Int?
var chartPath: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() throws -> String {
        guard !arguments.isEmpty else { throw Failure(description: "\(argument) needs a value") }
        return arguments.removeFirst()
    }
    switch argument {
    case "--rounds": rounds = Int(try value()) ?? rounds
    case "--millis": millis = Double(try value()) ?? millis
    case "--sessions": sessionCount = Int(try value()) ?? sessionCount
    case "--events-only": eventsOnly = Int(try value())
    default: chartPath = argument
    }
}
guard let chartPath else {
    FileHandle.standardError.write(Data("usage: bench-ecmascript CHART.scxml [--rounds N] [--millis M] [--sessions K]\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: chartPath)
let chart = url.deletingPathExtension().lastPathComponent
let eventsURL = url.deletingPathExtension().appendingPathExtension("events")
let names = try String(contentsOf: eventsURL, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
let options = SCXMLMachine.Options.withECMAScript
let document = try SCXMLParser.parse(contentsOf: url)
let baseURL = url.deletingLastPathComponent()

func startedMachine() throws -> SCXMLMachine {
    let machine = try SCXMLMachine(document: document, baseURL: baseURL, options: options)
    try machine.start()
    return machine
}

func report(_ metric: String, _ value: Double) {
    print("project\t\(chart)\t\(metric)\t\(String(format: "%.1f", value))")
}

if let eventsOnly {
    let machine = try startedMachine()
    let handles = try names.map { try machine.event($0) }
    for index in 0..<eventsOnly { _ = try machine.send(handles[index % handles.count]) }
    exit(0)
}

// Resident bytes per started session, first, so no earlier work's freed memory is reused.
do {
    let warm = try (0..<16).map { _ in try startedMachine() }
    let before = residentBytes()
    var machines: [SCXMLMachine] = []
    machines.reserveCapacity(sessionCount)
    for _ in 0..<sessionCount { machines.append(try startedMachine()) }
    report("resident_per_session", Double(residentBytes() - before) / Double(sessionCount))
    withExtendedLifetime((warm, machines)) {}
}

// Sessions created and started per CPU second.
do {
    var samples: [Double] = []
    for _ in 0..<max(3, rounds / 2) {
        let count = 500
        let start = threadCPUNanoseconds()
        for _ in 0..<count { _ = try startedMachine() }
        samples.append(Double(count) * 1e9 / Double(threadCPUNanoseconds() - start))
    }
    report("sessions_per_second", median(samples))
}

// Nanoseconds per event.
do {
    let machine = try startedMachine()
    let handles = try names.map { try machine.event($0) }
    var position = 0
    func dispatch(_ count: Int) throws {
        for _ in 0..<count {
            _ = try machine.send(handles[position])
            position += 1
            if position == handles.count { position = 0 }
        }
    }
    let initial = machine.configuration.sorted()
    try dispatch(handles.count * 1_000)                         // warm-up, whole cycles
    guard machine.configuration.sorted() == initial else {
        throw Failure(description: "\(chart): after whole event cycles the machine is in \(machine.configuration.sorted()), not \(initial)")
    }
    var count = handles.count
    while true {                                               // calibrate to ~millis per run
        let start = threadCPUNanoseconds()
        try dispatch(count)
        if Double(threadCPUNanoseconds() - start) >= millis * 1e6 { break }
        count *= 2
    }
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = threadCPUNanoseconds()
        try dispatch(count)
        samples.append(Double(threadCPUNanoseconds() - start) / Double(count))
    }
    report("ns_per_event", median(samples))
}
