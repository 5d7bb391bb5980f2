// bench-compare: the whole comparison of docs/PERFORMANCE.md as one table.
//
//   bench-compare codegen FILE.c          write the charts as C tables for Benchmarks/C
//   bench-compare profile CHART RUNNER N  dispatch N events with one runner (for callgrind:
//                                         RUNNER is core, typed, confined, scxml (event
//                                         handles), scxml-names (by name) or, for the guarded
//                                         chart, typed-context; run twice with
//                                         different N and subtract to get instructions per event),
//                                         or load the chart N times (RUNNER load), or parse its
//                                         bytes with libxml2 alone N times (RUNNER libxml2)
//   bench-compare million N [FILE]        create and start N typed turnstile machines; time, peak
//                                         RSS and heap per machine (key/value lines to FILE)
//   bench-compare [options] [chart ...]   measure and print the table
//
// Options:
//   --rounds N        timed runs per runner and chart (median reported; default 11)
//   --millis M        length of one timed run (default 20 ms)
//   --load-rounds N   loads of the large chart (default 9)
//   --c-results FILE  key/value results of the C program (Benchmarks/C) or of `million`, merged
//                     into the table (repeatable; --results is the same option)
//   --wall            time runs with the monotonic clock instead of this thread's CPU time
//
// Runs are interleaved: each round times every runner of a chart once, in rotating order, so
// noise from other processes falls on all of them alike; the C core runs in this process as the
// reference for the Swift ratios.
import BenchCharts
import CAllocationCounter
import CBenchHost
import Foundation
import StatechartSCXML

struct Options {
    var rounds = 11
    var millis = 20.0
    var loadRounds = 9
    var cResults: [String] = []
    var wallClock = false
    var charts: [BenchChart] = []
}

func parseOptions(_ arguments: [String]) throws -> Options {
    var options = Options()
    var rest = arguments[...]
    func value(_ flag: String) throws -> String {
        guard let v = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
        return v
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "--rounds": options.rounds = Int(try value(argument)) ?? options.rounds
        case "--millis": options.millis = Double(try value(argument)) ?? options.millis
        case "--load-rounds": options.loadRounds = Int(try value(argument)) ?? options.loadRounds
        case "--c-results", "--results": options.cResults.append(try value(argument))
        case "--wall": options.wallClock = true
        default:
            guard let chart = BenchChart(rawValue: argument) else {
                throw BenchError("unknown argument '\(argument)'; charts: \(BenchChart.allCases.map(\.rawValue).joined(separator: " "))")
            }
            options.charts.append(chart)
        }
    }
    if options.charts.isEmpty { options.charts = BenchChart.allCases }
    return options
}

func codegen(_ path: String) throws {
    let charts = try BenchChart.allCases.map { try CoreChart($0) }
    try BenchChartsSource.source(for: charts).write(toFile: path, atomically: true, encoding: .utf8)
}

func readCResults(_ paths: [String]) -> [String: String] {
    var result: [String: String] = [:]
    for path in paths {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
    }
    return result
}

/// Starts a thread that sleeps for good: the process is no longer single-threaded.
func startIdleThread() {
    let thread = Thread {
        while true { Thread.sleep(forTimeInterval: 3600) }
    }
    thread.start()
    while !thread.isExecuting { Thread.sleep(forTimeInterval: 0.001) }
}

