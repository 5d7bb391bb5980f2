/// Stepping: one external event at a time, for tools that report each macrostep on its own
/// (the `statechart trace` command prints a line after each input event's macrostep, and only
/// then lets the events the chart sent to itself run).
extension Machine {
    /// Sends `event` and runs its macrostep, but leaves the events that actions sent to the
    /// machine queued; run them with ``processQueuedEvents()``.
    ///
    /// ```swift
    /// try machine.step("start")           // macrostep of "start" only
    /// print(machine.configuration)
    /// try machine.processQueuedEvents()   // then whatever it sent to itself
    /// ```
    @discardableResult
    public func step(_ event: Event) throws -> SendOutcome {
        if gateHeldByCurrentThread {
            runtime.postFromAction(event)
            return .queued
        }
        return try access {
            guard started else { throw MachineError.notStarted }
            return try dispatch(event)
        }
    }

    /// Runs the events queued by the machine's own actions, each to completion, in order.
    public func processQueuedEvents() throws {
        try access {
            guard started else { throw MachineError.notStarted }
            try drainPending()
        }
    }

    /// Whether events sent by the machine's own actions are waiting.
    public var hasQueuedEvents: Bool { access { !runtime.externalQueue.isEmpty } }
}
