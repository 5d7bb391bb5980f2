import CCallbackFrame
import CMachineLock
import CStateCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state behind a ``Machine``: the C machine, the host callbacks it calls, and the table
/// of event payloads the C queues refer to. Only touched while the machine's lock is held.
///
/// This file holds the state and the `sc_host` table (which callbacks are installed when);
/// `MachineRuntime+Callbacks.swift` what the core calls, `MachineRuntime+EventSlots.swift` the
/// payload slots, `MachineRuntime+ActionServices.swift` what an ``ActionContext`` asks.
///
/// The hot properties are `@exclusivity(unchecked)`: the lock already serializes every access,
/// and the dynamic exclusivity checks would otherwise cost more than the core's dispatch.
@usableFromInline
final class MachineRuntime {
    // Layout: a machine holds one runtime for its whole life, and a million machines hold a
    // million runtimes, so the fields are ordered words first, then the 32-bit bounds, then the
    // flags (each a byte, packed with no padding between them); what a machine needs only once
    // someone asks for it lives in `extras`, allocated then.
    let chart: CompiledChart
    /// The core machine, in the block this runtime allocates (see `init`), which also holds
    /// the machine's lock.
    @usableFromInline @exclusivity(unchecked) private(set) var core: OpaquePointer!
    /// The core's configuration bits (`sc_machine_configuration`: bit s of word s/64 is set
    /// while state s is active), at a fixed place in the block for the machine's life: a
    /// guard's `isActive` reads its bit here (``isActive(index:)``), with no call and no chain
    /// of loads through the core machine and its chart.
    @usableFromInline let configuration: UnsafePointer<UInt64>
    weak var owner: Machine?
    /// The typed ``StateMachine`` wrapping this runtime's machine, if any (set once, before
    /// sharing); see ``Machine/typedOwner``.
    weak var typedOwner: AnyObject?
    /// The machine's lock: held by the thread running this runtime's callbacks. It lives in
    /// the core's block, which this runtime frees: it is valid while the runtime lives.
    let lock: MachineLock

    /// An event the core cannot carry in its id alone: a payload, a name the chart does not
    /// mention exactly, or a typed value a typed machine wants back.
    struct Slot {
        var event: Event
        var typed: (any Sendable)?
    }

    /// Slot i is referenced by `sc_event.data == i + 1` and freed when the core releases the event.
    @exclusivity(unchecked) var slots: [Slot?] = []
    @exclusivity(unchecked) var freeSlots: [Int] = []

    /// The machine's external queue: events sent while the machine is held (by its own
    /// actions and observers), processed in order once the current macrostep completes.
    /// Each entry already holds its payload slot; the slot is freed when the core releases it.
    @usableFromInline @exclusivity(unchecked) var externalQueue: [sc_event] = [] {
        didSet { updateDispatchPolicy() }
    }

    /// What a machine needs only once someone asks for it: observers, the transition
    /// recorder, an external-event gate, a transition-error handler, an error to report.
    /// Out of line, so a machine that uses none of them does not carry their room (about 250
    /// bytes); created on first use and kept.
    @usableFromInline
    final class Extras {
        /// The internal queue's slots once it has outgrown the machine's block (see
        /// `growInternalQueue`).
        var internalQueueStorage: UnsafeMutablePointer<sc_event>?
        @exclusivity(unchecked) var pendingError: MachineError?
        @exclusivity(unchecked) var takenTransitions: [(index: Int, event: ObservedEvent)] = []
        @exclusivity(unchecked) var observers = ObserverList()
        // Copies of the observer lists the callbacks iterate: plain stored arrays, so a callback
        // reads them without exclusivity checks, and an observer that adds or removes observers
        // replaces them instead of mutating the array being iterated.
        @exclusivity(unchecked) var stateObservers: [ObserverList.StateObserver] = []
        @exclusivity(unchecked) var transitionObservers: [ObserverList.TransitionObserver] = []
        @exclusivity(unchecked) var externalEventGate: ((ActionContext) -> Bool)?
        @exclusivity(unchecked) var transitionErrorHandler: ((ActionContext, String) -> Void)?
        /// A typed machine's context storage (`ContextStorage`), kept here so that it lives as
        /// long as the actions that read it (its unretained address is the runtime's own
        /// ``MachineRuntime/contextAddress``).
        var context: AnyObject?
    }
    @usableFromInline @exclusivity(unchecked) private(set) var extrasStorage: Extras?

