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
        access {
            let raw = runtime.coreEvent(event)
            defer { runtime.releaseSlot(raw.data) }
            return wouldSelect(raw, evaluatingGuards: evaluatingGuards)
        }
    }

    /// Whether the event with interned id `raw.id` would select a transition. Gate held.
    ///
    /// Mirrors selectTransitions of the W3C algorithm without taking anything: for each active
    /// atomic state, its own transitions then its ancestors', in document order.
    func wouldSelect(_ raw: sc_event, evaluatingGuards: Bool) -> Bool {
        guard runtime.started, !sc_machine_is_halted(runtime.core) else { return false }
        let tables = chart.tables.pointee
        for atomic in runtime.activeIndices(atomicOnly: true) {
            var s = sc_id(atomic)
            while s != SC_NONE {
                let state = tables.states[Int(s)]
                let first = Int(state.first_transition)
                for t in first..<(first + Int(state.transition_count)) {
                    let transition = tables.transitions[t]
                    guard transition.event_count > 0, matches(transition, raw.id, tables) else { continue }
                    if transition.guard == SC_NONE || !evaluatingGuards { return true }
                    if runtime.evaluateGuard(Int(transition.guard), event: raw) { return true }
                }
                s = state.parent
            }
        }
        return false
    }

    /// nameMatch over interned ids: a descriptor matches the event or one of its dot-prefixes.
    private func matches(_ transition: sc_transition, _ event: sc_id, _ tables: sc_chart) -> Bool {
        for k in 0..<Int(transition.event_count) {
            let descriptor = tables.descriptors[Int(transition.events_offset) + k]
            if descriptor == SC_EVENT_ANY { return true }
            var e = event
            while e < tables.event_count {
                if e == descriptor { return true }
                e = tables.events[Int(e)].prefix
            }
        }
        return false
    }
}
