import CStateCore

/// The state behind a ``Machine``: the C machine, the host callbacks it calls, and the table
/// of event payloads the C queues refer to. Only touched while the machine's gate is held.
///
/// This file holds the state and the `sc_host` table (which callbacks are installed when);
/// `MachineRuntime+Callbacks.swift` what the core calls, `MachineRuntime+EventSlots.swift` the
/// payload slots, `MachineRuntime+ActionServices.swift` what an ``ActionContext`` asks.
///
/// The hot properties are `@exclusivity(unchecked)`: the gate already serializes every access,
/// and the dynamic exclusivity checks would otherwise cost more than the core's dispatch.
@usableFromInline
final class MachineRuntime {
    let chart: CompiledChart
    let maximumSteps: Int
    let maximumQueuedEvents: Int
    /// ``MachineOptions/maximumInternalQueueLength``: the internal queue grows up to it.
    let maximumInternalQueueLength: Int
    /// The internal queue's slots once it has outgrown the machine's block (see
    /// `growInternalQueue`), and how many there are (first the block's).
    var internalQueueStorage: UnsafeMutablePointer<sc_event>?
    var internalQueueSlots: Int
    @usableFromInline @exclusivity(unchecked) private(set) var core: OpaquePointer!
    weak var owner: Machine?
    /// The owner's gate: held by the thread running this runtime's callbacks, which is how an
    /// ``ActionContext`` knows it is still live.
    let gate: ReentrantGate

    /// An event the core cannot carry in its id alone: a payload, a name the chart does not
    /// mention exactly, or a typed value a typed machine wants back.
    struct Slot {
        var event: Event
        var typed: (any Sendable)?
    }

    /// Slot i is referenced by `sc_event.data == i + 1` and freed when the core releases the event.
    @exclusivity(unchecked) var slots: [Slot?] = []
    @exclusivity(unchecked) var freeSlots: [Int] = []

    /// Set when a queue overflowed inside a callback; reported by the current send.
    @exclusivity(unchecked) var pendingError: MachineError? { didSet { hasPendingError = pendingError != nil } }
    /// `pendingError != nil`, as a flag: the send path tests it without copying the error.
    @usableFromInline @exclusivity(unchecked) private(set) var hasPendingError = false
    /// Transitions taken during the current send, when someone asked for them.
    @exclusivity(unchecked) var recordTransitions = false {
        didSet {
            wantsTransitions = recordTransitions || observers.hasTransitionObservers
            installObserverCallbacks()
        }
    }
    @exclusivity(unchecked) var takenTransitions: [(index: Int, event: ObservedEvent)] = []

    @exclusivity(unchecked) var observers = ObserverList() {
        didSet {
            stateObservers = observers.stateObservers.map(\.1)
            transitionObservers = observers.transitionObservers.map(\.1)
            wantsStateChanges = observers.hasStateObservers
            wantsTransitions = recordTransitions || observers.hasTransitionObservers
            wantsUnhandled = observers.hasUnhandledObservers
            installObserverCallbacks()
        }
    }
    // Copies of the observer lists the callbacks iterate: plain stored arrays, so a callback
    // reads them without exclusivity checks, and an observer that adds or removes observers
    // replaces them instead of mutating the array being iterated.
    @exclusivity(unchecked) private(set) var stateObservers: [ObserverList.StateObserver] = []
    @exclusivity(unchecked) private(set) var transitionObservers: [ObserverList.TransitionObserver] = []
    // Plain flags the callbacks test, so the hot path reads no array (and retains nothing).
    @exclusivity(unchecked) private(set) var wantsStateChanges = false
    @exclusivity(unchecked) private(set) var wantsTransitions = false
    @exclusivity(unchecked) private(set) var wantsUnhandled = false { didSet { updateDispatchesDirectly() } }

    /// Whether ``Machine/start()`` (or a restore) has run.
    @exclusivity(unchecked) var started = false { didSet { updateDispatchesDirectly() } }

    /// Whether a send may go straight to `sc_machine_dispatch` (`Machine.process`): started, and
    /// no external-event gate or unhandled-event observer has to see the event first. Kept up
    /// to date by those three properties, so the send path tests one flag.
    @usableFromInline @exclusivity(unchecked) private(set) var dispatchesDirectly = false
    /// Whether the chart has a top-level final state, the only way a dispatch can halt the
    /// machine: when it has none, a send need not ask the core whether it halted.
    @usableFromInline let mayHalt: Bool

    /// The machine belongs to a ``LocalStateMachine``: its gate is held with plain stores
    /// until ``ownerHandedOut`` (see `ReentrantGate.withConfinedHold`). Set once, before use.
    var confinedToOneThread = false
    /// A callback of a confined machine read ``ActionContext/machine``: the machine may now be
    /// sent to from other threads, and its gate is the real lock from then on. Only written on
    /// the thread that holds the confined machine.
    @usableFromInline @exclusivity(unchecked) var ownerHandedOut = false

    /// ``MachineOptions/runsFullAlgorithm``: no direct dispatch either, so the reference the
    /// differential tests compare with shares none of the send path's shortcuts.
    let runsFullAlgorithm: Bool

    private func updateDispatchesDirectly() {
        dispatchesDirectly = started && externalEventGate == nil && !wantsUnhandled && !runsFullAlgorithm
    }

    /// After a direct dispatch that returned `status`: whether the macrostep is complete with
    /// nothing left for the send to do (see `Machine.process`).
    @inlinable @inline(__always)
    func leftNothingToFinish(_ status: sc_status) -> Bool {
        (status == SC_UNHANDLED || (status == SC_OK && !mayHalt))
            && externalQueue.isEmpty && !hasPendingError && !stopRequested
    }
    /// Whether the halt has been handled (delayed events cancelled, streams finished).
    @exclusivity(unchecked) var haltReported = false
    /// ``Machine/stop()`` was called from a callback: stop once the macrostep completes.
    @usableFromInline @exclusivity(unchecked) var stopRequested = false

