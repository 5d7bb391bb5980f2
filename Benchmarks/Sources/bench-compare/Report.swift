import BenchCharts
import CAllocationCounter
import Foundation

/// The comparison table and the verdict on each target of the benchmark issue.
struct Report {
    let options: Options
    /// Results of the plain C program (cc -O2): "<chart>.table_ns", "<chart>.core_ns", ...
    let c: [String: String]
    var dispatch: [BenchChart: DispatchMeasurement] = [:]
    var memory: [BenchChart: MachineMemory] = [:]
    var load: LoadMeasurement?

    private func cValue(_ chart: BenchChart, _ key: String) -> Double? {
        c["\(chart.rawValue).\(key)"].flatMap(Double.init)
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + fill : fill + text
    }

    private static func number(_ value: Double?, digits: Int = 1) -> String {
        guard let value else { return "-" }
        return String(format: "%.\(digits)f", value)
    }

    private static func ratio(_ a: Double?, _ b: Double?) -> String {
        guard let a, let b, b > 0 else { return "-" }
        return String(format: "%.2fx", a / b)
    }

    private static func row(_ cells: [String], _ widths: [Int]) -> String {
        zip(cells, widths).enumerated().map { i, pair in pad(pair.0, pair.1, left: i == 0) }.joined(separator: "  ")
    }

    func render() -> String {
        var out: [String] = []
        let host = ProcessInfo.processInfo
        out.append("Statechart benchmarks: \(host.processorCount) cores, \(c["machine.cpu"] ?? "CPU unknown")")
        out.append("median of \(options.rounds) interleaved runs of about \(Int(options.millis)) ms each, per runner and chart")
        if let cc = c["machine.cc"] { out.append("C program: \(cc) \(c["machine.cflags"] ?? "")") }
        out.append("")

        let widths = [13, 8, 8, 7, 8, 8, 7, 9, 8, 8, 7, 7]
        out.append("Dispatch, ns/event  | C program (cc -O2)     | this process (swift build -c release)")
        out.append(Self.row(["chart", "next[][]", "C core", "core/", "C core", "Swift", "Swift/", "Swift", "Swift/",
                             "SCXML", "SCXML/", "switch"], widths))
        out.append(Self.row(["", "table", "", "table", "", "typed", "C core", "typed, T", "C core", "", "Swift", ""], widths))
        for chart in BenchChart.dispatched {
            guard let d = dispatch[chart] else { continue }
            let table = cValue(chart, "table_ns"), cCore = cValue(chart, "core_ns")
            let core = d.nsPerEvent["C core"], swift = d.nsPerEvent["Swift typed"], scxml = d.nsPerEvent["SCXML"]
            let threaded = d.nsPerEvent["Swift typed, threads"], threadedCore = d.nsPerEvent["C core, threads"]
            out.append(Self.row([chart.rawValue, Self.number(table), Self.number(cCore), Self.ratio(cCore, table),
                                 Self.number(core), Self.number(swift), Self.ratio(swift, core),
                                 Self.number(threaded), Self.ratio(threaded, threadedCore),
                                 Self.number(scxml), Self.ratio(scxml, swift), Self.number(d.nsPerEvent["switch"])],
                                widths))
        }
        out.append("T: measured again after starting a second (sleeping) thread: the machine lock then takes a")
        out.append("   compare-and-swap and an exchange per send, as in any program with more than one thread")
        out.append("   (alone, it uses plain stores); the C core takes no lock.")
        out.append("")
        out.append("Heap allocations per event (\(allocation_counter_available() ? "malloc calls counted" : "not counted on this platform"))")
        for chart in BenchChart.dispatched {
            guard let d = dispatch[chart] else { continue }
            let cProgram = cValue(chart, "core_allocs").map { Self.number($0, digits: 2) } ?? "-"
            let cells = ["C core (C program) \(cProgram)",
                         "C core \(Self.number(d.allocationsPerEvent["C core"], digits: 2))",
                         "Swift typed \(Self.number(d.allocationsPerEvent["Swift typed"], digits: 2))",
                         "SCXML \(Self.number(d.allocationsPerEvent["SCXML"], digits: 2))"]
            var line = "  " + Self.pad(chart.rawValue, 13, left: true) + cells.joined(separator: ", ")
            if let g = d.guardsPerEvent, let a = d.actionsPerEvent, g > 0 || a > 0 {
                line += String(format: "  (%.2f guards, %.2f actions per event, same in every runner)", g, a)
            }
            out.append(line)
        }
        if !memory.isEmpty {
            out.append("")
            out.append("Memory per running machine (the compiled chart is shared and not counted)")
            for chart in [BenchChart.turnstile, .hierarchical, .large] {
                guard let m = memory[chart] else { continue }
                out.append("  " + Self.pad(chart.rawValue, 13, left: true)
                    + "sc_machine \(m.coreBytes) B (default options), \(m.swiftCoreBytes) B (Swift's options); "
                    + "Swift \(m.kind) \(Int(m.swiftBytes.rounded())) B in total")
            }
        }
        if let load {
            out.append("")
            out.append("Large chart (\(load.states) states, \(load.transitions) transitions with the initial ones, \(load.documentBytes / 1024) KiB of SCXML), median of \(options.loadRounds) loads")
            out.append(String(format: "  load + validate + compile: %.1f ms (parse and validate %.1f ms, build and compile %.1f ms)",
                              load.totalMillis, load.parseMillis, load.compileMillis))
            out.append("  memory: \(load.retainedBytes / 1024) KiB kept by the loaded SCXMLMachine (C tables \(load.tableBytes / 1024) KiB), "
                + "\(load.peakBytes / 1024) KiB peak while loading, \(load.allocations) allocations")
        }
        out.append("")
        out.append("Targets")
        for (met, text) in targets() {
            out.append("  " + Self.pad(met.map { $0 ? "met" : "MISSED" } ?? "n/a", 6, left: true) + "  " + text)
        }
        return out.joined(separator: "\n")
    }

