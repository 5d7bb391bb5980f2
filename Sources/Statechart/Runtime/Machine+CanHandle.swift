import CStateCore

extension Machine {
    /// Whether `event`, sent now, would enable a transition: the question Transporter calls
    /// `canFireEvent`. Nothing runs except, when `evaluatingGuards`, the guards of matching
    /// transitions (so guards should be free of side effects).
    ///
    /// ```swift
    /// machine.canHandle("coin")     // true in "locked"
    /// machine.canHandle("push")     // false in "locked" if nothing handles push there
    /// ```
    /// - Complexity: O(active atomic states × depth × transitions per state).
    public func canHandle(_ event: Event, evaluatingGuards: Bool = true) -> Bool {
        canHandle(event, typed: nil, known: nil, evaluatingGuards: evaluatingGuards)
    }

    /// ``canHandle(_:evaluatingGuards:)`` for an event a typed machine has already mapped.
    /// The core answers (`sc_machine_can_handle`: its own selection walk and name matching);
    /// false before ``start()`` and once halted.
    func canHandle(_ event: Event, typed: (any Sendable)?, known: (id: UInt32, exact: Bool)?,
                   evaluatingGuards: Bool) -> Bool {
        access {
            let raw = runtime.coreEvent(event, typed: typed, known: known)
            defer { runtime.releaseSlot(raw.data) }
            return sc_machine_can_handle(runtime.core, raw, evaluatingGuards)
        }
    }
}
