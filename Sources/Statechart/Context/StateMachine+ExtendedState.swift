/// A typed machine's context: a value of your own type (a retry count, the signed-in user)
/// that guards read and actions update, next to the configuration.
///
/// ```swift
/// struct Login: Sendable, Codable { var attempts = 0 }
///
/// let machine = try StateMachine<Screen, LoginEvent>(context: Login()) {
///     StateNode(.form) {
///         On(.failed, to: .form, guard: { ctx in ctx.context(as: Login.self)!.attempts < 3 }) { ctx in
///             ctx.updateContext(Login.self) { $0.attempts += 1 }
///         }
///         On(.failed, to: .locked)
///     }
///     StateNode(.locked)
/// }
/// machine.context(as: Login.self)?.attempts      // 0
/// ```
///
/// The value is updated only by actions, inside macrosteps, so updates are serialized like
/// the configuration and happen in the order the actions run (document order within a
/// microstep). ``StateMachine/snapshot(context:)`` captures it with the configuration.
extension StateMachine {
    /// The machine's context when it is a `Value`, else `nil` (also when the machine has none).
    ///
    /// ```swift
    /// let attempts = machine.context(as: Login.self)?.attempts
    /// ```
    public func context<Value: Sendable>(as type: Value.Type = Value.self) -> Value? {
        extendedState?.read().value as? Value
    }
}

extension StateMachine.Context {
    /// The machine's context when it is a `Value`, else `nil`.
    ///
    /// ```swift
    /// On(.retry, to: .loading, guard: { ctx in (ctx.context(as: Login.self)?.attempts ?? 0) < 3 })
    /// ```
    public func context<Value: Sendable>(as type: Value.Type = Value.self) -> Value? {
        owner.extendedState?.read().value as? Value
    }

    /// Updates the machine's context in place. The update is part of the running macrostep:
    /// guards and actions that run after it see the new value.
    ///
    /// ```swift
    /// OnEntry { ctx in ctx.updateContext(Login.self) { $0.attempts += 1 } }
    /// ```
    /// - Precondition: the machine's context is a `Value` (the value given to its initializer
    ///   fixes the type); anything else is a programming error, reported with both types.
    public func updateContext<Value: Sendable>(_ type: Value.Type = Value.self, _ update: (inout Value) -> Void) {
        guard let storage = owner.extendedState else {
            preconditionFailure("updateContext(\(String(reflecting: Value.self)).self): the machine was made without a context; pass context: to its initializer")
        }
        if !storage.update(Value.self, update) {
            let actual = storage.read().value.map { String(reflecting: Swift.type(of: $0)) } ?? "no context"
            preconditionFailure("updateContext(\(String(reflecting: Value.self)).self): the machine's context is \(actual)")
        }
    }

    /// Replaces the machine's context.
    ///
    /// - Precondition: the machine was made with a context (any value of the `context:`
    ///   parameter of its initializer).
    ///
    /// ```swift
    /// On(.signedOut, to: .form) { ctx in ctx.setContext(Login()) }
    /// ```
    public func setContext(_ value: any Sendable) {
        guard let storage = owner.extendedState else {
            preconditionFailure("setContext: the machine was made without a context; pass context: to its initializer")
        }
        storage.write(value)
    }

    /// The typed machine running this action; the context is checked to be live first.
    private var owner: StateMachine<State, Event> {
        _ = untyped.checked
        guard let owner = untyped.machine?.typedOwner as? StateMachine<State, Event> else {
            preconditionFailure("the machine's context was used after its StateMachine was released")
        }
        return owner
    }
}
