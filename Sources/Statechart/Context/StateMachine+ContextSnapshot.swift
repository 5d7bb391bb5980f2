extension StateMachine {
    /// A snapshot of a typed machine together with its context: `Codable` when the states,
    /// events and the context are.
    ///
    /// ```swift
    /// let saved = try JSONEncoder().encode(try machine.snapshot(context: Login.self))
    /// let snapshot = try JSONDecoder().decode(StateMachine<Screen, LoginEvent>.ContextSnapshot<Login>.self, from: saved)
    /// let restored = try StateMachine(chart, restoring: snapshot)
    /// restored.context(as: Login.self)?.attempts       // as it was
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
    /// let snapshot = try machine.snapshot(context: Login.self)
    /// ```
    /// - Throws: what ``snapshot()`` throws; ``SnapshotError/contextMismatch(expected:found:)``
    ///   when the machine's context is not a `Value`.
    public func snapshot<Value: Sendable>(context type: Value.Type) throws -> ContextSnapshot<Value> {
        // Updates run inside macrosteps and bump the version: if it did not move across the
        // capture, the value read is the one that went with the captured configuration.
        guard let extendedState else {
            throw SnapshotError.contextMismatch(expected: String(reflecting: Value.self), found: "no context")
        }
        while true {
            let before = extendedState.read().version
            let machine = try snapshot()
            let (after, value) = extendedState.read()
            guard before == after else { continue }
            guard let context = value as? Value else {
                throw SnapshotError.contextMismatch(expected: String(reflecting: Value.self),
                                                    found: value.map { String(reflecting: Swift.type(of: $0)) } ?? "no context")
            }
            return ContextSnapshot(machine: machine, context: context)
        }
    }

    /// Replaces this machine's state and context with `snapshot`'s, running no action.
    ///
    /// ```swift
    /// try machine.restore(snapshot)
    /// ```
    public func restore<Value: Sendable>(_ snapshot: ContextSnapshot<Value>) throws {
        guard let extendedState else {
            throw SnapshotError.contextMismatch(expected: String(reflecting: Value.self), found: "no context")
        }
        try restore(snapshot.machine)
        extendedState.write(snapshot.context)
    }

    /// A machine for `chart` in the state and with the context `snapshot` recorded.
    ///
    /// ```swift
    /// let machine = try StateMachine(chart, restoring: snapshot, clock: clock)
    /// ```
    public convenience init<Value: Sendable>(_ chart: TypedChart<State, Event>, restoring snapshot: ContextSnapshot<Value>,
                                             options: MachineOptions = MachineOptions(),
                                             clock: any MachineClock = SystemClock.shared) throws {
        self.init(chart, options: options, clock: clock, context: snapshot.context)
        try restore(snapshot.machine)
    }
}

extension StateMachine.ContextSnapshot: Equatable where Value: Equatable {}
extension StateMachine.ContextSnapshot: Hashable where Value: Hashable {}
extension StateMachine.ContextSnapshot: Codable where State: Codable, Event: Codable, Value: Codable {}