    /// The typed machine's context storage (a `ContextStorage`), installed once before the
    /// machine is shared; a machine without a context has none and pays nothing for it.
    func installContext(_ storage: AnyObject, address: UnsafeMutableRawPointer) {
        extras.context = storage
        contextAddress = address
    }

    /// The address of the context storage (``installContext(_:address:)``), nil for none. A
    /// field of the runtime, not of ``Extras``: a guard or action reads it with no reference to
    /// take on the way (the storage lives in `Extras.context` as long as the runtime).
    @usableFromInline @exclusivity(unchecked) private(set) var contextAddress: UnsafeMutableRawPointer?
    /// `extrasStorage`, created on first use.
    private var extras: Extras {
        if let extras = extrasStorage { return extras }
        let extras = Extras()
        extrasStorage = extras
        return extras
    }

    // The bounds of MachineOptions, as 32-bit words (the core counts in 32 bits too).
    private let maximumStepsValue: UInt32
    private let maximumQueuedEventsValue: UInt32
    private let maximumInternalQueueLengthValue: UInt32

    /// ``MachineOptions/maximumStepsPerMacrostep``.
    var maximumSteps: Int { Int(maximumStepsValue) }
    /// ``MachineOptions/maximumQueuedEventsPerSend`` (at most `UInt32.max`).
    var maximumQueuedEvents: Int { Int(maximumQueuedEventsValue) }
    /// ``MachineOptions/maximumInternalQueueLength``: the internal queue grows up to it.
    var maximumInternalQueueLength: Int { Int(maximumInternalQueueLengthValue) }
    /// The internal queue's storage beyond the block's, replacing the previous one (freed).
    func replaceInternalQueueStorage(_ storage: UnsafeMutablePointer<sc_event>) {
        extras.internalQueueStorage?.deallocate()      // the core copied the events out of it
        extras.internalQueueStorage = storage
    }

    /// Set when a queue overflowed inside a callback; reported by the current send.
    var pendingError: MachineError? {
        get { extrasStorage?.pendingError }
        set {
            if newValue != nil || extrasStorage != nil { extras.pendingError = newValue }
            hasPendingError = newValue != nil
        }
    }
    /// `pendingError != nil`, as a flag: the send path tests it without copying the error.
    @usableFromInline @exclusivity(unchecked) private(set) var hasPendingError = false {
        didSet { updateDispatchPolicy() }
    }
    /// Transitions taken during the current send, when someone asked for them.
    @exclusivity(unchecked) var recordTransitions = false {
        didSet {
            wantsTransitions = recordTransitions || observers.hasTransitionObservers
            installObserverCallbacks()
        }
    }
    var takenTransitions: [(index: Int, event: ObservedEvent)] {
        get { extrasStorage?.takenTransitions ?? [] }
        _modify { yield &extras.takenTransitions }
    }

    /// The observers; changing them installs or removes the core callbacks that serve them.
    var observers: ObserverList {
        get { extrasStorage?.observers ?? ObserverList() }
        _modify {
            let extras = self.extras
            yield &extras.observers
            extras.stateObservers = extras.observers.stateObservers.map(\.1)
            extras.transitionObservers = extras.observers.transitionObservers.map(\.1)
            wantsStateChanges = extras.observers.hasStateObservers
            wantsTransitions = recordTransitions || extras.observers.hasTransitionObservers
            wantsUnhandled = extras.observers.hasUnhandledObservers
            installObserverCallbacks()
        }
    }
    /// Removes the finishers and returns them, so each runs once (allocates nothing when
    /// there are none).
    func takeFinishers() -> [@Sendable () -> Void] {
        extrasStorage?.observers.takeFinishers() ?? []
    }
    var stateObservers: [ObserverList.StateObserver] { extrasStorage?.stateObservers ?? [] }
    var transitionObservers: [ObserverList.TransitionObserver] { extrasStorage?.transitionObservers ?? [] }
    // Plain flags the callbacks test, so the hot path reads no array (and retains nothing).
    @exclusivity(unchecked) private(set) var wantsStateChanges = false
    @exclusivity(unchecked) private(set) var wantsTransitions = false
    @exclusivity(unchecked) private(set) var wantsUnhandled = false { didSet { updateDispatchPolicy() } }

    /// Whether ``Machine/start()`` (or a restore) has run.
    @exclusivity(unchecked) var started = false { didSet { updateDispatchPolicy() } }

