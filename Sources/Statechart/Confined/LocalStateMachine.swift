import CStateCore

/// A typed statechart confined to one thread (or task) at a time: the compiler keeps it there,
/// so a send takes no lock and no atomic instruction, whatever other threads the program runs.
///
/// ```swift
/// let turnstile = try LocalStateMachine<TurnstileState, TurnstileEvent> {
///     StateNode(.locked) { On(.coin, to: .unlocked) }
///     StateNode(.unlocked) { On(.push, to: .locked) }
/// }
/// try turnstile.start()
/// try turnstile.send(.coin)            // .handled, with plain loads and stores only
/// turnstile.isActive(.unlocked)        // true
/// ```
///
/// It runs the same charts as ``StateMachine``, with the same actions, guards, observers,
/// outcomes and errors; events its own actions and observers send are queued and processed
/// after the current macrostep, as there. What differs is who may use it: a
/// `LocalStateMachine` is not `Sendable`, so it cannot be captured by a `@Sendable` closure or
/// passed to another isolation domain except by transferring it (`sending`); one thread uses
/// it at a time. Use ``StateMachine`` for a machine shared between threads or tasks.
///
/// A chart may still reach other threads: an invocation or a delayed event (``After``) sends
/// from its own thread, and an action may keep ``ActionContext/machine`` and send to it later.
/// Reading ``ActionContext/machine`` from one of this machine's callbacks hands its machine
/// out, and from then on its sends take the lock, as a ``StateMachine``'s do.
/// See <doc:ThreadingContract>.
public final class LocalStateMachine<State: Hashable & Sendable, Event: ChartEvent> {
    /// The machine it drives. Not exposed: a `StateMachine` is `Sendable`, and would let other
    /// threads send to this one.
    let base: StateMachine<State, Event>
    // What the send path reads, held directly: reached through `base`, the compiler retained
    // the machine around each send (a slow retain: the machine has weak references); reached
    // through the machine, each send waited for two more dependent loads (machine -> runtime
    // -> core). The runtime's core machine never changes after its init.
    @usableFromInline let machine: Machine
    @usableFromInline let runtime: MachineRuntime
    @usableFromInline let core: OpaquePointer
    @usableFromInline let eventKeys: ByteKeyTable

    /// The chart this machine runs.
    public var chart: TypedChart<State, Event> { base.chart }

    /// A machine for `chart` whose context starts as `context` (``ChartEvent/Context``); call
    /// ``start()`` to enter the initial configuration.
    ///
    /// ```swift
    /// let door = LocalStateMachine(doorChart, context: Tally())
    /// ```
    /// - Parameters:
    ///   - chart: the compiled chart to run.
    ///   - options: queue sizes and the runaway bound.
    ///   - clock: the clock of delayed events; pass a ``TestClock`` in tests.
    ///   - context: the context's first value.
    public init(_ chart: TypedChart<State, Event>, options: MachineOptions = MachineOptions(),
                clock: any MachineClock = SystemClock.shared, context: Event.Context) {
        base = StateMachine(chart, options: options, clock: clock, context: context)
        machine = base.machine
        runtime = machine.runtime
        core = machine.runtime.core
        eventKeys = chart.eventKeys
        runtime.isConfined = true
    }

    /// The machine's context; see ``StateMachine/context``.
    public var context: Event.Context { base.context }

    /// Enters the initial configuration and completes the first macrostep.
    ///
    /// Register observers first to see the initial entries.
    /// - Throws: ``MachineError/alreadyStarted``, ``MachineError/runaway(steps:configuration:)``.
    public func start() throws { try base.start() }

    /// Sends `event` and runs its macrostep to completion, then any events its actions sent;
    /// see ``StateMachine/send(_:)``, which answers and throws the same.
    ///
    /// ```swift
    /// try machine.send(.coin)
    /// ```
    /// - Complexity: one macrostep. For an event without payload that the chart mentions, no
    ///   allocation, no string work, no lock and no atomic instruction.
    @inlinable @inline(__always) @discardableResult
    public func send(_ event: Event) throws -> SendOutcome {
        let id = eventKeys.id(for: event)
        guard id != .max else { return try sendGeneral(event) }
        return try sendCoreEvent { sc_event(id: id, flags: 0, data: 0) }
    }

