extension ActionContext {
    /// Sends `event` to the machine once `delay` has passed on its clock (SCXML `<send delay>`
    /// to the machine itself); see ``Machine/send(_:after:id:)``.
    ///
    /// ```swift
    /// StateDefinition("waiting",
    ///                 onEntry: [{ ctx in ctx.send("timeout", after: .seconds(5), id: "wait") }],
    ///                 onExit: [{ ctx in ctx.cancel(sendID: "wait") }])
    /// ```
    /// - Returns: the send id (`id`, or a generated `"send.N"`).
    @discardableResult
    public func send(_ event: Event, after delay: Duration, id: String? = nil) -> String {
        guard let machine else { return id ?? "" }
        return machine.scheduler.schedule(event, typed: nil, after: delay, id: id)
    }

    /// Cancels the machine's pending delayed events sent with `sendID` (SCXML `<cancel>`).
    /// Cancelling an id with nothing pending does nothing.
    ///
    /// ```swift
    /// StateDefinition("waiting", onExit: [{ ctx in ctx.cancel(sendID: "wait") }])
    /// ```
    /// - Returns: whether an event was still pending.
    @discardableResult
    public func cancel(sendID: String) -> Bool {
        machine?.existingScheduler?.cancel(id: sendID) ?? false
    }
}