func run(_ options: Options) throws {
    bench_use_wall_clock(options.wallClock)
    var report = Report(options: options, c: readCResults(options.cResults))
    for chart in options.charts where BenchChart.dispatched.contains(chart) {
        FileHandle.standardError.write("dispatching \(chart.rawValue)...\n".data(using: .utf8)!)
        var runners = [try Runner.core(try CoreChart(chart)), try Runner.typed(chart), try Runner.scxml(chart),
                       try Runner.scxmlByName(chart)]
        if chart == .turnstile { runners.append(try HandWrittenTurnstile.runner()) }
        if chart == .hierarchical { runners.append(try HandWrittenHierarchical.runner()) }
        if chart == .guarded { runners.append(try Runner.typedWithContext()) }
        report.dispatch[chart] = try Measure.dispatch(runners, chart: chart, period: try chart.period(),
                                                      rounds: options.rounds, millis: options.millis)
    }
    // Everything above ran in a single-threaded process, where the machine lock (CMachineLock)
    // needs no atomic instruction. Real programs have other threads: start one (it only sleeps)
    // and measure the typed API again, since its lock then costs two atomic operations per send,
    // and the confined machine (LocalStateMachine), whose send takes no lock whatever threads exist.
    if options.charts.contains(where: BenchChart.dispatched.contains) {
        startIdleThread()
        for chart in options.charts where BenchChart.dispatched.contains(chart) {
            FileHandle.standardError.write("dispatching \(chart.rawValue) with another thread alive...\n".data(using: .utf8)!)
            let runners = [try Runner.core(try CoreChart(chart)), try Runner.typed(chart), try Runner.confined(chart)]
            let measured = try Measure.dispatch(runners, chart: chart, period: try chart.period(),
                                                rounds: options.rounds, millis: options.millis)
            report.dispatch[chart]?.nsPerEvent["Swift typed, threads"] = measured.nsPerEvent["Swift typed"]
            report.dispatch[chart]?.nsPerEvent["C core, threads"] = measured.nsPerEvent["C core"]
            report.dispatch[chart]?.nsPerEvent["Swift confined, threads"] = measured.nsPerEvent["Swift confined"]
        }
    }
    for chart in options.charts where [.turnstile, .hierarchical, .large].contains(chart) {
        report.memory[chart] = try MemoryBenchmark.run(chart)
    }
    if options.charts.contains(.large) {
        FileHandle.standardError.write("loading large...\n".data(using: .utf8)!)
        report.load = try LoadBenchmark.run(.large, rounds: options.loadRounds)
    }
    print(report.render())
}

do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "profile", arguments.count == 4, arguments[2] == "load",
       let chart = BenchChart(rawValue: arguments[1]), let count = Int(arguments[3]) {
        for _ in 0..<count { _ = try SCXMLMachine(contentsOf: chart.documentURL) }
    } else if arguments.first == "profile", arguments.count == 4, arguments[2] == "libxml2",
              let chart = BenchChart(rawValue: arguments[1]), let count = Int(arguments[3]) {
        let bytes = try Data(contentsOf: chart.documentURL)
        for _ in 0..<count { try LoadBenchmark.libxml2Parse(bytes) }
    } else if arguments.first == "profile" {
        guard arguments.count == 4, let chart = BenchChart(rawValue: arguments[1]), let count = Int(arguments[3]) else {
            throw BenchError("usage: bench-compare profile CHART core|typed|confined|scxml|scxml-names|load|libxml2 COUNT")
        }
        let runner: Runner
        switch arguments[2] {
        case "core": runner = try Runner.core(CoreChart(chart))
        case "typed": runner = try Runner.typed(chart)
        case "confined": runner = try Runner.confined(chart)
        case "typed-context" where chart == .guarded: runner = try Runner.typedWithContext()
        case "scxml": runner = try Runner.scxml(chart)
        case "scxml-names": runner = try Runner.scxmlByName(chart)
        default: throw BenchError("runner must be core, typed, confined, scxml or scxml-names")
        }
        try runner.dispatch(count)
        print(runner.configuration())
    } else if arguments.first == "million" {
        guard (2...3).contains(arguments.count), let count = Int(arguments[1]), count > 0 else {
            throw BenchError("usage: bench-compare million COUNT [FILE]")
        }
        let result = try MillionMachines.run(count: count)
        let lines = MillionMachines.tsv(result)
        if arguments.count == 3 { try lines.write(toFile: arguments[2], atomically: true, encoding: .utf8) }
        print(lines, terminator: "")
    } else if arguments.first == "codegen" {
        guard arguments.count == 2 else { throw BenchError("usage: bench-compare codegen FILE.c") }
        try codegen(arguments[1])
    } else {
        try run(try parseOptions(arguments))
    }
} catch {
    FileHandle.standardError.write("bench-compare: \(error)\n".data(using: .utf8)!)
    exit(1)
}
