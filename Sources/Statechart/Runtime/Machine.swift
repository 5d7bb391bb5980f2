import CMachineLock
import CStateCore
import Synchronization

/// Sizes and bounds of a running machine.
///
/// ```swift
/// let machine = Machine(chart, options: MachineOptions(maximumStepsPerMacrostep: 1_000))
/// ```
public struct MachineOptions: Sendable {
    /// Slots the internal queue (events raised with `raise`, done events) starts with. When a
    /// macrostep raises more, the queue doubles, up to ``maximumInternalQueueLength``: no event
    /// is dropped below that. Default 0: the core's own default for the chart (8 slots, 1 for
    /// a chart whose actions raise nothing), so a machine carries no slots it will not use.
    public var internalQueueCapacity: Int = 0
    /// The most events the internal queue holds at once. An event raised beyond it is not queued
    /// and the send throws ``MachineError/queueFull(event:queue:)`` once the macrostep is done
    /// (a done event beyond it ends the macrostep there). Default 1,000,000 (16 MB of queue).
    public var maximumInternalQueueLength: Int = 1_000_000
    /// Microsteps plus internal events one macrostep may take before it is stopped as a
    /// runaway loop (``MachineError/runaway(steps:configuration:)``).
    public var maximumStepsPerMacrostep: Int = 100_000
    /// No effect. A machine queues the events its actions send to itself in a queue of its own
    /// that grows as needed (bounded by ``maximumQueuedEventsPerSend``), and creates its core
    /// machine without the external queue this once sized (`SC_QUEUE_NONE`): that queue serves
    /// C hosts only.
    @available(*, deprecated, message: "no effect: see maximumQueuedEventsPerSend")
    public var externalQueueCapacity: Int = 16
    /// Events the machine's own actions queued (an SCXML `<send>` to itself) that one call of
    /// ``Machine/start()`` or ``Machine/send(_:)`` processes after its own event, before it is
    /// stopped with ``MachineError/tooManyQueuedEvents(limit:discarded:configuration:)``. Each
    /// event is a whole macrostep, so ``maximumStepsPerMacrostep`` cannot see a chart that
    /// re-sends an event on every entry: without this bound such a send never returns, and a
    /// chart that sends two per entry grows its queue without end. Default 10,000.
    public var maximumQueuedEventsPerSend: Int = 10_000

    /// The core runs the whole SCXML algorithm for every event, never a recorded plan
    /// (`SC_MACHINE_NO_PLANS`): the reference the differential tests compare fast paths with.
    var runsFullAlgorithm = false

    /// Options with the given bounds; the defaults suit almost every chart.
    public init(internalQueueCapacity: Int = 0, maximumStepsPerMacrostep: Int = 100_000) {
        self.internalQueueCapacity = internalQueueCapacity
        self.maximumStepsPerMacrostep = maximumStepsPerMacrostep
    }
}

