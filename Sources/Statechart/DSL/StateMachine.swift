import CStateCore

/// A running typed statechart: send your own events, read your own states.
///
/// ```swift
/// let machine = try StateMachine<TurnstileState, TurnstileEvent> {
///     StateNode(.locked) { On(.coin, to: .unlocked) }
///     StateNode(.unlocked) { On(.push, to: .locked) }
/// }
/// try machine.start()
/// try machine.send(.coin)              // .handled
/// machine.isActive(.unlocked)          // true
/// try machine.send(.coin)              // .unhandled: nothing handles a coin when unlocked
/// ```
///
/// A `StateMachine` wraps an untyped ``Machine`` (``machine``) and shares its dispatch, so
/// everything said there holds here: sends are serialized and run to completion, events sent
/// from actions and observers are queued, and the machine may be used from any thread or task
/// (see <doc:ThreadingContract>).
///
/// ``send(_:)`` is the fast path: for events without payload (enums whose cases carry no
/// values) it maps the event to the core's interned id by its bytes, with no hashing, string
/// work or allocation. ``transition(on:)`` reports the transitions taken and the
/// configurations before and after, at the cost of allocating that report.
public final class StateMachine<State: Hashable & Sendable, Event: ChartEvent>: Sendable {
    /// The chart this machine runs.
    public let chart: TypedChart<State, Event>
    /// The untyped machine underneath: the same machine, seen with string ids and untyped events.
    public let machine: Machine
    /// `machine.lock`, kept here for the send path (see `Machine.send(coreEventID:flags:through:)`);
    /// free in memory: the object's allocation has the room.
    @usableFromInline let lock: MachineLock

    // The chart's tables, read through `chart` rather than copied here: a million machines
    // would hold a million copies (64 bytes each), and the send path pays one load for it.
    @inlinable var eventKeys: ByteKeyTable { chart.eventKeys }
    @usableFromInline var maps: TypedChartMaps<State, Event> { chart.maps }
    /// The tasks of this machine's ``Invoke``s; `nil` when the chart has none.
    let invocationRuns: InvocationRuns?
    /// A machine for `chart` whose context starts as `context` (see ``context``); call
    /// ``start()`` to enter the initial configuration.
    ///
    /// ```swift
    /// let door = StateMachine(doorChart, context: Tally(attempts: 0))
    /// ```
    /// - Parameters:
    ///   - chart: the compiled chart to run.
    ///   - options: queue sizes and the runaway bound.
    ///   - clock: the clock of delayed events; pass a ``TestClock`` in tests.
    ///   - context: the context's first value, of the type the events declare
    ///     (``ChartEvent/Context``).
    public init(_ chart: TypedChart<State, Event>, options: MachineOptions = MachineOptions(),
                clock: any MachineClock = SystemClock.shared, context: Event.Context) {
        self.chart = chart
        self.invocationRuns = chart.hasInvocations ? InvocationRuns() : nil
        self.machine = Machine(chart.compiled, options: options, clock: clock)
        self.lock = machine.lock
        machine.typedOwner = self
        // A chart without context keeps no storage: its guards and actions never ask for it.
        if Event.Context.self != NoContext.self {
            let storage = ContextStorage(context)
            machine.runtime.installContext(storage, address: storage.address)
        }
    }

    /// Builds a chart with the DSL and a machine for it, in one step.
    ///
    /// ```swift
    /// let door = try StateMachine<Door, DoorEvent>(context: Tally()) {
    ///     StateNode(.closed) { On(.knock, to: .open) }
    ///     StateNode(.open)
    /// }
    /// ```
    /// - Throws: ``ChartCompilationError`` when the chart is illegal.
    @inlinable
    public convenience init(name: String = "chart", initial: State? = nil,
                            options: MachineOptions = MachineOptions(), clock: any MachineClock = SystemClock.shared,
                            context: Event.Context,
                            @ChartBuilder<State, Event> _ content: () -> ChartContent<State, Event>) throws {
        self.init(try TypedChart(name: name, initial: initial, content), options: options, clock: clock,
                  context: context)
    }

    /// Enters the initial configuration and completes the first macrostep.
    ///
    /// Register observers first to see the initial entries.
    /// - Throws: ``MachineError/alreadyStarted``, ``MachineError/runaway(steps:configuration:)``.
    public func start() throws { try machine.start() }

    /// Sends `event` and runs its macrostep to completion, then any events its actions sent.
    ///
    /// ```swift
    /// try machine.send(.coin)
    /// try player.send(.seek(to: 42))
    /// ```
    /// From inside this machine's own actions or observers the event is queued and the result
    /// is ``SendOutcome/queued``.
    ///
    /// - Returns: handled, unhandled (also reported to ``onUnhandled(_:)`` observers), queued,
    ///   or halted.
    /// - Throws: ``MachineError`` for a runaway macrostep, a full queue, or a machine not started.
    /// - Complexity: one macrostep. For an event without payload that the chart mentions, the
    ///   send allocates nothing and does no string work: the event's bytes index a table built
    ///   when the chart was compiled. Events with payloads are boxed into a reusable slot.
    @inlinable @inline(__always) @discardableResult
    public func send(_ event: Event) throws -> SendOutcome {
        let id = eventKeys.id(for: event)
        if id != .max { return try machine.send(coreEventID: id, through: lock) }
        return try sendGeneral(event)
    }

    /// The send path for events the byte table does not cover: payloads, names the chart does
    /// not mention, events larger than eight bytes.
    @usableFromInline
    func sendGeneral(_ event: Event) throws -> SendOutcome {
        let (untyped, typed, known) = maps.untyped(event)
        return try machine.submit(untyped, typed: typed, known: known)
    }

    /// Exits every active state and halts; see ``Machine/stop()``.
    public func stop() { machine.stop() }

    // MARK: - Reading the configuration

    /// Whether `state` is active (for a compound or parallel state: whether the machine is
    /// somewhere inside it).
    ///
    /// ```swift
    /// machine.isActive(.playing)
    /// ```
    public func isActive(_ state: State) -> Bool {
        guard let index = maps.index(of: state) else { return false }
        return machine.access { machine.runtime.isActive(index: index) }
    }

    /// The active atomic states (the leaves of the active configuration) in document order.
    public var configuration: [State] {
        machine.access { machine.runtime.activeIndices(atomicOnly: true) }.compactMap(maps.state(at:))
    }

    /// Every active state, compound and parallel ancestors included, in document order.
    public var activeStates: [State] {
        machine.access { machine.runtime.activeIndices(atomicOnly: false) }.compactMap(maps.state(at:))
    }

    /// Whether ``start()`` has run.
    public var isStarted: Bool { machine.isStarted }

    /// Whether the machine has reached a top-level ``Final`` state (or was stopped).
    public var isFinished: Bool { machine.isFinished }

    /// Whether `event`, sent now, would enable a transition (Transporter's `canFireEvent`).
    /// Guards of matching transitions are evaluated unless `evaluatingGuards` is false, so
    /// they should be free of side effects. Nothing else runs.
    ///
    /// ```swift
    /// if machine.canHandle(.push) { showPushHint() }
    /// ```
    public func canHandle(_ event: Event, evaluatingGuards: Bool = true) -> Bool {
        let (untyped, typed, known) = maps.untyped(event)
        return machine.canHandle(untyped, typed: typed, known: known, evaluatingGuards: evaluatingGuards)
    }
}