    /// Whether the chart has a top-level final state, the only way a dispatch can halt the
    /// machine: when it has none, a send need not ask the core whether it halted.
    let mayHalt: Bool

    /// The machine belongs to a ``LocalStateMachine``: until ``isShared`` its sends hold its
    /// lock with plain stores (see `MachineLock.withConfinedHold`), or nothing at all when
    /// ``DispatchPolicy/confinedSendsUnlocked``. Set once, before use.
    var isConfined = false { didSet { updateDispatchPolicy() } }
    /// A callback of a confined machine read ``ActionContext/machine``: the machine may now be
    /// sent to from other threads, and its lock is taken for real from then on. Only written on
    /// the thread that holds the confined machine.
    @usableFromInline @exclusivity(unchecked) private(set) var isShared = false {
        didSet { updateDispatchPolicy() }
    }
    /// The confined machine was shared during a send that held nothing: ``shareConfinedMachine()``
    /// took the lock then (no other thread could be waiting), and the send releases it, for real,
    /// once its macrostep is done (`Machine.finishConfinedSend`).
    @usableFromInline @exclusivity(unchecked) var releasesLockAfterSend = false {
        didSet { updateDispatchPolicy() }
    }

    /// ``ActionContext/machine`` from a callback: a confined machine becomes shared (see
    /// ``isShared``). When the send running the callback holds nothing (an unlocked confined
    /// send), the lock is taken here, with plain stores: the machine has not left this thread
    /// yet, so nobody else can hold it or wait for it.
    func shareConfinedMachine() {
        guard isConfined, !isShared else { return }
        isShared = true
        if !lock.isHeld {
            lock.holdConfined(by: machine_lock_self())
            releasesLockAfterSend = true
        }
    }

    /// ``MachineOptions/runsFullAlgorithm``: no direct dispatch either, so the reference the
    /// differential tests compare with shares none of the send path's shortcuts.
    let runsFullAlgorithm: Bool

    /// How a send reaches the core now (see ``DispatchPolicy``): derived from the machine's
    /// state by ``updateDispatchPolicy()`` whenever that state changes, so the send path reads
    /// one stored value instead of testing each condition.
    @usableFromInline @exclusivity(unchecked) private(set) var dispatchPolicy: DispatchPolicy

    /// The one place the dispatch policy is computed; every property it depends on calls it
    /// when it changes.
    private func updateDispatchPolicy() {
        dispatchPolicy = DispatchPolicy(
            started: started, eventNeedsSeeing: hasExternalEventGate || wantsUnhandled,
            runsFullAlgorithm: runsFullAlgorithm, unlockedConfined: isConfined && !isShared,
            workPending: !externalQueue.isEmpty || hasPendingError || stopRequested || releasesLockAfterSend,
            mayHalt: mayHalt)
    }

    /// Whether the halt has been handled (delayed events cancelled, streams finished).
    @exclusivity(unchecked) var haltReported = false
    /// ``Machine/stop()`` was called from a callback: stop once the macrostep completes.
    @usableFromInline @exclusivity(unchecked) var stopRequested = false {
        didSet { updateDispatchPolicy() }
    }

    /// Run before each external event's macrostep (see `Machine+ExternalEvents.swift`).
    var externalEventGate: ((ActionContext) -> Bool)? {
        get { extrasStorage?.externalEventGate }
        set {
            if newValue != nil || extrasStorage != nil { extras.externalEventGate = newValue }
            hasExternalEventGate = newValue != nil
            updateDispatchPolicy()
        }
    }
    @exclusivity(unchecked) private(set) var hasExternalEventGate = false

    /// Told when a transition is not taken (see `Machine.setTransitionErrorHandler`); without
    /// one the send throws ``MachineError/transitionNotTaken(transition:reason:)``.
    var transitionErrorHandler: ((ActionContext, String) -> Void)? {
        get { extrasStorage?.transitionErrorHandler }
        set { if newValue != nil || extrasStorage != nil { extras.transitionErrorHandler = newValue } }
    }

    /// Set by ``Machine/interrupt()`` from any thread (see `Machine+Interrupt.swift`). Here
    /// rather than in the machine, whose object then fits a smaller allocation.
    let interruptFlag = Atomic<Bool>(false)

