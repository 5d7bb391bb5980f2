import CStateCore

/// Stepping: one external event at a time, for tools that report each macrostep on its own
/// (the `statechart trace` command prints a line after each input event's macrostep, and only
/// then lets the events the chart sent to itself run).
extension Machine {
    /// Enters the initial configuration and completes the start-up macrostep, like ``start()``,
    /// but leaves the events that actions sent to the machine queued; run them with
    /// ``processQueuedEvents()``.
    ///
    /// ```swift
    /// try machine.startStep()
    /// print(machine.configuration)        // where start-up's macrostep ended
    /// try machine.processQueuedEvents()   // then whatever start-up sent to the machine
    /// ```
    public func startStep() throws {
        try enterInitialConfiguration(drainingQueue: false)
    }

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
        try enqueueOrRun({ runtime.coreEvent(event) }, queued: { .queued },
                         run: { try process($0, drainingQueue: false) })
    }

    /// Runs the events queued by the machine's own actions, each to completion, in order.
    public func processQueuedEvents() throws {
        try access {
            guard runtime.started else { throw MachineError.notStarted }
            if !runtime.externalQueue.isEmpty { try drainPending() }
            finishMacrostep()
        }
    }

    /// Whether events sent by the machine's own actions are waiting.
    public var hasQueuedEvents: Bool { access { !runtime.externalQueue.isEmpty } }
}