    /// (met?, description) for each target; nil when not measured in this run.
    func targets() -> [(Bool?, String)] {
        var result: [(Bool?, String)] = []
        let table = cValue(.turnstile, "table_ns"), core = cValue(.turnstile, "core_ns")
        if let table, let core {
            result.append((core <= 2 * table, "C core, turnstile: at most 2x the table baseline: \(Self.ratio(core, table)) (\(Self.number(core)) vs \(Self.number(table)) ns)"))
        } else {
            result.append((nil, "C core, turnstile: at most 2x the table baseline (run the C program)"))
        }
        if let h = cValue(.hierarchical, "core_ns") {
            result.append((h <= 25, "C core, hierarchical: at most 25 ns/event: \(Self.number(h)) ns"))
        } else {
            result.append((nil, "C core, hierarchical: at most 25 ns/event (run the C program)"))
        }
        for chart in BenchChart.dispatched {
            guard let d = dispatch[chart], let swift = d.nsPerEvent["Swift typed"], let core = d.nsPerEvent["C core"] else { continue }
            result.append((swift <= 3 * core, "Swift typed, \(chart.rawValue): at most 3x the C core: \(Self.ratio(swift, core))"))
        }
        if let swift = dispatch[.turnstile]?.nsPerEvent["Swift typed"] {
            result.append((swift <= 20, "Swift typed, turnstile: at most 20 ns/event: \(Self.number(swift)) ns"))
        }
        if let swift = dispatch[.turnstile]?.nsPerEvent["Swift typed, threads"] {
            result.append((swift <= 20, "Swift typed, turnstile, other threads alive: at most 20 ns/event: \(Self.number(swift)) ns"))
        }
        for chart in [BenchChart.turnstile, .hierarchical, .deep, .wide] {
            guard let d = dispatch[chart], let scxml = d.nsPerEvent["SCXML"], let swift = d.nsPerEvent["Swift typed"] else { continue }
            result.append((scxml <= 1.5 * swift, "SCXML, \(chart.rawValue) (no datamodel expressions): at most 1.5x Swift typed: \(Self.ratio(scxml, swift))"))
        }
        if let load {
            result.append((load.totalMillis <= 20, "large chart loaded, validated and compiled in at most 20 ms: \(Self.number(load.totalMillis)) ms"))
        }
        if allocation_counter_available() {
            var zero = true
            var measured = false
            for chart in BenchChart.dispatched {
                guard let d = dispatch[chart] else { continue }
                for label in ["C core", "Swift typed"] {
                    if let a = d.allocationsPerEvent[label] {
                        measured = true
                        if a != 0 { zero = false }
                    }
                }
                if let a = cValue(chart, "core_allocs"), a != 0 { zero = false }
            }
            if measured { result.append((zero, "zero heap allocations per event in the C core and the Swift typed API")) }
        }
        return result
    }
}
