import CStateCore

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
    let guardTable: CallbackTable<Guard>
    let actionTable: CallbackTable<Action>
    let invocations: [Int: [Invocation]]
    let doneData: [Int: DoneData]
    let kinds: [sc_state_kind]

    let chartPointer: UnsafeMutablePointer<sc_chart>
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
        var compiler = ChartCompiler()
        compiler.flatten(definition)
        guard !compiler.errors.contains(where: { $0.code == .tooDeep }) else {
            throw ChartCompilationError(compiler.errors)
        }
        let stateCount = compiler.nodes.count
        for s in 0..<stateCount { compiler.checkShape(s) }

        // Transitions grouped by source in document order, then default-entry transitions.
        var pending: [ChartCompiler.PendingTransition] = []
        pending.reserveCapacity(compiler.transitionCount + stateCount)
        var firstTransition = Array(repeating: sc_id(0), count: stateCount)
        var transitionCounts = Array(repeating: UInt32(0), count: stateCount)
        for s in 0..<stateCount {
            firstTransition[s] = sc_id(pending.count)
            // Read in place: a transition is not copied to be resolved.
            compiler.nodes[s].definition.transitions.withUnsafeBufferPointer { list in
                for number in list.indices {
                    if let resolved = compiler.transition(list.baseAddress! + number, source: s, number: number + 1) {
                        pending.append(resolved)
                    }
                }
            }
            transitionCounts[s] = UInt32(pending.count) - firstTransition[s]
        }
        var initial = Array(repeating: UInt32(SC_NONE), count: stateCount)
        for s in 0..<stateCount {
            let resolved: ChartCompiler.PendingTransition?
            switch compiler.nodes[s].kind {
            case SC_COMPOUND: resolved = compiler.initialTransition(of: s)
            case SC_HISTORY_SHALLOW, SC_HISTORY_DEEP: resolved = compiler.historyTransition(of: s)
            default: resolved = nil
            }
            if let resolved {
                initial[s] = UInt32(pending.count)
                pending.append(resolved)
            }
        }
        // done.state.<id> for every compound and parallel state.
        var doneEvents = Array(repeating: UInt32(SC_NONE), count: stateCount)
        for s in 1..<max(stateCount, 1) where compiler.nodes[s].kind == SC_COMPOUND || compiler.nodes[s].kind == SC_PARALLEL {
            doneEvents[s] = compiler.events.intern("done.state." + compiler.nodes[s].definition.id)
        }
        if !compiler.errors.isEmpty { throw ChartCompilationError(compiler.errors) }

        // Lay out the tables. The pools hold every pending transition's targets and descriptors
        // in order, so they are the tables' pools as they are.
        let states = UnsafeMutableBufferPointer<sc_state>.allocate(capacity: stateCount)
        let transitions = UnsafeMutableBufferPointer<sc_transition>.allocate(capacity: max(pending.count, 1))
        let targetCount = compiler.targetPool.count
        let descriptorCount = compiler.descriptorPool.count
        let targets = UnsafeMutableBufferPointer<sc_id>.allocate(capacity: max(targetCount, 1))
        let descriptors = UnsafeMutableBufferPointer<sc_id>.allocate(capacity: max(descriptorCount, 1))
        _ = targets.initialize(from: compiler.targetPool)
        _ = descriptors.initialize(from: compiler.descriptorPool)
        for i in pending.indices {
            let t = pending[i]
            var flags: UInt32 = t.isInternal ? UInt32(SC_TRANSITION_INTERNAL) : 0
            if compiler.targetsHistory(t) { flags |= UInt32(SC_TRANSITION_DYNAMIC_DOMAIN) }
            let domain = compiler.domain(t)
            transitions[i] = sc_transition(
                source: sc_id(t.source), domain: domain.map { sc_id($0) } ?? SC_NONE,
                targets_offset: UInt32(t.targetStart), target_count: UInt32(t.targetCount),
                events_offset: UInt32(t.descriptorStart), event_count: UInt32(t.descriptorCount),
                guard: t.guardID, action: t.actionID, flags: flags, reserved: 0)
        }
        var stateIDs: [String] = []
        var kinds: [sc_state_kind] = []
        stateIDs.reserveCapacity(stateCount)
        kinds.reserveCapacity(stateCount)
        for s in 0..<stateCount {
            // Fields read in place: a node is not copied.
            let kind = compiler.nodes[s].kind
            let hasInvocations = !compiler.nodes[s].definition.invocations.isEmpty
            let hasDoneData = compiler.nodes[s].definition.doneData != nil && kind == SC_FINAL
            var flags: UInt8 = 0
            if hasInvocations { flags |= UInt8(SC_STATE_HAS_INVOKE) }
            if compiler.hasHistoryChild(s) { flags |= UInt8(SC_STATE_HAS_HISTORY) }
            if hasDoneData { flags |= UInt8(SC_STATE_HAS_DONEDATA) }
            let parent = compiler.nodes[s].parent
            let onEntry = compiler.nodes[s].definition.onEntry.isEmpty
                ? UInt32(SC_NONE) : compiler.actionID(compiler.nodes[s].definition.onEntry)
            let onExit = compiler.nodes[s].definition.onExit.isEmpty
                ? UInt32(SC_NONE) : compiler.actionID(compiler.nodes[s].definition.onExit)
            states[s] = sc_state(
                parent: parent < 0 ? SC_NONE : sc_id(parent),
                last_descendant: sc_id(compiler.nodes[s].lastDescendant),
                first_transition: firstTransition[s], transition_count: transitionCounts[s],
                initial: initial[s], on_entry: onEntry, on_exit: onExit,
                done_event: doneEvents[s], own_mask: 0, path_mask: 0,
                kind: UInt8(kind.rawValue), flags: flags, depth: UInt16(compiler.nodes[s].depth), reserved: 0)
            if hasInvocations { compiler.invocations[s] = compiler.nodes[s].definition.invocations }
            if hasDoneData { compiler.doneData[s] = compiler.nodes[s].definition.doneData }
            stateIDs.append(compiler.nodes[s].definition.id)
            kinds.append(kind)
        }
        let eventTable = compiler.events
        let eventInfo = UnsafeMutableBufferPointer<sc_event_info>.allocate(capacity: max(eventTable.names.count, 1))
        for (e, prefix) in eventTable.prefixes.enumerated() {
            eventInfo[e] = sc_event_info(prefix: prefix, reserved: 0, mask: 0)
        }
        let chart = UnsafeMutablePointer<sc_chart>.allocate(capacity: 1)
        chart.initialize(to: sc_chart(
            state_count: UInt32(stateCount), transition_count: UInt32(pending.count),
            event_count: UInt32(eventTable.names.count), target_pool_count: UInt32(targetCount),
            descriptor_pool_count: UInt32(descriptorCount), flags: 0,
            states: UnsafePointer(states.baseAddress), transitions: UnsafePointer(transitions.baseAddress),
            events: UnsafePointer(eventInfo.baseAddress), targets: UnsafePointer(targets.baseAddress),
            descriptors: UnsafePointer(descriptors.baseAddress), state_names: nil, event_names: nil))
        sc_chart_fill_masks(chart, states.baseAddress, eventInfo.baseAddress)

        self.name = definition.name
        self.stateIDs = stateIDs
        self.eventNames = eventTable.names
        // Every id is unique here (duplicates are errors), so the compiler's index is the map.
        self.stateIndex = compiler.index
        self.events = eventTable
        self.guardTable = CallbackTable(single: compiler.guards)
        self.actionTable = CallbackTable(lists: compiler.actions)
        self.invocations = compiler.invocations
        self.doneData = compiler.doneData
        self.kinds = kinds
        self.chartPointer = chart
        self.statesPointer = states
        self.transitionsPointer = transitions
        self.eventsPointer = eventInfo
        self.targetsPointer = targets
        self.descriptorsPointer = descriptors

        var problem = sc_chart_error()
        if sc_chart_check(chart, &problem) != SC_OK {
            let message = problem.message.map { String(cString: $0) } ?? "unknown"
            let table = problem.table.map { String(cString: $0) } ?? "?"
            throw ChartCompilationError([ChartError(.internalInconsistency, path: definition.name,
                "compiler produced inconsistent tables (\(table)[\(problem.index)]: \(message)); please report this chart")])
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
