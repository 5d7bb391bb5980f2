import BenchCharts
import CAllocationCounter
import CLibXML2Baseline
import CStateCore
import Foundation
import Statechart
import StatechartSCXML

/// Loading the large chart from SCXML: total, and its two halves.
struct LoadMeasurement {
    var states = 0
    var transitions = 0
    var documentBytes = 0
    var totalMillis = 0.0          // SCXMLMachine(contentsOf:): read, parse, validate, compile
    var parseMillis = 0.0          // SCXMLParser.parse(contentsOf:): read, parse, validate
    var compileMillis = 0.0        // SCXMLMachine(document:): chart definition, compile, machine
    var libxml2Millis = 0.0        // xmlReadMemory on the same bytes (and xmlFreeDoc): the baseline
    var retainedBytes: Int64 = 0   // heap held by one loaded SCXMLMachine
    var peakBytes: Int64 = 0       // highest heap growth while loading
    var tableBytes = 0             // the C tables of the compiled chart
    var allocations = 0            // heap allocations of one load
}

enum LoadBenchmark {
    static func millis(_ body: () throws -> Void) rethrows -> Double {
        let start = nanoseconds()
        try body()
        return Double(nanoseconds() - start) / 1e6
    }

    /// libxml2 alone: the document parsed into libxml2's own tree from the bytes already in
    /// memory, with the importer's parser options, then freed. The root is read back.
    static func libxml2Parse(_ bytes: Data) throws {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_HUGE.rawValue)
        let document = bytes.withUnsafeBytes { raw in
            xmlReadMemory(raw.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(raw.count), "large.scxml", nil, options)
        }
        guard let document else { throw BenchError("libxml2 could not parse the large chart") }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), String(cString: root.pointee.name) == "scxml" else {
            throw BenchError("libxml2: the large chart's root is not <scxml>")
        }
    }

    static func run(_ chart: BenchChart, rounds: Int) throws -> LoadMeasurement {
        let url = chart.documentURL
        var result = LoadMeasurement()
        let bytes = try Data(contentsOf: url)
        result.documentBytes = bytes.count
        var totals: [Double] = [], parses: [Double] = [], compiles: [Double] = [], baselines: [Double] = []
        _ = try SCXMLMachine(contentsOf: url)                     // warm caches and lazy globals
        try libxml2Parse(bytes)
        for _ in 0..<rounds {
            baselines.append(try millis { try libxml2Parse(bytes) })
            var document: SCXMLDocument?
            parses.append(try millis { document = try SCXMLParser.parse(contentsOf: url) })
            compiles.append(try millis { _ = try SCXMLMachine(document: document!) })
            totals.append(try millis { _ = try SCXMLMachine(contentsOf: url) })
        }
        result.totalMillis = median(totals)
        result.parseMillis = median(parses)
        result.compileMillis = median(compiles)
        result.libxml2Millis = median(baselines)

        let before = allocation_counter_heap_in_use()
        allocation_counter_start()
        let machine = try SCXMLMachine(contentsOf: url)
        allocation_counter_stop()
        result.retainedBytes = allocation_counter_heap_in_use() - before
        result.peakBytes = allocation_counter_peak_bytes()
        result.allocations = Int(allocation_counter_calls())
        let tables = machine.machine.chart.tables.pointee
        result.states = Int(tables.state_count)
        result.transitions = Int(tables.transition_count)
        result.tableBytes = tableBytes(tables)
        withExtendedLifetime(machine) {}
        return result
    }

    static func tableBytes(_ c: sc_chart) -> Int {
        Int(c.state_count) * MemoryLayout<sc_state>.stride
            + Int(c.transition_count) * MemoryLayout<sc_transition>.stride
            + Int(c.event_count) * MemoryLayout<sc_event_info>.stride
            + Int(c.target_pool_count + c.descriptor_pool_count) * MemoryLayout<sc_id>.stride
            + MemoryLayout<sc_chart>.stride
    }
}

/// Bytes of memory each running machine costs, the compiled chart (shared) not counted.
struct MachineMemory {
    var chart: BenchChart
    var coreBytes = 0              // sc_machine_size with the core's default options
    var swiftCoreBytes = 0         // sc_machine_size with the Swift runtime's options
    var swiftBytes = 0.0           // heap per started Swift machine (mallinfo2: chunk headers included), its sc_machine too
    var kind = ""
}

enum MemoryBenchmark {
    /// Heap growth per object while `count` of them are alive.
    /// Heap growth per object while `count` of them are alive, in glibc's own statistics
    /// (mallinfo2, so chunk headers and rounding are counted).
    static func bytesEach(count: Int, _ make: () throws -> AnyObject) rethrows -> Double {
        var keep: [AnyObject] = []
        keep.reserveCapacity(count)
        _ = try make()                                          // warm lazy globals
        let before = allocation_counter_heap_in_use()
        for _ in 0..<count { keep.append(try make()) }
        let after = allocation_counter_heap_in_use()
        withExtendedLifetime(keep) {}
        return Double(after - before) / Double(count)
    }

    static func run(_ chart: BenchChart) throws -> MachineMemory {
        var result = MachineMemory(chart: chart)
        let core = try CoreChart(chart)
        result.coreBytes = sc_machine_size(core.tables, nil)
        // A Machine gives its core no external queue (SC_QUEUE_NONE): it queues the events actions send itself.
        var swiftOptions = sc_options(internal_queue_capacity: UInt32(MachineOptions().internalQueueCapacity),
                                      external_queue_capacity: SC_QUEUE_NONE,
                                      max_steps: 0, flags: 0)
        result.swiftCoreBytes = sc_machine_size(core.tables, &swiftOptions)
        switch chart {
        case .turnstile:
            let typed = try turnstileChart()
            result.kind = "StateMachine"
            result.swiftBytes = try bytesEach(count: 1_000) {
                let machine = StateMachine(typed)
                try machine.start()
                return machine
            }
        case .hierarchical:
            let typed = try hierarchicalChart()
            result.kind = "StateMachine"
            result.swiftBytes = try bytesEach(count: 1_000) {
                let machine = StateMachine(typed)
                try machine.start()
                return machine
            }
        default:
            result.kind = "Machine"
            let compiled = core.compiled
            result.swiftBytes = try bytesEach(count: 100) {
                let machine = Machine(compiled)
                try machine.start()
                return machine
            }
        }
        return result
    }
}
