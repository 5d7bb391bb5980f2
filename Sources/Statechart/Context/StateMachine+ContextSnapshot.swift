extension StateMachine {
    /// A snapshot of a typed machine together with its context: `Codable` when the states,
    /// events and the context are.
    ///
    /// ```swift
    /// let saved = try JSONEncoder().encode(try machine.snapshotWithContext())
    /// let snapshot = try JSONDecoder().decode(StateMachine<Screen, LoginEvent>.ContextSnapshot<Login>.self, from: saved)
    /// let restored = try StateMachine(chart, restoring: snapshot)
    /// restored.context.attempts       // as it was
    /// ```
    public struct ContextSnapshot<Value: Sendable>: Sendable {
        /// The configuration, history, queued and delayed events.
        public var machine: Snapshot
        /// The context when the snapshot was taken.
        public var context: Value

        /// A snapshot from its parts.
        public init(machine: Snapshot, context: Value) {
            self.machine = machine
            self.context = context
        }
    }

    /// Captures the machine as ``snapshot()`` does, with its context, both from the same moment
    /// between two macrosteps.
    ///
    /// ```swift
    /// let snapshot = try machine.snapshotWithContext()
    /// let data = try JSONEncoder().encode(snapshot)     // when states, events and context are Codable
    /// ```
    /// - Throws: what ``snapshot()`` throws.
    public func snapshotWithContext() throws -> ContextSnapshot<Event.Context> {
        var context: Event.Context?
        let machine = try snapshot(whileHeld: { context = self.contextHeld })
        return ContextSnapshot(machine: machine, context: context!)
    }

    /// Replaces this machine's state and context with `snapshot`'s, running no action and
    /// telling observers of the context once.
    ///
    /// ```swift
    /// try machine.restore(snapshot)
    /// ```
    public func restore(_ snapshot: ContextSnapshot<Event.Context>) throws {
        try restore(snapshot.machine, beforeApplying: {
            guard Event.Context.self != NoContext.self else { return }
            let storage = contextStorage
            storage.value = snapshot.context
            storage.didChange()
        })
    }

    /// A machine for `chart` in the state and with the context `snapshot` recorded.
    ///
    /// ```swift
    /// let machine = try StateMachine(chart, restoring: snapshot, clock: clock)
    /// ```
    public convenience init(_ chart: TypedChart<State, Event>, restoring snapshot: ContextSnapshot<Event.Context>,
                            options: MachineOptions = MachineOptions(),
                            clock: any MachineClock = SystemClock.shared) throws {
        self.init(chart, options: options, clock: clock, context: snapshot.context)
        try restore(snapshot.machine)
    }

    /// Replaced by ``snapshotWithContext()``, typed by the context the events declare.
    @available(*, unavailable, renamed: "snapshotWithContext()", message: "declare the context type on the event type (typealias Context = T) and call snapshotWithContext()")
    public func snapshot<Value: Sendable>(context type: Value.Type) throws -> ContextSnapshot<Value> { fatalError() }
}

extension StateMachine.ContextSnapshot: Equatable where Value: Equatable {}
extension StateMachine.ContextSnapshot: Hashable where Value: Hashable {}
extension StateMachine.ContextSnapshot: Codable where State: Codable, Event: Codable, Value: Codable {}
