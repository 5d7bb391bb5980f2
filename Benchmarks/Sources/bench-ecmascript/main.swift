// bench-ecmascript: one chart of scxml/bench run on the SCXML machine with the ECMAScript (and
// null) datamodel, in a process of its own, printing the figures scripts/bench.sh puts beside
// Qt SCXML's (Benchmarks/Qt, the same measurements on QScxmlStateMachine):
//
//   bench-ecmascript CHART.scxml [--rounds N] [--millis M] [--sessions K]
//
// A bad argument is a usage error (status 2); a chart or CHART.events that cannot be read, status 1.
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

/// Ends the program with `message` on standard error: status 2 for a usage error, 1 otherwise.
func stop(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("bench-ecmascript: \(message)\n".utf8))
    exit(status)
}
let usage = "usage: bench-ecmascript CHART.scxml [--rounds N] [--millis M] [--sessions K] [--events-only N]"

var arguments = Array(CommandLine.arguments.dropFirst())
var rounds = 11, millis = 20.0, sessionCount = 2_000
var eventsOnly: Int?
var chartPath: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    /// The positive number after `argument`.
    func number<T: LosslessStringConvertible & Comparable & Numeric>(_: T.Type) -> T {
        guard let text = arguments.first, let value = T(text), value > 0 else {
            stop("\(argument) needs a positive number\n\(usage)", status: 2)
        }
        arguments.removeFirst()
        return value
    }
    switch argument {
    case "--rounds": rounds = number(Int.self)
    case "--millis": millis = number(Double.self)
    case "--sessions": sessionCount = number(Int.self)
    case "--events-only": eventsOnly = number(Int.self)
    case _ where argument.hasPrefix("-") || chartPath != nil: stop("unexpected argument '\(argument)'\n\(usage)", status: 2)
    default: chartPath = argument
    }
}
guard let chartPath else { stop(usage, status: 2) }
let url = URL(fileURLWithPath: chartPath)
let chart = url.deletingPathExtension().lastPathComponent
let eventsURL = url.deletingPathExtension().appendingPathExtension("events")
let options = SCXMLMachine.Options.withECMAScript
let names: [String]
let document: SCXMLDocument
do {
    names = try String(contentsOf: eventsURL, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
} catch {
    stop("cannot read \(eventsURL.path): \((error as NSError).localizedDescription)", status: 1)
}
do {
    document = try SCXMLParser.parse(contentsOf: url)
} catch {
    stop("\(chartPath): \(error)", status: 1)
}
guard !names.isEmpty else { stop("\(eventsURL.path): no events", status: 1) }
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
