/// What the path search asks of a machine beyond the public API: its state as indices, put
/// back without running anything, and a cheap "might this event do anything here".
extension Machine {
    /// The active atomic states' indices, in document order.
    package var atomicStateIndices: [Int] { access { runtime.activeIndices(atomicOnly: true) } }

    /// The configuration and history records as the path search compares machine states.
    package func searchKey() throws -> MachineSearchKey {
        let raw = try captureRaw()
        return MachineSearchKey(active: raw.active, history: raw.history.map { [$0.state] + $0.remembered },
                                queued: raw.internalEvents.map(\.event.name), halted: raw.halted)
    }

    /// Puts the machine in the state `key` describes, as ``restore(_:)`` does: nothing runs,
    /// observers are not told. Queued internal events come back by name, without payload;
    /// pending delayed events are dropped (the search never fires them).
    package func restore(searchKey key: MachineSearchKey) throws {
        try restoreRaw(active: key.active, history: key.history.map { ($0[0], Array($0.dropFirst())) }, halted: key.halted,
                       internalEvents: key.queued.map { RestoredEvent(event: Event($0), typed: nil, known: nil) },
                       delayed: [])
    }

    /// The core's id for the event `name`, for ``mightHandle(_:)``.
    package func coreEvent(named name: String) -> (id: UInt32, exact: Bool) { chart.events.lookup(name) }

    /// ``canHandle(_:evaluatingGuards:)`` without evaluating guards, for an event already
    /// looked up with ``coreEvent(named:)``: no hashing or allocation.
    package func mightHandle(_ event: Event, known: (id: UInt32, exact: Bool)) -> Bool {
        canHandle(event, typed: nil, known: known, evaluatingGuards: false)
    }
}

/// A machine's configuration, history records (each the history state then what it
/// remembers), queued internal events and whether it halted, by index: what the path search
/// tells machine states apart by (and, for the null datamodel, all of its state).
package struct MachineSearchKey: Hashable, Sendable {
    package var active: [Int]
    package var history: [[Int]]
    package var queued: [String]
    package var halted: Bool
}