    /// The machine's external queue: events sent while the machine is held (by its own
    /// actions and observers), processed in order once the current macrostep completes.
    /// Each entry already holds its payload slot; the slot is freed when the core releases it.
    @usableFromInline @exclusivity(unchecked) var externalQueue: [sc_event] = []

    /// Run before each external event's macrostep (see `Machine+ExternalEvents.swift`).
    @exclusivity(unchecked) var externalEventGate: ((ActionContext) -> Bool)? { didSet { updateDispatchesDirectly() } }

    /// Told when a transition is not taken (see `Machine.setTransitionErrorHandler`); without
    /// one the send throws ``MachineError/transitionNotTaken(transition:reason:)``.
    @exclusivity(unchecked) var transitionErrorHandler: ((ActionContext, String) -> Void)?

    /// The callbacks the core calls. The observer callbacks (entered, exited, taken) are
    /// installed only while someone observes, and `release` from the first event that holds a
    /// payload slot on: the core replays the microsteps it has cached without any call when its
    /// host has none to make.
    private(set) var host = sc_host()

    private static let release: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<sc_event>?) -> Void = {
        context, _, event in
        guard let event, event.pointee.data != 0 else { return }
        MachineRuntime.with(context) { $0.releaseSlot(event.pointee.data) }
    }

    /// Installs `release` once payload slots are used (allowed inside callbacks too). It stays:
    /// a machine that carries payloads usually keeps doing so.
    func installRelease() {
        guard core != nil, host.release == nil else { return }
        host.release = Self.release
        sc_machine_set_host(core, &host)
    }

    private static let entered: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, sc_id) -> Void = {
        context, _, state in MachineRuntime.with(context) { $0.stateChanged(Int(state), entered: true) }
    }
    private static let exited: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, sc_id) -> Void = {
        context, _, state in MachineRuntime.with(context) { $0.stateChanged(Int(state), entered: false) }
    }
    private static let taken: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, sc_id, UnsafePointer<sc_event>?) -> Void = {
        context, _, transition, event in MachineRuntime.with(context) { $0.transitionTaken(Int(transition), event) }
    }

    /// Installs or removes the observer callbacks to match `wantsStateChanges` and
    /// `wantsTransitions` (allowed inside callbacks too).
    private func installObserverCallbacks() {
        guard core != nil else { return }
        let states = wantsStateChanges, transitions = wantsTransitions
        guard (host.entered != nil) != states || (host.taken != nil) != transitions else { return }
        host.entered = states ? Self.entered : nil
        host.exited = states ? Self.exited : nil
        host.taken = transitions ? Self.taken : nil
        sc_machine_set_host(core, &host)
    }

    init(chart: CompiledChart, options: MachineOptions, gate: ReentrantGate) {
        self.chart = chart
        self.gate = gate
        self.maximumSteps = options.maximumStepsPerMacrostep
        self.runsFullAlgorithm = options.runsFullAlgorithm
        self.maximumQueuedEvents = max(options.maximumQueuedEventsPerSend, 0)
        let limit = min(max(options.maximumInternalQueueLength, 1), Int(UInt32.max))
        self.maximumInternalQueueLength = limit
        self.internalQueueSlots = min(max(options.internalQueueCapacity, 1), limit)
        let tables = chart.tables.pointee
        self.mayHalt = (0..<Int(tables.state_count)).contains {
            tables.states[$0].kind == UInt8(SC_FINAL.rawValue) && tables.states[$0].depth == 1
        }
        var host = sc_host()
        host.context = nil
        host.guard = { context, _, id, event in
            MachineRuntime.with(context) { $0.evaluateGuard(Int(id), event) }
        }
        host.action = { context, _, id, event in
            MachineRuntime.with(context) { $0.runAction(Int(id), event) }
        }
        host.invoke = { context, _, state, start in
            MachineRuntime.with(context) { $0.invoke(Int(state), start: start) }
        }
        host.done_data = { context, _, state, done in
            MachineRuntime.with(context) { $0.fillDoneData(Int(state), done) }
        }
        host.queue_full = { context, core in
            MachineRuntime.with(context) { $0.growInternalQueue(core) }
        }
        host.error = { context, _, status, transition in
            MachineRuntime.with(context) { $0.transitionNotTaken(Int(transition), status) }
        }
        host.context = Unmanaged.passUnretained(self).toOpaque()
        // No core external queue: a Machine queues the events its actions send in `externalQueue`
        // (which grows), and never dispatches from inside a callback.
        var coreOptions = sc_options(internal_queue_capacity: UInt32(internalQueueSlots),
                                     external_queue_capacity: SC_QUEUE_NONE,
                                     max_steps: UInt32(options.maximumStepsPerMacrostep),
                                     flags: options.runsFullAlgorithm ? SC_MACHINE_NO_PLANS : 0)
        core = sc_machine_create(chart.chartPointer, &host, &coreOptions)
        precondition(core != nil, "CStateCore rejected tables CompiledChart had checked")
        self.host = host
    }

    deinit {
        sc_machine_destroy(core)
        internalQueueStorage?.deallocate()      // after the core, which used it to the end
    }

    /// Runs `body` with the runtime behind a core callback's context, without retaining it:
    /// the machine owns the runtime and outlives every callback.
    @inline(__always)
    static func with<T>(_ context: UnsafeMutableRawPointer?, _ body: (MachineRuntime) -> T) -> T {
        Unmanaged<MachineRuntime>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
    }
}
