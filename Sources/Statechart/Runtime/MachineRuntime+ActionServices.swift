import CStateCore

/// What an ``ActionContext`` asks of the machine from inside a callback: raise and send
/// events, read the configuration.
extension MachineRuntime {
    func raiseFromAction(_ event: Event, typed: (any Sendable)? = nil, known: (id: UInt32, exact: Bool)? = nil) {
        raise(coreEvent(event, typed: typed, known: known), name: event.name)
    }

    func raise(_ event: sc_event, name: @autoclosure () -> String) {
        if sc_machine_raise(core, event) != SC_OK {
            releaseSlot(event.data)
            pendingError = .queueFull(event: name(), queue: "internal")
        }
    }

    func postFromAction(_ event: Event, typed: (any Sendable)? = nil, known: (id: UInt32, exact: Bool)? = nil) {
        externalQueue.append(coreEvent(event, typed: typed, known: known))
    }

    func isActive(_ id: String) -> Bool {
        guard let index = chart.stateIndex[id] else { return false }
        return isActive(index: index)
    }

    /// Whether the state at `index`, an index of this machine's chart, is active: its bit in
    /// the core's configuration (see ``configuration``).
    @inlinable @inline(__always)
    func isActive(index: Int) -> Bool {
        // No range check: every caller's index comes from the chart's own tables (the typed
        // maps, the SCXML state tests, `chart.stateIndex`).
        return configuration[index &>> 6] &>> UInt64(index & 63) & 1 != 0
    }

    /// Indices of the active states in document order (atomic ones only when `atomicOnly`).
    func activeIndices(atomicOnly: Bool) -> [Int] {
        let count = sc_machine_active_states(core, atomicOnly, nil, 0)
        return [sc_id](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
            initialized = Int(sc_machine_active_states(core, atomicOnly, buffer.baseAddress, count))
        }.map { Int($0) }
    }

    func activeStates(atomicOnly: Bool) -> [String] {
        activeIndices(atomicOnly: atomicOnly).map { chart.stateIDs[$0] }
    }
}
