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
        let nodes = compiler.nodes
        guard compiler.errors.filter({ $0.code == .tooDeep }).isEmpty else {
            throw ChartCompilationError(compiler.errors)
        }
        for s in nodes.indices { compiler.checkShape(s) }

        // Transitions grouped by source in document order, then default-entry transitions.
        var pending: [ChartCompiler.PendingTransition] = []
        var groups: [(first: Int, count: Int)] = Array(repeating: (0, 0), count: nodes.count)
        for s in nodes.indices {
            groups[s].first = pending.count
            for (number, t) in nodes[s].definition.transitions.enumerated() {
                if let resolved = compiler.transition(t, source: s, number: number + 1) {
                    pending.append(resolved)
                }
            }
            groups[s].count = pending.count - groups[s].first
        }
        var initial = Array(repeating: UInt32(SC_NONE), count: nodes.count)
        for s in nodes.indices {
            let resolved: ChartCompiler.PendingTransition?
            switch nodes[s].kind {
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
        var doneEvents = Array(repeating: UInt32(SC_NONE), count: nodes.count)
        for s in nodes.indices.dropFirst() where nodes[s].kind == SC_COMPOUND || nodes[s].kind == SC_PARALLEL {
            doneEvents[s] = compiler.events.intern("done.state." + nodes[s].definition.id)
        }
        if !compiler.errors.isEmpty { throw ChartCompilationError(compiler.errors) }

        // Lay out the tables.
        let stateCount = nodes.count
        let states = UnsafeMutableBufferPointer<sc_state>.allocate(capacity: stateCount)
        let transitions = UnsafeMutableBufferPointer<sc_transition>.allocate(capacity: max(pending.count, 1))
        let targetCount = pending.reduce(0) { $0 + $1.targets.count }
        let descriptorCount = pending.reduce(0) { $0 + $1.descriptors.count }
        let targets = UnsafeMutableBufferPointer<sc_id>.allocate(capacity: max(targetCount, 1))
        let descriptors = UnsafeMutableBufferPointer<sc_id>.allocate(capacity: max(descriptorCount, 1))
        var targetOffset = 0, descriptorOffset = 0
        for (i, t) in pending.enumerated() {
            for (k, target) in t.targets.enumerated() { targets[targetOffset + k] = sc_id(target) }
            for (k, d) in t.descriptors.enumerated() { descriptors[descriptorOffset + k] = d }
            let historyTarget = t.targets.contains { compiler.isHistory($0) }
            var flags: UInt32 = t.isInternal ? UInt32(SC_TRANSITION_INTERNAL) : 0
            if historyTarget { flags |= UInt32(SC_TRANSITION_DYNAMIC_DOMAIN) }
            let domain = compiler.domain(source: t.source, targets: t.targets, isInternal: t.isInternal)
            transitions[i] = sc_transition(
                source: sc_id(t.source), domain: domain.map { sc_id($0) } ?? SC_NONE,
                targets_offset: UInt32(targetOffset), target_count: UInt32(t.targets.count),
                events_offset: UInt32(descriptorOffset), event_count: UInt32(t.descriptors.count),
                guard: t.guardID, action: t.actionID, flags: flags, reserved: 0)
            targetOffset += t.targets.count
            descriptorOffset += t.descriptors.count
        }
        for (s, node) in nodes.enumerated() {
            var flags: UInt8 = 0
            if !node.definition.invocations.isEmpty { flags |= UInt8(SC_STATE_HAS_INVOKE) }
            if compiler.children(of: s).contains(where: compiler.isHistory) { flags |= UInt8(SC_STATE_HAS_HISTORY) }
            if node.definition.doneData != nil && node.kind == SC_FINAL { flags |= UInt8(SC_STATE_HAS_DONEDATA) }
            states[s] = sc_state(
                parent: node.parent < 0 ? SC_NONE : sc_id(node.parent),
                last_descendant: sc_id(node.lastDescendant),
                first_transition: sc_id(groups[s].first), transition_count: UInt32(groups[s].count),
                initial: initial[s],
                on_entry: compiler.actionID(node.definition.onEntry),
                on_exit: compiler.actionID(node.definition.onExit),
                done_event: doneEvents[s], own_mask: 0, path_mask: 0,
                kind: UInt8(node.kind.rawValue), flags: flags, depth: UInt16(node.depth), reserved: 0)
            if !node.definition.invocations.isEmpty { compiler.invocations[s] = node.definition.invocations }
            if let done = node.definition.doneData, node.kind == SC_FINAL { compiler.doneData[s] = done }
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
        self.stateIDs = nodes.map(\.definition.id)
        self.eventNames = eventTable.names
        self.stateIndex = Dictionary(uniqueKeysWithValues: nodes.indices.dropFirst().map { (nodes[$0].definition.id, $0) })
        self.events = eventTable
        self.guardTable = CallbackTable(single: compiler.guards)
        self.actionTable = CallbackTable(lists: compiler.actions)
        self.invocations = compiler.invocations
        self.doneData = compiler.doneData
        self.kinds = nodes.map(\.kind)
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

    /// The raw tables, for code generation and low-level use. Valid while `self` lives.
    public var tables: UnsafePointer<sc_chart> { UnsafePointer(chartPointer) }
}
