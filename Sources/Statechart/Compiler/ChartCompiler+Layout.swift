import CStateCore

extension ChartCompiler {
    /// Pass 5: writes the C tables (`sc_state`, `sc_transition`, `sc_event_info`, the target and
    /// descriptor pools), fills their event masks and checks them with `sc_chart_check`. The
    /// pools already hold every pending transition's targets and descriptors in table order, so
    /// they are the tables' pools as they are.
    ///
    /// - Throws: ``ChartError/Code/internalInconsistency`` when the core rejects the tables (a
    ///   compiler bug: every rule it checks was checked by an earlier pass).
    mutating func layOutTables(_ resolved: ResolvedTransitions, doneEvents: [UInt32],
                               chartName: String) throws -> CompiledTables {
        let stateCount = nodes.count
        let pending = resolved.pending
        let states = UnsafeMutableBufferPointer<sc_state>.allocate(capacity: stateCount)
        let transitions = UnsafeMutableBufferPointer<sc_transition>.allocate(capacity: max(pending.count, 1))
        let targets = UnsafeMutableBufferPointer<sc_id>.allocate(capacity: max(targetPool.count, 1))
        let descriptors = UnsafeMutableBufferPointer<sc_id>.allocate(capacity: max(descriptorPool.count, 1))
        _ = targets.initialize(from: targetPool)
        _ = descriptors.initialize(from: descriptorPool)
        for i in pending.indices {
            let t = pending[i]
            var flags: UInt32 = t.isInternal ? UInt32(SC_TRANSITION_INTERNAL) : 0
            if targetsHistory(t) { flags |= UInt32(SC_TRANSITION_DYNAMIC_DOMAIN) }
            let domain = domain(t)
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
            let kind = nodes[s].kind
            let hasInvocations = !nodes[s].definition.invocations.isEmpty
            let hasDoneData = nodes[s].definition.doneData != nil && kind == SC_FINAL
            var flags: UInt8 = 0
            if hasInvocations { flags |= UInt8(SC_STATE_HAS_INVOKE) }
            if hasHistoryChild(s) { flags |= UInt8(SC_STATE_HAS_HISTORY) }
            if hasDoneData { flags |= UInt8(SC_STATE_HAS_DONEDATA) }
            let parent = nodes[s].parent
            let onEntry = nodes[s].definition.entryBoxes.isEmpty ? UInt32(SC_NONE) : actionID(nodes[s].definition.entryBoxes)
            let onExit = nodes[s].definition.exitBoxes.isEmpty ? UInt32(SC_NONE) : actionID(nodes[s].definition.exitBoxes)
            states[s] = sc_state(
                parent: parent < 0 ? SC_NONE : sc_id(parent),
                last_descendant: sc_id(nodes[s].lastDescendant),
                first_transition: resolved.firstTransition[s], transition_count: resolved.transitionCounts[s],
                initial: resolved.initial[s], on_entry: onEntry, on_exit: onExit,
                done_event: doneEvents[s], own_mask: 0, path_mask: 0,
                kind: UInt8(kind.rawValue), flags: flags, depth: UInt16(nodes[s].depth), reserved: 0)
            if hasInvocations { invocations[s] = nodes[s].definition.invocations }
            if hasDoneData { doneData[s] = nodes[s].definition.doneData }
            stateIDs.append(nodes[s].definition.id)
            kinds.append(kind)
        }
        let eventInfo = UnsafeMutableBufferPointer<sc_event_info>.allocate(capacity: max(events.names.count, 1))
        for (e, prefix) in events.prefixes.enumerated() {
            eventInfo[e] = sc_event_info(prefix: prefix, reserved: 0, mask: 0)
        }
        let chart = UnsafeMutablePointer<sc_chart>.allocate(capacity: 1)
        chart.initialize(to: sc_chart(
            state_count: UInt32(stateCount), transition_count: UInt32(pending.count),
            event_count: UInt32(events.names.count), target_pool_count: UInt32(targetPool.count),
            descriptor_pool_count: UInt32(descriptorPool.count), flags: 0,
            states: UnsafePointer(states.baseAddress), transitions: UnsafePointer(transitions.baseAddress),
            events: UnsafePointer(eventInfo.baseAddress), targets: UnsafePointer(targets.baseAddress),
            descriptors: UnsafePointer(descriptors.baseAddress), state_names: nil, event_names: nil))
        sc_chart_fill_masks(chart, states.baseAddress, eventInfo.baseAddress)

        let compiled = CompiledTables(
            chart: chart, states: states, transitions: transitions, events: eventInfo,
            targets: targets, descriptors: descriptors, stateIDs: stateIDs, kinds: kinds,
            stateIndex: index, eventTable: events, guards: guards, actions: actions,
            invocations: invocations, doneData: doneData)
        var problem = sc_chart_error()
        if sc_chart_check(chart, &problem) != SC_OK {
            compiled.deallocate()
            let message = problem.message.map { String(cString: $0) } ?? "unknown"
            let table = problem.table.map { String(cString: $0) } ?? "?"
            throw ChartCompilationError([ChartError(.internalInconsistency, path: chartName,
                "compiler produced inconsistent tables (\(table)[\(problem.index)]: \(message)); please report this chart")])
        }
        return compiled
    }
}