/// Why a machine could not do what it was asked.
///
/// ```swift
/// do { try machine.send("go") } catch MachineError.notStarted { try machine.start() }
/// ```
public enum MachineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A macrostep exceeded ``MachineOptions/maximumStepsPerMacrostep``: eventless transitions
    /// or raised events kept enabling each other. The machine stopped between two microsteps,
    /// in the (legal) `configuration` given; it can still receive events.
    case runaway(steps: Int, configuration: [String])
    /// A queue was full and `event` was not queued: for the internal queue, it already held
    /// ``MachineOptions/maximumInternalQueueLength`` events.
    case queueFull(event: String, queue: String)
    /// A transition was not taken: its targets, once history states are replaced by their
    /// values, cannot be active together (two children of one compound state). The macrostep
    /// went on without it, in a legal configuration. (An SCXML machine raises `error.execution`
    /// instead.)
    case transitionNotTaken(transition: String, reason: String)
    /// ``Machine/start()`` has not been called.
    case notStarted
    /// ``Machine/start()`` was called twice.
    case alreadyStarted
    /// One send (or ``Machine/start()``) processed `limit` events the chart had queued for
    /// itself (``MachineOptions/maximumQueuedEventsPerSend``) and more kept coming: the
    /// `discarded` events still queued were dropped. The machine stopped between two
    /// macrosteps, in the (legal) `configuration` given; it can still receive events.
    case tooManyQueuedEvents(limit: Int, discarded: Int, configuration: [String])
    /// ``Machine/interrupt()`` stopped the macrostep between two microsteps (or before the
    /// next queued event), in the (legal) `configuration` given; events still queued were
    /// dropped. The machine stays interrupted until ``Machine/clearInterrupt()``.
    case interrupted(configuration: [String])

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .runaway(let steps, let configuration):
            return "runaway macrostep: more than \(steps) microsteps and internal events without becoming stable; stopped in [\(configuration.joined(separator: ", "))]"
        case .queueFull(let event, let queue):
            return "the \(queue) event queue is full (MachineOptions.maximumInternalQueueLength); event '\(event)' was not queued"
        case .transitionNotTaken(let transition, let reason):
            return "\(transition) was not taken: \(reason)"
        case .notStarted:
            return "the machine has not been started; call start() first"
        case .alreadyStarted:
            return "the machine has already been started"
        case .tooManyQueuedEvents(let limit, let discarded, let configuration):
            return "the chart kept sending events to itself: one send processed \(limit) queued events (MachineOptions.maximumQueuedEventsPerSend) and \(discarded) more were discarded; stopped in [\(configuration.joined(separator: ", "))]"
        case .interrupted(let configuration):
            return "interrupted between two microsteps; stopped in [\(configuration.joined(separator: ", "))]"
        }
    }
}

/// What became of an event given to ``Machine/send(_:)``.
///
/// ```swift
/// if try machine.send("coin") == .unhandled { print("ignored in \(machine.configuration)") }
/// ```
public enum SendOutcome: Sendable, Equatable {
    /// The event enabled at least one transition (the macrostep has completed).
    case handled
    /// No transition matched the event in the current configuration (observers were told).
    case unhandled
    /// Sent from inside one of this machine's actions or observers: queued, processed after
    /// the current macrostep.
    case queued
    /// The machine had already reached a top-level final state; the event was ignored.
    case halted

    /// Whether the event enabled a transition.
    public var isHandled: Bool { self == .handled }
}

/// A running statechart.
///
/// ```swift
/// let machine = Machine(try CompiledChart(definition))
/// try machine.start()
/// try machine.send("coin")
/// print(machine.configuration)    // ["unlocked"]
/// ```
///
/// ## Threading
/// A machine is `Sendable`: any thread or task may send events. Sends are serialized: each
/// runs its whole macrostep (run to completion) before the next starts; concurrent senders
/// wait their turn, and none is lost. Actions, guards and observers run on the sending thread
/// with the machine held; when they send to the same machine, the event is queued
/// (``SendOutcome/queued``) and processed after the current macrostep, never re-entrantly and
/// without deadlock. An action must not wait for another thread that sends to this machine.
/// See <doc:ThreadingContract>.
public final class Machine: @unchecked Sendable {
    // @unchecked: all mutable state lives in `runtime`, which is only touched with `lock` held;
    // the scheduler has its own lock and is published once, atomically.
    /// The machine's lock (it lives in the runtime's block; the runtime lives as long).
    @usableFromInline let lock: MachineLock
    @usableFromInline let runtime: MachineRuntime
    /// `runtime.core`, kept here for the send path: its dispatch call then waits on one load
    /// from the machine, not on two in a chain through the runtime.
    @usableFromInline let core: OpaquePointer
    /// The delayed-event scheduler, once there is one (see ``scheduler``); retained here.
    private let schedulerSlot = Atomic<Unmanaged<DelayedEventScheduler>?>(nil)
    // Four fields in all (a 64-byte allocation with `core`, which the send path's time paid
    // for: 48 bytes before): what else a machine keeps lives in its runtime.

    /// The typed ``StateMachine`` wrapping this machine, if any (set once, before sharing).
    var typedOwner: AnyObject? {
        get { runtime.typedOwner }
        set { runtime.typedOwner = newValue }
    }

