import CStateCore

/// The compiler's passes, in the order they run. Each pass may rely on the ones before it; the
/// errors of every pass up to the table layout are collected, so one compilation reports every
/// problem of the definition in document order.
extension ChartCompiler {
    /// Compiles `definition` into checked C tables.
    ///
    /// 1. flatten the tree in document order, index the ids (`flatten`);
    /// 2. check each state's shape: initial states, history and final states (`checkShape`);
    /// 3. resolve the transitions, grouped by source in document order, then the default-entry
    ///    transitions of compound and history states (`resolveTransitions`);
    /// 4. intern `done.state.<id>` for every compound and parallel state (`internDoneEvents`);
    /// 5. lay out the C tables, fill their masks and run `sc_chart_check` (`layOutTables`).
    ///
    /// - Throws: ``ChartCompilationError`` with every error found (after pass 1 alone when the
    ///   tree is too deep to walk further).
    static func compile(_ definition: ChartDefinition) throws -> CompiledTables {
        // The root state: its children are the definition's own array, so every node's
        // definition lives in storage `definition` holds for the whole compilation.
        let root = StateDefinition(definition.name, initial: definition.initial, children: definition.states,
                                   location: definition.location)
        return try withUnsafePointer(to: root) { root in
            var compiler = ChartCompiler()
            compiler.flatten(root, onStart: definition.startBoxes)
            guard !compiler.errors.contains(where: { $0.code == .tooDeep }) else {
                throw ChartCompilationError(compiler.errors)
            }
            for s in compiler.nodes.indices { compiler.checkShape(s) }
            let transitions = compiler.resolveTransitions()
            let doneEvents = compiler.internDoneEvents()
            if !compiler.errors.isEmpty { throw ChartCompilationError(compiler.errors) }
            return try compiler.layOutTables(transitions, doneEvents: doneEvents, chartName: definition.name)
        }
    }

    /// Every transition in table order, and where each state's group and default entry are.
    struct ResolvedTransitions {
        /// Transitions grouped by source in document order, then default-entry transitions.
        var pending: [PendingTransition] = []
        var firstTransition: [sc_id]
        var transitionCounts: [UInt32]
        /// Compound states: the initial transition; history states: the default; else SC_NONE.
        var initial: [UInt32]
    }

    /// Pass 3: resolves targets, descriptors, guards and actions of every transition.
    mutating func resolveTransitions() -> ResolvedTransitions {
        let stateCount = nodes.count
        var result = ResolvedTransitions(firstTransition: Array(repeating: 0, count: stateCount),
                                         transitionCounts: Array(repeating: 0, count: stateCount),
                                         initial: Array(repeating: UInt32(SC_NONE), count: stateCount))
        result.pending.reserveCapacity(transitionCount + stateCount)
        for s in 0..<stateCount {
            result.firstTransition[s] = sc_id(result.pending.count)
            // Read in place: a transition is not copied to be resolved.
            nodes[s].definition.transitions.withUnsafeBufferPointer { list in
                for number in list.indices {
                    if let resolved = transition(list.baseAddress! + number, source: s, number: number + 1) {
                        result.pending.append(resolved)
                    }
                }
            }
            result.transitionCounts[s] = UInt32(result.pending.count) - result.firstTransition[s]
        }
        for s in 0..<stateCount {
            let resolved: PendingTransition?
            switch nodes[s].kind {
            case SC_COMPOUND: resolved = initialTransition(of: s)
            case SC_HISTORY_SHALLOW, SC_HISTORY_DEEP: resolved = historyTransition(of: s)
            default: resolved = nil
            }
            if let resolved {
                result.initial[s] = UInt32(result.pending.count)
                result.pending.append(resolved)
            }
        }
        return result
    }

    /// Pass 4: the done event of each compound and parallel state (SC_NONE for the others).
    mutating func internDoneEvents() -> [UInt32] {
        var doneEvents = Array(repeating: UInt32(SC_NONE), count: nodes.count)
        for s in 1..<max(nodes.count, 1) where nodes[s].kind == SC_COMPOUND || nodes[s].kind == SC_PARALLEL {
            doneEvents[s] = events.intern("done.state." + nodes[s].definition.id)
        }
        return doneEvents
    }
}