    /// The one send path of a confined machine. While the dispatch policy allows it
    /// (``DispatchPolicy/confinedSendsUnlocked``) the event goes straight to the core holding
    /// nothing: one flag, `sc_machine_dispatch` and one test of its status, no thread id, no
    /// atomic instruction. No other thread can reach the machine, and its own callbacks cannot
    /// send to it without sharing it first (``ActionContext/machine``), which takes the lock.
    /// Otherwise the lock is held (`Machine.sendConfinedLocked`).
    @inlinable @inline(__always)
    func sendCoreEvent(_ makeEvent: () -> sc_event) throws -> SendOutcome {
        guard runtime.dispatchPolicy.confinedSendsUnlocked else { return try machine.sendConfinedLocked(makeEvent) }
        let status = sc_machine_dispatch(core, makeEvent())
        if runtime.dispatchPolicy.completesSend(status) { return status == SC_OK ? .handled : .unhandled }
        return try machine.finishConfinedSend(status)
    }

    /// The send for events the byte table does not cover (payloads, names the chart does not
    /// mention): the same path, the event converted by the general mapping.
    @usableFromInline
    func sendGeneral(_ event: Event) throws -> SendOutcome {
        let (untyped, typed, known) = base.maps.untyped(event)
        return try sendCoreEvent { runtime.coreEvent(untyped, typed: typed, known: known) }
    }

    /// Exits every active state and halts; see ``Machine/stop()``.
    public func stop() { base.stop() }

    /// Whether `state` is active (for a compound or parallel state: whether the machine is
    /// somewhere inside it).
    public func isActive(_ state: State) -> Bool { base.isActive(state) }

    /// The active atomic states in document order.
    public var configuration: [State] { base.configuration }

    /// Every active state, compound and parallel ancestors included, in document order.
    public var activeStates: [State] { base.activeStates }

    /// Whether ``start()`` has run.
    public var isStarted: Bool { base.isStarted }

    /// Whether the machine has reached a top-level ``Final`` state (or was stopped).
    public var isFinished: Bool { base.isFinished }

    /// Whether `event`, sent now, would enable a transition; see ``StateMachine/canHandle(_:evaluatingGuards:)``.
    public func canHandle(_ event: Event, evaluatingGuards: Bool = true) -> Bool {
        base.canHandle(event, evaluatingGuards: evaluatingGuards)
    }

    // MARK: - Observers (see StateMachine+Observers.swift: the same, called the same way)

    /// Calls `observer` for each transition taken, before its actions run.
    @discardableResult
    public func onTransition(_ observer: @escaping @Sendable (StateMachine<State, Event>.Transition) -> Void) -> ObserverToken {
        base.onTransition(observer)
    }

    /// Calls `observer` each time a state is entered (`entered` true) or exited.
    ///
    /// ```swift
    /// machine.onStateChange { state, entered in print(entered ? "+" : "-", state) }
    /// ```
    @discardableResult
    public func onStateChange(_ observer: @escaping @Sendable (_ state: State, _ entered: Bool) -> Void) -> ObserverToken {
        base.onStateChange(observer)
    }

    /// Calls `observer` with each event that enabled no transition.
    @discardableResult
    public func onUnhandled(_ observer: @escaping @Sendable (Event) -> Void) -> ObserverToken {
        base.onUnhandled(observer)
    }

    /// Calls `observer` with errors no caller can receive (a delayed event's macrostep failed).
    @discardableResult
    public func onError(_ observer: @escaping @Sendable (MachineError) -> Void) -> ObserverToken {
        base.onError(observer)
    }

    /// Removes an observer registered on this machine.
    public func removeObserver(_ token: ObserverToken) { base.removeObserver(token) }
}

/// Not `Sendable`: that is what lets its sends skip the lock.
@available(*, unavailable)
extension LocalStateMachine: Sendable {}

extension LocalStateMachine where Event.Context == NoContext {
    /// A machine for `chart`, whose events declare no context (as ``StateMachine``'s).
    public convenience init(_ chart: TypedChart<State, Event>, options: MachineOptions = MachineOptions(),
                            clock: any MachineClock = SystemClock.shared) {
        self.init(chart, options: options, clock: clock, context: NoContext())
    }

    /// Builds a chart with the DSL and a machine for it, in one step:
    /// `try LocalStateMachine<Matter, Phase>(name: "matter") { ... }`.
    ///
    /// - Throws: ``ChartCompilationError`` when the chart is illegal.
    @inlinable
    public convenience init(name: String = "chart", initial: State? = nil,
                            options: MachineOptions = MachineOptions(), clock: any MachineClock = SystemClock.shared,
                            @ChartBuilder<State, Event> _ content: () -> ChartContent<State, Event>) throws {
        self.init(try TypedChart(name: name, initial: initial, content), options: options, clock: clock,
                  context: NoContext())
    }
}