    /// The compiled chart this machine runs.
    public var chart: CompiledChart { runtime.chart }

    /// Creates a machine for `chart`; call ``start()`` to enter its initial configuration.
    ///
    /// - Parameters:
    ///   - chart: the compiled chart to run.
    ///   - options: queue sizes and the runaway bound.
    ///   - clock: the clock delayed events use (``SystemClock`` fires on its own; a
    ///     ``TestClock`` fires when a test advances it).
    public init(_ chart: CompiledChart, options: MachineOptions = MachineOptions(),
                clock: any MachineClock = SystemClock.shared) {
        self.runtime = MachineRuntime(chart: chart, options: options)
        self.lock = runtime.lock
        self.core = runtime.core
        runtime.owner = self
        // A machine on the shared system clock makes its scheduler when it first schedules
        // (most machines never do); one on another clock makes it now, to keep the clock.
        if !SystemClock.isShared(clock) { _ = makeScheduler(clock: clock) }
    }

    deinit {
        if let scheduler = schedulerSlot.load(ordering: .acquiring) {
            scheduler.takeUnretainedValue().close()
            scheduler.release()
        }
        for finish in runtime.takeFinishers() { finish() }
    }

    /// The scheduler of this machine's delayed events, made on first use (any thread, no
    /// machine lock: the first to publish one wins, a loser's is dropped unused).
    var scheduler: DelayedEventScheduler {
        existingScheduler ?? makeScheduler(clock: SystemClock.shared)
    }

