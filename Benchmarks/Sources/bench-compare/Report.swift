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

    private func cValue(_ key: String) -> Double? { c[key].flatMap(Double.init) }

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
        out.append("median of \(options.rounds) interleaved runs of about \(Int(options.millis)) ms each, per runner and chart, "
            + (options.wallClock ? "wall-clock time" : "timed in this thread's CPU time"))
        if let cc = c["machine.cc"] { out.append("C program: \(cc) \(c["machine.cflags"] ?? "")") }
        out.append("")

        let widths = [13, 8, 8, 7, 8, 8, 7, 9, 8, 9, 8, 8, 7, 7, 8, 7]
        out.append("Dispatch, ns/event  | C program (cc -O2)     | this process (swift build -c release)")
        out.append(Self.row(["chart", "next[][]", "C core", "core/", "C core", "Swift", "Swift/", "Swift", "Swift/",
                             "confined", "confined/", "SCXML", "SCXML/", "switch", "SCXML", "names/"], widths))
        out.append(Self.row(["", "table", "", "table", "", "typed", "C core", "typed, T", "C core, T", ", T", "C core, T",
                             "", "Swift", "", "names", "Swift"], widths))
        for chart in BenchChart.dispatched {
            guard let d = dispatch[chart] else { continue }
            let table = cValue(chart, "table_ns"), cCore = cValue(chart, "core_ns")
            let core = d.nsPerEvent["C core"], swift = d.nsPerEvent["Swift typed"], scxml = d.nsPerEvent["SCXML"]
            let byName = d.nsPerEvent["SCXML, by name"]
            let threaded = d.nsPerEvent["Swift typed, threads"], threadedCore = d.nsPerEvent["C core, threads"]
            let confined = d.nsPerEvent["Swift confined, threads"]
            out.append(Self.row([chart.rawValue, Self.number(table), Self.number(cCore), Self.ratio(cCore, table),
                                 Self.number(core), Self.number(swift), Self.ratio(swift, core),
                                 Self.number(threaded), Self.ratio(threaded, threadedCore),
                                 Self.number(confined), Self.ratio(confined, threadedCore),
                                 Self.number(scxml), Self.ratio(scxml, swift), Self.number(d.nsPerEvent["switch"]),
                                 Self.number(byName), Self.ratio(byName, swift)],
                                widths))
        }
        out.append("SCXML: events sent as handles resolved once (try machine.event(\"coin\")); SCXML names: the same")
        out.append("   machine sent the events by name (machine.send(\"coin\")), each name looked up per send.")
        out.append("T: measured again after starting a second (sleeping) thread: the machine lock then takes a")
        out.append("   compare-and-swap and an exchange per send, as in any program with more than one thread")
        out.append("   (alone, it uses plain stores); the C core takes no lock. confined: LocalStateMachine, not")
        out.append("   Sendable, whose send holds the machine with plain stores whatever threads exist.")
        if let d = dispatch[.guarded], let withContext = d.nsPerEvent["Swift typed, context"] {
            let core = d.nsPerEvent["C core"], swift = d.nsPerEvent["Swift typed"]
            out.append("guarded, typed context (every guard reads ctx.context, every action writes it): Swift typed "
                + "\(Self.number(withContext)) ns/event, \(Self.ratio(withContext, core)) the C core, "
                + "\(Self.ratio(withContext, swift)) Swift typed without context")
        }
        out.append("")
        out.append("Heap allocations per event (\(allocation_counter_available() ? "malloc calls counted" : "not counted on this platform"))")
        for chart in BenchChart.dispatched {
            guard let d = dispatch[chart] else { continue }
            let cProgram = cValue(chart, "core_allocs").map { Self.number($0, digits: 2) } ?? "-"
            let cells = ["C core (C program) \(cProgram)",
                         "C core \(Self.number(d.allocationsPerEvent["C core"], digits: 2))",
                         "Swift typed \(Self.number(d.allocationsPerEvent["Swift typed"], digits: 2))",
                         "SCXML \(Self.number(d.allocationsPerEvent["SCXML"], digits: 2))",
                         "SCXML names \(Self.number(d.allocationsPerEvent["SCXML, by name"], digits: 2))"]
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
                    + "Swift \(m.kind) \(Int(m.swiftBytes.rounded())) B in total (mallinfo2)")
            }
        }
        if let load {
            out.append("")
            out.append("Large chart (\(load.states) states, \(load.transitions) transitions with the initial ones, \(load.documentBytes / 1024) KiB of SCXML), median of \(options.loadRounds) loads")
            out.append(String(format: "  load + validate + compile: %.1f ms (parse and validate %.1f ms, build and compile %.1f ms)",
                              load.totalMillis, load.parseMillis, load.compileMillis))
            out.append(String(format: "  libxml2 alone (xmlReadMemory + xmlFreeDoc on the same bytes): %.1f ms", load.libxml2Millis))
            out.append("  memory: \(load.retainedBytes / 1024) KiB kept by the loaded SCXMLMachine (C tables \(load.tableBytes / 1024) KiB), "
                + "\(load.peakBytes / 1024) KiB peak while loading, \(load.allocations) allocations")
        }
        if let count = c["million.count"].flatMap(Int.init) {
            out.append("")
            out.append("\(count) typed turnstile StateMachines created and started (own process, bench-compare million)")
            out.append(String(format: "  %.2f s CPU (%.2f s wall), peak RSS %.0f MiB, %.0f B of heap per machine (mallinfo2)",
                              cValue("million.cpu_s") ?? 0, cValue("million.wall_s") ?? 0,
                              (cValue("million.peak_rss") ?? 0) / 1_048_576, cValue("million.heap_each") ?? 0))
        }
        out.append("")
        out.append("Targets (issue 14; PASS/MISS, target, measured)")
        for (met, text) in targets() {
            out.append("  " + Self.pad(met.map { $0 ? "PASS" : "MISS" } ?? "n/a", 4, left: true) + "  " + text)
        }
        return out.joined(separator: "\n")
    }

    /// (met?, description) for each target of issue 14; nil when not measured in this run.
    func targets() -> [(Bool?, String)] {
        var result: [(Bool?, String)] = []
        func check(_ value: Double?, atMost limit: Double, _ text: String, _ shown: (Double) -> String) {
            guard let value else { result.append((nil, text + ": not measured in this run")); return }
            result.append((value <= limit, text + ": " + shown(value)))
        }
        let x = { (v: Double) in String(format: "%.2fx", v) }
        // C core against the next[][] table (the C program, cc -O2).
        for (chart, limit) in [(BenchChart.turnstile, 1.5), (.hierarchical, 1.5), (.deep, 1.5), (.wide, 5), (.guarded, 5)] {
            let table = cValue(chart, "table_ns"), core = cValue(chart, "core_ns")
            check(table.flatMap { t in core.map { $0 / t } }, atMost: limit,
                  "C core, \(chart.rawValue), at most \(Self.number(limit))x the next[][] table", x)
        }
        // Typed Swift against the C core in the same process.
        for chart in BenchChart.dispatched {
            guard let d = dispatch[chart] else { continue }
            let swift = d.nsPerEvent["Swift typed"], core = d.nsPerEvent["C core"]
            check(swift.flatMap { s in core.map { s / $0 } }, atMost: 2,
                  "Swift typed, \(chart.rawValue), at most 2x the C core (single-threaded)", x)
        }
        // The confined machine (LocalStateMachine) against the C core, both measured after a
        // second thread started; the Sendable StateMachine in the same run beside it. On the
        // guarded chart every guard and action is a call from C into Swift through a
        // `@convention(c)` function, which the C core's callbacks are not: 1.75x (issue 22).
        for chart in BenchChart.dispatched {
            guard let d = dispatch[chart], let core = d.nsPerEvent["C core, threads"] else { continue }
            let confined = d.nsPerEvent["Swift confined, threads"], shared = d.nsPerEvent["Swift typed, threads"]
            let limit = chart == .guarded ? 1.75 : 1.5
            check(confined.map { $0 / core }, atMost: limit,
                  "confined machine (LocalStateMachine), \(chart.rawValue), at most \(limit)x the C core with threads alive") {
                x($0) + (shared.map { " (the Sendable StateMachine: " + x($0 / core) + ")" } ?? "")
            }
        }
        for chart in [BenchChart.turnstile, .hierarchical, .deep, .wide, .guarded] {
            guard let d = dispatch[chart] else { continue }
            let scxml = d.nsPerEvent["SCXML"], swift = d.nsPerEvent["Swift typed"]
            check(scxml.flatMap { s in swift.map { s / $0 } }, atMost: 1.2,
                  "SCXML, \(chart.rawValue), at most 1.2x Swift typed", x)
        }
        if let load {
            check(load.totalMillis / load.libxml2Millis, atMost: 2,
                  "large chart loaded, validated, compiled in at most 2x libxml2's parse of the same bytes",
                  { x($0) + String(format: " (%.1f vs %.1f ms)", load.totalMillis, load.libxml2Millis) })
        }
        if let m = memory[.turnstile] {
            check(m.swiftBytes, atMost: 1024, "a started typed turnstile StateMachine, at most 1 KB in total",
                  { String(format: "%.0f B (mallinfo2)", $0) })
            // A firmware user's machine: the tables `statechart generate c` writes, as the C program
            // builds them (a chart whose content generates no C is marked SC_CHART_QUIET_CONTENT).
            // The SCXML runtime's own tables carry a start-up callback, so their default queues
            // are larger: shown beside it.
            let generated = cValue(.turnstile, "machine_bytes")
            check(generated ?? Double(m.coreBytes), atMost: 256,
                  "sc_machine for the turnstile, default options, at most 256 B",
                  { String(format: "%.0f B", $0) + (generated == nil ? ""
                      : " as generated C (\(m.coreBytes) B from the SCXML runtime's tables, start-up callback included)") })
        }
        if c["million.count"] != nil {
            check(cValue("million.cpu_s"), atMost: 2, "a million typed turnstile machines created and started in at most 2 s",
                  { String(format: "%.2f s CPU (%.2f s wall)", $0, cValue("million.wall_s") ?? 0) })
            check(cValue("million.peak_rss"), atMost: 1_073_741_824, "... and in at most 1 GB",
                  { String(format: "%.0f MiB peak RSS", $0 / 1_048_576) })
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
