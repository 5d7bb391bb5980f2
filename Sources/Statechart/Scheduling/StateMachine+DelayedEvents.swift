extension StateMachine {
    /// Sends `event` once `delay` has passed on the machine's clock, through the normal
    /// serialized send path; see ``Machine/send(_:after:id:)``.
    ///
    /// ```swift
    /// machine.send(.timeout, after: .seconds(30), id: "idle")
    /// machine.cancel(sendID: "idle")
    /// ```
    /// - Returns: the send id (`id`, or a generated `"send.N"`).
    @discardableResult
    public func send(_ event: Event, after delay: Duration, id: String? = nil) -> String {
        let (untyped, typed, _) = maps.untyped(event)
        return machine.schedule(untyped, typed: typed, after: delay, id: id)
    }

    /// Cancels the pending delayed events sent with `sendID`.
    ///
    /// - Returns: whether an event was still pending.
    @discardableResult
    public func cancel(sendID: String) -> Bool {
        machine.cancel(sendID: sendID)
    }

    /// The send ids of the delayed events still pending, in delivery order (``After`` timers
    /// appear as `"statechart.after.N"`).
    public var pendingSendIDs: [String] { machine.pendingSendIDs }

    /// The clock this machine's delayed events use.
    public var clock: any MachineClock { machine.clock }
}
