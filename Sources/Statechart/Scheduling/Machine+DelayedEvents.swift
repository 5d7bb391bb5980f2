extension Machine {
    /// Sends `event` to this machine once `delay` has passed on the machine's clock, through the
    /// normal serialized send path (SCXML `<send delay>` to the machine itself).
    ///
    /// ```swift
    /// let id = machine.send("timeout", after: .seconds(30), id: "idle-timer")
    /// machine.cancel(sendID: id)      // the user did something: no timeout
    /// ```
    ///
    /// Events due at the same time are delivered in the order they were sent. Pending delayed
    /// events are cancelled when the machine halts, is stopped or is deallocated; none keeps the
    /// machine alive. An unhandled delayed event is reported to ``onUnhandled(_:)`` observers,
    /// an error in its macrostep to ``onError(_:)`` observers.
    ///
    /// - Parameters:
    ///   - event: the event to send.
    ///   - delay: how long to wait; zero or negative delays fire at the clock's next wake-up.
    ///   - id: the send id, to cancel the event; `nil` generates a unique one (`"send.N"`).
    ///     Several pending events may share an id: ``cancel(sendID:)`` cancels them all.
    /// - Returns: the send id.
    @discardableResult
    public func send(_ event: Event, after delay: Duration, id: String? = nil) -> String {
        schedule(event, typed: nil, after: delay, id: id)
    }

    /// Schedules a delayed event (dropped when the machine has already halted). Takes no
    /// machine lock: scheduling never waits for a macrostep.
    func schedule(_ event: Event, typed: (any Sendable)?, after delay: Duration, id: String?) -> String {
        scheduler.schedule(event, typed: typed, after: delay, id: id)
    }

    /// Cancels the pending delayed events sent with `sendID` (SCXML `<cancel sendid>`).
    ///
    /// ```swift
    /// machine.cancel(sendID: "idle-timer")
    /// ```
    /// - Returns: whether an event was still pending.
    @discardableResult
    public func cancel(sendID: String) -> Bool {
        existingScheduler?.cancel(id: sendID) ?? false
    }

    /// The send ids of the delayed events still pending, in delivery order.
    ///
    /// ```swift
    /// machine.pendingSendIDs      // ["idle-timer"]
    /// ```
    public var pendingSendIDs: [String] {
        existingScheduler?.pendingEvents().map(\.entry.id) ?? []
    }

    /// The clock this machine's delayed events use.
    public var clock: any MachineClock { existingScheduler?.clock ?? SystemClock.shared }

    /// Delivers a delayed event that fell due, through the serialized send path. Errors go to
    /// the error observers, since no caller is waiting; they are told before the machine is
    /// released, so whoever reads the machine next has already heard of the error.
    func deliverDelayed(_ entry: DelayedEventScheduler.Entry) {
        // From inside one of this machine's callbacks the event is queued like a send.
        _ = enqueueOrRun({
            scheduler.beginProcessing(entry) ? runtime.coreEvent(entry.event, typed: entry.typed) : nil
        }, queued: { () }, run: { event in
            do {
                _ = try process(event)
            } catch let error as MachineError {
                runtime.reportError(error)
            } catch {
                preconditionFailure("unexpected error \(error)")
            }
        })
    }
}
