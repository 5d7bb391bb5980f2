/// A typed machine's context: a value of your own type (a retry count, the signed-in user)
/// that guards read and actions update, next to the configuration. The event type declares
/// it once (``ChartEvent/Context``), so every read and write is checked by the compiler.
///
/// ```swift
/// struct Login: Sendable, Codable { var attempts = 0 }
/// enum LoginEvent: ChartEvent {
///     case failed
///     typealias Context = Login
/// }
///
/// let machine = try StateMachine<Screen, LoginEvent>(context: Login()) {
///     StateNode(.form) {
///         On(.failed, to: .form, guard: { ctx in ctx.context.attempts < 3 }) { ctx in
///             ctx.context.attempts += 1
///         }
///         On(.failed, to: .locked)
///     }
///     StateNode(.locked)
/// }
/// machine.context.attempts      // 0
/// ```
///
/// The value is updated only by actions, inside macrosteps, so updates are serialized like
/// the configuration and happen in the order the actions run (document order within a
/// microstep). ``StateMachine/snapshotWithContext()`` captures it with the configuration.
extension StateMachine {
    /// The machine's context (``ChartEvent/Context``): as the last completed macrostep left
    /// it; inside a callback, as the actions so far left it.
    ///
    /// ```swift
    /// let attempts = machine.context.attempts
    /// ```
    /// - Complexity: takes the machine's lock (waits for a running macrostep), copies the value.
    public var context: Event.Context {
        if Event.Context.self == NoContext.self { return NoContext() as! Event.Context }
        return machine.access { contextHeld }
    }

    /// The context, read by a caller that holds the machine (a callback, a capture).
    var contextHeld: Event.Context {
        if Event.Context.self == NoContext.self { return NoContext() as! Event.Context }
        return contextStorage.value
    }

    /// The context's storage; read only with the machine held.
    var contextStorage: ContextStorage<Event.Context> {
        guard let address = machine.runtime.contextAddress else {
            preconditionFailure("a StateMachine whose events declare a context always has one")
        }
        return ContextStorage.at(address).takeUnretainedValue()
    }

    /// Replaced by the typed ``context``: declare the type once on the events
    /// (`typealias Context = Login` in the event type).
    @available(*, unavailable, renamed: "context", message: "declare the context type on the event type (typealias Context = T) and read machine.context")
    public func context<Value: Sendable>(as type: Value.Type = Value.self) -> Value? { fatalError() }
}

extension StateMachine where Event.Context == NoContext {
    /// A machine for `chart`, whose events declare no context; call ``start()`` to enter the
    /// initial configuration.
    ///
    /// ```swift
    /// let turnstile = StateMachine(turnstileChart)
    /// ```
    /// - Parameters:
    ///   - chart: the compiled chart to run.
    ///   - options: queue sizes and the runaway bound.
    ///   - clock: the clock of delayed events; pass a ``TestClock`` in tests.
    public convenience init(_ chart: TypedChart<State, Event>, options: MachineOptions = MachineOptions(),
                            clock: any MachineClock = SystemClock.shared) {
        self.init(chart, options: options, clock: clock, context: NoContext())
    }

    /// Builds a chart with the DSL and a machine for it, in one step.
    ///
    /// ```swift
    /// let machine = try StateMachine<Matter, Phase>(name: "matter", clock: TestClock()) {
    ///     StateNode(.solid) { On(.melt, to: .liquid) }
    ///     StateNode(.liquid) { On(.freeze, to: .solid) }
    /// }
    /// ```
    /// - Throws: ``ChartCompilationError`` when the chart is illegal.
    @inlinable
    public convenience init(name: String = "chart", initial: State? = nil,
                            options: MachineOptions = MachineOptions(), clock: any MachineClock = SystemClock.shared,
                            @ChartBuilder<State, Event> _ content: () -> ChartContent<State, Event>) throws {
        self.init(try TypedChart(name: name, initial: initial, content), options: options, clock: clock,
                  context: NoContext())
    }
}

extension StateMachine.Context {
    /// The machine's context (``ChartEvent/Context``), read and written in place; a write is
    /// part of the running macrostep: guards and actions that run after it see the new value,
    /// and observers (``ObservableStateMachine``) are told once per write.
    ///
    /// ```swift
    /// On(.retry, to: .loading, guard: { ctx in ctx.context.attempts < 3 }) { ctx in
    ///     ctx.context.attempts += 1
    /// }
    /// ```
    /// - Complexity: O(1): the value's address is three loads from the running machine, with no
    ///   lock (the machine holds it while its callbacks run), no cast and no reference counting.
    ///   A read returns a copy of the value (arrays and strings in it are shared, not copied); a
    ///   write such as `+= 1` or `append` changes it in place, then tells the observer if one is
    ///   installed.
    @inlinable
    public var context: Event.Context {
        @inline(__always) get {
            if Event.Context.self == NoContext.self { return NoContext() as! Event.Context }
            return contextStorage._withUnsafeGuaranteedRef { $0.valueAddress.pointee }
        }
        nonmutating _modify {
            if NoContext.self == Event.Context.self {
                var none = NoContext() as! Event.Context
                yield &none
                return
            }
            // Unretained, through guaranteed references and the value's own address: the
            // running machine's runtime keeps the storage, so no reference is taken per access.
            let storage = contextStorage
            let address = storage._withUnsafeGuaranteedRef { $0.valueAddress }
            yield &address.pointee
            storage._withUnsafeGuaranteedRef { $0.didChange() }
        }
        nonmutating set {
            if NoContext.self == Event.Context.self { return }
            contextStorage._withUnsafeGuaranteedRef {
                $0.valueAddress.pointee = newValue
                $0.didChange()
            }
        }
    }

    /// The running machine's context storage, once the context is known to be live.
    @inlinable
    var contextStorage: Unmanaged<ContextStorage<Event.Context>> {
        @inline(__always) get {
            let runtime = Unmanaged<MachineRuntime>.fromOpaque(untyped.liveRuntimeAddress)
            guard let address = runtime._withUnsafeGuaranteedRef({ $0.contextAddress }) else {
                Self.noContextStorage()
            }
            return ContextStorage.at(address)
        }
    }

    @usableFromInline
    static func noContextStorage() -> Never {
        preconditionFailure("the context of \(String(reflecting: Event.Context.self)) was used by a chart run on a machine made without it: make the machine with StateMachine(chart, context:)")
    }

    /// Replaced by the typed ``context``.
    @available(*, unavailable, renamed: "context", message: "declare the context type on the event type (typealias Context = T) and read ctx.context")
    public func context<Value: Sendable>(as type: Value.Type = Value.self) -> Value? { fatalError() }

    /// Replaced by writing the typed ``context`` in place.
    @available(*, unavailable, message: "declare the context type on the event type (typealias Context = T) and write ctx.context.field = value")
    public func updateContext<Value: Sendable>(_ type: Value.Type = Value.self, _ update: (inout Value) -> Void) { fatalError() }

    /// Replaced by assigning the typed ``context``.
    @available(*, unavailable, message: "declare the context type on the event type (typealias Context = T) and assign ctx.context = value")
    public func setContext(_ value: any Sendable) { fatalError() }
}