    // Which of the optional core callbacks are installed (see `host`).
    @exclusivity(unchecked) private var releaseInstalled = false
    @exclusivity(unchecked) private var stateCallbacksInstalled = false
    @exclusivity(unchecked) private var transitionCallbackInstalled = false

    /// The callbacks the core calls: the fixed ones, and the optional ones that are installed.
    /// The observer callbacks (entered, exited, taken) are installed only while someone
    /// observes, and `release` from the first event that holds a payload slot on: the core
    /// replays the microsteps it has cached without any call when its host has none to make.
    /// Built when it changes, into ``hostStorage``, which the core reads by reference.
    private func host() -> sc_host {
        var host = sc_host()
        host.context = UnsafeMutableRawPointer(callbackHostStorage)
        host.guard = Self.runGuard
        host.action = Self.runActions
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
        if releaseInstalled { host.release = Self.release }
        if stateCallbacksInstalled {
            host.entered = Self.entered
            host.exited = Self.exited
        }
        if transitionCallbackInstalled { host.taken = Self.taken }
        return host
    }

    private func installHost() {
        hostStorage.pointee = host()
        sc_machine_set_host(core, hostStorage)     // the same struct, edited: the core compares observers
    }

    /// The core keeps its `sc_host` by reference, so it lives in the machine's block, followed
    /// by the callbacks' context (``CallbackHost``, the `sc_host.context`), just before the core
    /// machine (``init(chart:options:)``): no field of its own.
    private static let callbackHostOffset = (MemoryLayout<sc_host>.size + 7) / 8 * 8
    private static let hostBytes = callbackHostOffset + (MemoryLayout<CallbackHost>.size + 7) / 8 * 8

    private var hostStorage: UnsafeMutablePointer<sc_host> {
        (UnsafeMutableRawPointer(core) - Self.hostBytes).assumingMemoryBound(to: sc_host.self)
    }

    private var callbackHostStorage: UnsafeMutablePointer<CallbackHost> {
        (UnsafeMutableRawPointer(core) - Self.hostBytes + Self.callbackHostOffset)
            .assumingMemoryBound(to: CallbackHost.self)
    }

