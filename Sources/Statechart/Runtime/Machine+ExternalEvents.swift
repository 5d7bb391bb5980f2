import CStateCore

/// A hook for hosts that route events between machines. The SCXML importer uses it for
/// `<invoke>` (`<finalize>`, `autoforward`, ignoring events of cancelled invocations) and to
/// keep events from other sessions in arrival order.
extension Machine {
    /// Runs `gate` with the machine held just before each external event's macrostep (events
    /// sent by the host or by actions, and delayed events), with `ctx.event` set to that event.
    ///
    /// Returning `false` drops the event: no transition sees it, observers are not told, and
    /// ``send(_:)`` reports ``SendOutcome/unhandled``. The gate may run executable content for
    /// the event: events it raises with ``ActionContext/raise(_:)`` are processed in the event's
    /// macrostep after its transitions, and events it sends with ``ActionContext/send(_:)``
    /// after that macrostep. A halted machine ignores events without calling the gate.
    /// Replaces any previous gate; `nil` removes it.
    ///
    /// ```swift
    /// machine.setExternalEventGate { ctx in
    ///     ctx.event?.name != "noise"          // "noise" never reaches a transition
    /// }
    /// ```
    /// - Complexity: one call of `gate` per external event.
    public func setExternalEventGate(_ gate: (@Sendable (ActionContext) -> Bool)?) {
        access { runtime.externalEventGate = gate }
    }

    /// Replaces the handler told when a transition is not taken because its targets, with
    /// history states replaced by their recorded values, cannot be active together; `nil`
    /// removes it. It runs with the machine held, before the microstep exits anything, and may
    /// raise events (the SCXML importer raises `error.execution`). Without a handler the send
    /// throws ``MachineError/transitionNotTaken(transition:reason:)`` after its macrostep.
    ///
    /// ```swift
    /// machine.setTransitionErrorHandler { ctx, message in ctx.raise(Event("error.execution", payload: message)) }
    /// ```
    package func setTransitionErrorHandler(_ handler: (@Sendable (ActionContext, String) -> Void)?) {
        access { runtime.transitionErrorHandler = handler }
    }

    /// Asks the gate whether `event` may run; a dropped event's payload is released. Machine locked.
    func admit(_ event: sc_event) -> Bool {
        guard let gate = runtime.externalEventGate, !sc_machine_is_halted(runtime.core) else { return true }
        let admitted = withUnsafePointer(to: event) { event in
            runtime.withCallbackFrame { gate(ActionContext(event: event)) }
        }
        if !admitted { runtime.releaseSlot(event.data) }
        return admitted
    }
}
