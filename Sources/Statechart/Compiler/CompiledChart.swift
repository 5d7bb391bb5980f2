import CStateCore
import Synchronization

/// A validated chart compiled into CStateCore's constant tables, ready to run any number of
/// machines. Immutable, so it can be shared between threads.
///
/// ```swift
/// let compiled = try CompiledChart(definition)       // throws ChartCompilationError
/// let a = Machine(compiled), b = Machine(compiled)   // two independent machines
/// ```
///
/// - Complexity: compiling is O(states + transitions + targets) plus O(targets²) per transition
///   for the legal-configuration check of multi-target transitions.
public final class CompiledChart: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init, and the table memory is owned
    // here and never written again, so sharing across threads is safe.

    /// The chart's name.
    public let name: String
    /// State ids in document order; index 0 is the chart root (named after the chart).
    public let stateIDs: [String]
    /// Event names the chart mentions (descriptors, their prefixes, done events), by event id.
    public let eventNames: [String]
    /// This chart, told apart from every other chart of the process, past and present.
    @usableFromInline package let identity = ChartIdentity.next()

    let stateIndex: [String: Int]
    let events: EventTable
    /// Guards and action lists by the ids the core's tables use (see ``CallbackTable``).
    let guardTable: CallbackTable<GuardBox>
    let actionTable: CallbackTable<ActionBox>
    let invocations: [Int: [Invocation]]
    let doneData: [Int: DoneData]
    let kinds: [sc_state_kind]
    /// The history states' indices in document order (what a snapshot reads records of).
    let historyStates: [Int]

    let chartPointer: UnsafeMutablePointer<sc_chart>
    /// The `sc_options.flags` every machine of this chart passes: `SC_MACHINE_TRUSTED_CHART`.
    /// The tables passed `sc_chart_check` when they were compiled (`ChartCompiler.layOutTables`
    /// throws otherwise) and are never written again, so the core skips the check, linear in the
    /// chart's size, for each machine.
    let coreMachineFlags: UInt32 = SC_MACHINE_TRUSTED_CHART
    /// `sc_machine_size` for the last options asked (see ``coreMachineBytes(_:)``), packed as
    /// the options' internal queue capacity and flags (high half) and the size (low half);
    /// 0 while nothing is known.
    private let machineBytesCache = Atomic<UInt64>(0)
    /// Whether the chart has a top-level final state, the only way a machine of it can halt on
    /// its own (read by each machine's send path; worked out here once).
    let hasTopLevelFinalState: Bool
    private let statesPointer: UnsafeMutableBufferPointer<sc_state>
    private let transitionsPointer: UnsafeMutableBufferPointer<sc_transition>
    private let eventsPointer: UnsafeMutableBufferPointer<sc_event_info>
    private let targetsPointer: UnsafeMutableBufferPointer<sc_id>
    private let descriptorsPointer: UnsafeMutableBufferPointer<sc_id>

    /// Compiles and validates `definition`.
    ///
    /// - Throws: ``ChartCompilationError`` listing every problem: duplicate or empty ids,
    ///   unknown targets, invalid initial states, misplaced or malformed history states,
    ///   final states with children, targets that cannot be active together, bad descriptors.
    public init(_ definition: ChartDefinition) throws {
        let compiled = try ChartCompiler.compile(definition)
        self.name = definition.name
        self.stateIDs = compiled.stateIDs
        self.eventNames = compiled.eventTable.names
        self.stateIndex = compiled.stateIndex
        self.events = compiled.eventTable
        self.guardTable = CallbackTable(compiled.guards)
        self.actionTable = CallbackTable(compiled.actions.map(ActionBox.sequence))
        self.invocations = compiled.invocations
        self.doneData = compiled.doneData
        self.kinds = compiled.kinds
        self.historyStates = compiled.kinds.indices.filter {
            compiled.kinds[$0] == SC_HISTORY_SHALLOW || compiled.kinds[$0] == SC_HISTORY_DEEP
        }
        self.chartPointer = compiled.chart
        self.statesPointer = compiled.states
        self.transitionsPointer = compiled.transitions
        self.eventsPointer = compiled.events
        self.targetsPointer = compiled.targets
        self.descriptorsPointer = compiled.descriptors
        let tables = compiled.chart.pointee
        self.hasTopLevelFinalState = (0..<Int(tables.state_count)).contains {
            tables.states[$0].kind == UInt8(SC_FINAL.rawValue) && tables.states[$0].depth == 1
        }
    }

    deinit {
        chartPointer.deallocate()
        statesPointer.deallocate()
        transitionsPointer.deallocate()
        eventsPointer.deallocate()
        targetsPointer.deallocate()
        descriptorsPointer.deallocate()
    }

    /// The bytes of a core machine of this chart with `options` (`sc_machine_size`), worked out
    /// once for the options every machine of a program usually shares: the core's layout walks
    /// the chart's states, and `sc_machine_init` walks them again.
    func coreMachineBytes(_ options: inout sc_options) -> Int {
        // External queue and step bound do not change the size (a Machine has no external queue).
        let cacheable = options.internal_queue_capacity < 1 << 24 && options.flags < 1 << 8
            && options.external_queue_capacity == SC_QUEUE_NONE
        let key = UInt64(options.internal_queue_capacity) << 8 | UInt64(options.flags)
        if cacheable {
            let cached = machineBytesCache.load(ordering: .relaxed)
            if cached != 0 && cached >> 32 == key { return Int(cached & 0xFFFF_FFFF) }
        }
        let bytes = sc_machine_size(chartPointer, &options)
        if cacheable && bytes > 0 && bytes < 1 << 32 {
            machineBytesCache.store(key << 32 | UInt64(bytes), ordering: .relaxed)
        }
        return bytes
    }

    /// Number of states, the chart root included.
    public var stateCount: Int { stateIDs.count }

    /// Number of transitions, default-entry and history default transitions included.
    public var transitionCount: Int { Int(chartPointer.pointee.transition_count) }

    /// The document-order index of the state `id`, or `nil`.
    public func index(of id: String) -> Int? { stateIndex[id] }

    /// Whether state `index` is atomic (no child states; final states included).
    func isAtomic(_ index: Int) -> Bool { kinds[index] == SC_ATOMIC || kinds[index] == SC_FINAL }

    /// The source state id of transition `index`.
    public func sourceOfTransition(_ index: Int) -> String {
        stateIDs[Int(transitionsPointer[index].source)]
    }

    /// The target state ids of transition `index` (empty when targetless).
    public func targetsOfTransition(_ index: Int) -> [String] {
        let t = transitionsPointer[index]
        return (0..<Int(t.target_count)).map { stateIDs[Int(targetsPointer[Int(t.targets_offset) + $0])] }
    }

    /// The id the core sees for an event named `name`, exactly as the runtime maps a sent or
    /// raised name (its own id, else its longest interned prefix's, else `SC_EVENT_UNKNOWN`):
    /// for code generators that compile a name once.
    package func coreEventID(_ name: String) -> UInt32 { events.lookup(name).id }

    /// The raw tables, for code generation and low-level use. Valid while `self` lives.
    public var tables: UnsafePointer<sc_chart> { UnsafePointer(chartPointer) }
}