    private static let release: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<sc_event>?) -> Void = {
        context, _, event in
        guard let event, event.pointee.data != 0 else { return }
        MachineRuntime.with(context) { $0.releaseSlot(event.pointee.data) }
    }

    /// Whether `release` is installed (see `installRelease`).
    var releasesSlots: Bool { releaseInstalled }

    /// Installs `release` once payload slots are used (allowed inside callbacks too). It stays:
    /// a machine that carries payloads usually keeps doing so.
    func installRelease() {
        guard core != nil, !releaseInstalled else { return }
        releaseInstalled = true
        installHost()
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
        guard stateCallbacksInstalled != states || transitionCallbackInstalled != transitions else { return }
        stateCallbacksInstalled = states
        transitionCallbackInstalled = transitions
        installHost()
    }

    /// The core options of a machine of `chart` with `options`. The chart's tables passed
    /// `sc_chart_check` when it was compiled and are never written again
    /// (``CompiledChart/coreMachineFlags``), so the core does not check them again for every
    /// machine; no external queue: a Machine queues the events its actions send in
    /// `externalQueue` (which grows), and never dispatches from inside a callback.
    ///
    /// The internal queue starts with ``MachineOptions/internalQueueCapacity`` slots, or when
    /// that is 0 with the core's default for the chart (8 slots at most, see `sc_options`),
    /// never more than ``MachineOptions/maximumInternalQueueLength``.
    static func coreOptions(_ chart: CompiledChart, _ options: MachineOptions) -> sc_options {
        let limit = max(options.maximumInternalQueueLength, 1)
        let slots = options.internalQueueCapacity > 0 ? min(options.internalQueueCapacity, limit, Int(UInt32.max))
            : limit < Self.largestCoreDefaultQueue ? limit : 0
        return sc_options(internal_queue_capacity: UInt32(slots),
                          external_queue_capacity: SC_QUEUE_NONE,
                          max_steps: UInt32(options.maximumStepsPerMacrostep),
                          flags: chart.coreMachineFlags | (options.runsFullAlgorithm ? SC_MACHINE_NO_PLANS : 0))
    }

    /// The most slots the core gives an internal queue by default (`sc_options`).
    static let largestCoreDefaultQueue = 8

    /// The bytes of the block before the machine's lock: the core machine's, rounded up to the
    /// lock's alignment.
    private static func lockOffset(coreBytes: Int) -> Int {
        let alignment = MemoryLayout<machine_lock>.alignment
        return (coreBytes + alignment - 1) / alignment * alignment
    }

    init(chart: CompiledChart, options: MachineOptions) {
        self.chart = chart
        self.maximumStepsValue = UInt32(options.maximumStepsPerMacrostep)
        self.runsFullAlgorithm = options.runsFullAlgorithm
        self.maximumQueuedEventsValue = UInt32(min(max(options.maximumQueuedEventsPerSend, 0), Int(UInt32.max)))
        var coreOptions = Self.coreOptions(chart, options)
        self.maximumInternalQueueLengthValue = UInt32(min(max(options.maximumInternalQueueLength, 1), Int(UInt32.max)))
        self.mayHalt = chart.hasTopLevelFinalState
        self.dispatchPolicy = DispatchPolicy(started: false, eventNeedsSeeing: false, runsFullAlgorithm: options.runsFullAlgorithm,
                                             unlockedConfined: false, workPending: false, mayHalt: mayHalt)
        // One block for the core's host (and the callbacks' context), the core machine and the
        // machine's lock: one allocation, freed in deinit.
        let coreBytes = chart.coreMachineBytes(&coreOptions)
        precondition(coreBytes > 0, "CStateCore rejected tables CompiledChart had checked")
        let lockOffset = Self.lockOffset(coreBytes: Self.hostBytes + coreBytes)
        // malloc, as sc_machine_create does: its alignment covers the 8 bytes the core and
        // the lock need (UnsafeMutableRawPointer.allocate takes glibc's slower memalign path).
        guard let block = malloc(lockOffset + MemoryLayout<machine_lock>.size) else {
            fatalError("out of memory for a machine of \(coreBytes) bytes")
        }
        let lock = (block + lockOffset).bindMemory(to: machine_lock.self, capacity: 1)
        machine_lock_init(lock)
        self.lock = MachineLock(lock)
        let host = block.initializeMemory(as: sc_host.self, repeating: sc_host(), count: 1)
        var core: OpaquePointer?
        let status = sc_machine_init(&core, block + Self.hostBytes, coreBytes, chart.chartPointer, host, &coreOptions)
        precondition(status == SC_OK, "CStateCore rejected tables CompiledChart had checked")
        self.core = core
        self.configuration = sc_machine_configuration(core)
        // Now that self is complete: the callbacks' context names it. Written once, before the
        // core can call back.
        (block + Self.callbackHostOffset).initializeMemory(as: CallbackHost.self, repeating: CallbackHost(
            runtime: Unmanaged.passUnretained(self).toOpaque(), guards: chart.guardTable.entries,
            actions: chart.actionTable.entries, configuration: configuration), count: 1)
        installHost()
    }

    deinit {
        sc_machine_destroy(core)                // releases queued events; the block is ours
        extrasStorage?.internalQueueStorage?.deallocate()      // after the core, which used it to the end
        machine_lock_destroy(lock.raw)
        free(UnsafeMutableRawPointer(core) - Self.hostBytes)      // the block starts with the host
    }

    /// Runs `body` with the runtime behind a core callback's context (its ``CallbackHost``),
    /// without retaining it: the machine owns the runtime and outlives every callback.
    @inline(__always)
    static func with<T>(_ context: UnsafeMutableRawPointer?, _ body: (MachineRuntime) -> T) -> T {
        let runtime = context.unsafelyUnwrapped.assumingMemoryBound(to: CallbackHost.self).pointee.runtime
        return Unmanaged<MachineRuntime>.fromOpaque(runtime)._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body` in a callback frame of this runtime (`callback_frame.h`): the frame the
    /// ``ActionContext``s it makes are live in. The frame it replaced (none, or the callback of
    /// another machine that sent to this one) is back when it returns. Every callback that
    /// hands a context to user code or calls user code runs in one: guards and actions
    /// (``CallbackHost/inFrame(_:)``), the others here (`MachineRuntime+Callbacks.swift`; the
    /// external-event gate, before the macrostep).
    @inline(__always)
    func withCallbackFrame<T>(_ body: () throws -> T) rethrows -> T {
        let replacedMachine = callback_frame_current_machine()
        let replacedSerial = callback_frame_serial()
        callback_frame_begin(Unmanaged.passUnretained(self).toOpaque())
        defer { callback_frame_restore(replacedMachine, replacedSerial) }
        return try body()
    }
}