    /// The scheduler if one was made: nothing to cancel or report otherwise.
    var existingScheduler: DelayedEventScheduler? {
        schedulerSlot.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    private func makeScheduler(clock: any MachineClock) -> DelayedEventScheduler {
        let made = DelayedEventScheduler(clock: clock)
        made.machine = self
        let retained = Unmanaged.passRetained(made)
        let (published, current) = schedulerSlot.compareExchange(
            expected: nil, desired: retained, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if published { return made }
        retained.release()
        return current!.takeUnretainedValue()
    }

    /// Runs `body` with the machine held; from inside the machine's own callbacks (which
    /// already hold it) runs `body` directly.
    @inline(__always)
    func access<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(ifReentered: body, body)
    }

    /// Enters the initial configuration and completes the first macrostep.
    ///
    /// ```swift
    /// let machine = Machine(chart)
    /// machine.onStateChange { print($1 ? "enter" : "exit", $0) }   // observe the initial entry too
    /// try machine.start()
    /// ```
    /// - Throws: ``MachineError/alreadyStarted``, ``MachineError/runaway(steps:configuration:)``.
    public func start() throws {
        try enterInitialConfiguration(drainingQueue: true)
    }

    /// ``start()``, or with `drainingQueue` false ``startStep()``: the events the start-up
    /// macrostep's actions sent stay queued.
    func enterInitialConfiguration(drainingQueue: Bool) throws {
        try access {
            guard !runtime.started else { throw MachineError.alreadyStarted }
            runtime.started = true
            try check(sc_machine_start(runtime.core))
            if drainingQueue && !runtime.externalQueue.isEmpty { try drainPending() }
            finishMacrostep()
        }
    }

    /// Sends `event` and runs its macrostep to completion (then any events its actions sent).
    ///
    /// ```swift
    /// try machine.send(Event("deposit", payload: 20))
    /// ```
    /// - Returns: whether the event was handled, unhandled, queued (sent from inside this
    ///   machine's own actions) or ignored because the machine has halted.
    /// - Throws: ``MachineError`` for a runaway macrostep, a full queue, or a machine not started.
    /// - Complexity: one macrostep; the name is looked up in a hash table (strings are hashed).
    ///   Typed machines skip the lookup: see ``StateMachine/send(_:)``.
    @discardableResult
    public func send(_ event: Event) throws -> SendOutcome {
        try submit(event, typed: nil, known: nil)
    }

    /// Sends the event `name` with an optional payload.
    ///
    /// ```swift
    /// try machine.send("deposit", payload: 20)
    /// ```
    @discardableResult
    public func send(_ name: String, payload: (any Sendable)? = nil) throws -> SendOutcome {
        try send(Event(name, payload: payload))
    }

    /// The send path of a `Sendable` machine: every send, step, recorded send and delayed
    /// event goes through here. From inside the machine's own callbacks (this thread holds the
    /// lock) the event joins the external queue and `queued` answers: running it now would
    /// start a macrostep inside another. Otherwise, holding the lock, `run` processes it
    /// (``process(_:drainingQueue:)``). `makeEvent` runs with the lock held either way, since
    /// it may take a payload slot; when it returns `nil` nothing is sent and the answer is `nil`.
    /// `lock` is this machine's lock, as the caller keeps it (a ``StateMachine`` keeps a copy:
    /// the lock is then one load from the caller, not two).
    @inlinable @inline(__always)
    func enqueueOrRun<T>(through lock: MachineLock, _ makeEvent: () -> sc_event?, queued: () -> T,
                         run: (sc_event) throws -> T) rethrows -> T? {
        try lock.withLock(ifReentered: {
            guard let event = makeEvent() else { return nil }
            queueFromCallback(event)
            return queued()
        }) {
            guard let event = makeEvent() else { return nil }
            return try run(event)
        }
    }

    /// ``enqueueOrRun(through:_:queued:run:)`` through this machine's lock.
    @inline(__always)
    func enqueueOrRun<T>(_ makeEvent: () -> sc_event?, queued: () -> T,
                         run: (sc_event) throws -> T) rethrows -> T? {
        try enqueueOrRun(through: lock, makeEvent, queued: queued, run: run)
    }

    /// ``enqueueOrRun(through:_:queued:run:)`` for an event that is always sent.
    @inline(__always)
    func enqueueOrRun<T>(_ makeEvent: () -> sc_event, queued: () -> T,
                         run: (sc_event) throws -> T) rethrows -> T {
        try enqueueOrRun(through: lock, { Optional(makeEvent()) }, queued: queued, run: run)!
    }

    /// Sends a core event: queued from a callback, else its macrostep and then the events
    /// queued meanwhile.
    @inline(__always)
    func send(core event: sc_event) throws -> SendOutcome {
        try enqueueOrRun({ event }, queued: { .queued }, run: { try process($0) })
    }

    /// The general send path: `event` with its payload, typed value or unknown name in a slot.
    func submit(_ event: Event, typed: (any Sendable)?, known: (id: UInt32, exact: Bool)?) throws -> SendOutcome {
        try enqueueOrRun({ runtime.coreEvent(event, typed: typed, known: known) },
                         queued: { .queued }, run: { try process($0) })
    }

    /// The allocation-free send of typed machines: an interned event id with no payload,
    /// through `lock`, this machine's lock as the caller keeps it. (Not inlined into callers,
    /// unlike a ``LocalStateMachine``'s send: the lock's two paths, single- and multi-threaded,
    /// make it too large.)
    @inlinable @inline(__always)
    func send(coreEventID id: UInt32, flags: UInt32 = 0, through lock: MachineLock) throws -> SendOutcome {
        let event = sc_event(id: id, flags: flags, data: 0)
        return try enqueueOrRun(through: lock, { event }, queued: { .queued }, run: { try process($0) })!
    }

    /// A confined machine's send (`LocalStateMachine.sendCoreEvent`) when it must hold the lock:
    /// with plain stores (see `MachineLock.withConfinedHold`), or the real lock once the machine
    /// is shared; from the machine's own callbacks the event is queued.
    @usableFromInline
    func sendConfinedLocked(_ makeEvent: () -> sc_event) throws -> SendOutcome {
        try lock.withConfinedHold(isShared: { runtime.isShared }, ifReentered: {
            queueFromCallback(makeEvent())
            return .queued
        }) { try process(makeEvent()) }
    }

    /// After an unlocked confined dispatch that left work (see
    /// ``finishProcessing(_:drainingQueue:)``); releases the lock if a callback shared the
    /// machine and took the lock meanwhile (`MachineRuntime.shareConfinedMachine`), which wakes
    /// a thread already waiting for it.
    @usableFromInline
    func finishConfinedSend(_ status: sc_status) throws -> SendOutcome {
        defer {
            if runtime.releasesLockAfterSend {
                runtime.releasesLockAfterSend = false
                machine_lock_release(lock.raw)
            }
        }
        return try finishProcessing(status, drainingQueue: true)
    }

    /// An event sent from one of the machine's own callbacks: queued for after the macrostep.
    /// Out of line, so that the sends inlined into their callers stay small.
    @usableFromInline @inline(never)
    func queueFromCallback(_ event: sc_event) {
        runtime.externalQueue.append(event)
    }

    /// Runs one external event's macrostep, then (when `drainingQueue`) the events queued
    /// meanwhile. Lock held.
    ///
    /// When the dispatch policy allows it (``DispatchPolicy/dispatchesDirectly``) the event goes
    /// straight to `sc_machine_dispatch`, and when the status says nothing is left to do
    /// (``DispatchPolicy/completesSend(_:)``) the send is done; anything else goes the whole
    /// way (``processInFull(_:drainingQueue:)``, ``finishProcessing(_:drainingQueue:)``).
    /// Callbacks open and close their own frames, so no caller of the core restores one.
    @inlinable @inline(__always)
    func process(_ event: sc_event, drainingQueue: Bool = true) throws -> SendOutcome {
        guard runtime.dispatchPolicy.dispatchesDirectly else { return try processInFull(event, drainingQueue: drainingQueue) }
        let status = sc_machine_dispatch(core, event)
        if runtime.dispatchPolicy.completesSend(status) { return status == SC_OK ? .handled : .unhandled }
        return try finishProcessing(status, drainingQueue: drainingQueue)
    }

    /// ``process(_:drainingQueue:)`` after a direct dispatch that left work: errors, the
    /// events queued meanwhile, a requested stop, a halt.
    @usableFromInline
    func finishProcessing(_ status: sc_status, drainingQueue: Bool) throws -> SendOutcome {
        if status.rawValue < 0 || runtime.pendingError != nil { try check(status) }
        if drainingQueue && !runtime.externalQueue.isEmpty { try drainPending() }
        finishMacrostep()
        return Self.outcome(status)
    }

    /// ``process(_:drainingQueue:)`` when the dispatch policy allows no direct dispatch: the
    /// machine is not started, an external-event gate or unhandled-event observer must see the
    /// event, or the machine is the full-algorithm reference.
    @usableFromInline
    func processInFull(_ event: sc_event, drainingQueue: Bool) throws -> SendOutcome {
        guard runtime.started else {
            runtime.releaseSlot(event.data)
            throw MachineError.notStarted
        }
        let outcome = try dispatch(event)
        if drainingQueue && !runtime.externalQueue.isEmpty { try drainPending() }
        finishMacrostep()
        return outcome
    }

    @inline(__always)
    func dispatch(_ event: sc_event) throws -> SendOutcome {
        if runtime.externalEventGate != nil && !admit(event) { return .unhandled }
        if runtime.wantsUnhandled { return try dispatchReportingUnhandled(event) }
        let status = sc_machine_dispatch(runtime.core, event)
        if status.rawValue < 0 || runtime.pendingError != nil { try check(status) }
        return Self.outcome(status)
    }

    /// Dispatch when unhandled-event observers exist: the event is captured before the core
    /// releases its payload, so it can be reported.
    private func dispatchReportingUnhandled(_ event: sc_event) throws -> SendOutcome {
        let seen = runtime.observed(event)
        let status = sc_machine_dispatch(runtime.core, event)
        if status.rawValue < 0 || runtime.pendingError != nil { try check(status) }
        if status == SC_UNHANDLED { runtime.reportUnhandled(seen) }
        return Self.outcome(status)
    }

    @inline(__always)
    private static func outcome(_ status: sc_status) -> SendOutcome {
        switch status {
        case SC_UNHANDLED: return .unhandled
        case SC_HALTED: return .halted
        default: return .handled
        }
    }

    /// Processes the events actions and observers queued, in order, including those queued
    /// while draining, up to ``MachineOptions/maximumQueuedEventsPerSend`` of them. On an error
    /// the rest is dropped (their payloads released).
    func drainPending() throws {
        var next = 0
        defer {
            while next < runtime.externalQueue.count {
                runtime.releaseSlot(runtime.externalQueue[next].data)
                next += 1
            }
            runtime.externalQueue.removeAll(keepingCapacity: true)
        }
        while next < runtime.externalQueue.count {
            if isInterrupted {
                throw MachineError.interrupted(configuration: runtime.activeStates(atomicOnly: true))
            }
            if next == runtime.maximumQueuedEvents {
                throw MachineError.tooManyQueuedEvents(limit: next, discarded: runtime.externalQueue.count - next,
                                                       configuration: runtime.activeStates(atomicOnly: true))
            }
            let event = runtime.externalQueue[next]
            next += 1
            _ = try dispatch(event)
        }
    }

    /// After a macrostep: honours a ``stop()`` requested from a callback, and once the machine
    /// has halted cancels its delayed events and finishes its streams.
    @inline(__always)
    func finishMacrostep() {
        if runtime.stopRequested {
            runtime.stopRequested = false
            runtime.clearExternalQueue()
            _ = sc_machine_stop(runtime.core)
        }
        if !runtime.haltReported && sc_machine_is_halted(runtime.core) {
            runtime.haltReported = true
            scheduler.close()
            for finish in runtime.takeFinishers() { finish() }
        }
    }

    func check(_ status: sc_status) throws {
        if let error = runtime.pendingError {
            runtime.pendingError = nil
            throw error
        }
        switch status {
        case SC_ERR_RUNAWAY:
            runtime.clearExternalQueue()
            throw MachineError.runaway(steps: runtime.maximumSteps,
                                       configuration: runtime.activeStates(atomicOnly: true))
        case SC_ERR_INTERRUPTED:
            runtime.clearExternalQueue()
            throw MachineError.interrupted(configuration: runtime.activeStates(atomicOnly: true))
        case SC_ERR_QUEUE_FULL:
            // Only a done event reaches here (a raise that does not fit sets pendingError).
            throw MachineError.queueFull(event: "done.state.*", queue: "internal")
        case SC_ERR_NOT_STARTED:
            throw MachineError.notStarted
        default:
            precondition(status.rawValue >= 0, "CStateCore: \(String(cString: sc_status_text(status)))")
        }
    }

    /// Exits every active state (running exit actions, cancelling invocations) and halts.
    /// The configuration still shows where the machine stopped. Pending delayed events are
    /// cancelled and transition streams finish.
    ///
    /// Called from one of the machine's own actions or observers, the stop happens once the
    /// current macrostep has completed.
    ///
    /// ```swift
    /// machine.stop()
    /// machine.isFinished    // true
    /// ```
    public func stop() {
        access {
            if sc_machine_is_busy(runtime.core) {
                runtime.stopRequested = true
                return
            }
            runtime.clearExternalQueue()
            if runtime.started { _ = sc_machine_stop(runtime.core) }
            runtime.haltReported = true
            scheduler.close()
            for finish in runtime.takeFinishers() { finish() }
        }
    }

    // MARK: - Reading the configuration

    /// Whether state `id` is active. `false` for unknown ids.
    ///
    /// ```swift
    /// machine.isActive("unlocked")    // true after "coin"
    /// ```
    public func isActive(_ id: String) -> Bool { access { runtime.isActive(id) } }

    /// The active atomic states (leaves, final states included) in document order.
    public var configuration: [String] { access { runtime.activeStates(atomicOnly: true) } }

    /// Every active state, compound and parallel ancestors included, in document order.
    public var activeStates: [String] { access { runtime.activeStates(atomicOnly: false) } }

    /// Whether ``start()`` has run.
    public var isStarted: Bool { access { runtime.started } }

    /// Whether the machine has reached a top-level final state (or was stopped).
    public var isFinished: Bool { access { sc_machine_is_halted(runtime.core) } }
}
