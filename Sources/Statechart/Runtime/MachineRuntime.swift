import CMachineLock
import CStateCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    // Layout: a machine holds one runtime for its whole life, and a million machines hold a
    // million runtimes, so the fields are ordered words first, then the 32-bit bounds, then the
    // flags (each a byte, packed with no padding between them); what a machine needs only once
    // someone asks for it lives in `extras`, allocated then.
    let chart: CompiledChart
    /// The core machine: the start of the block this runtime allocates (see `init`), which
    /// also holds the gate's lock.
    @usableFromInline @exclusivity(unchecked) private(set) var core: OpaquePointer!
    /// The core's configuration bits (`sc_machine_configuration`: bit s of word s/64 is set
    /// while state s is active), at a fixed place in the block for the machine's life: a
    /// guard's `isActive` reads its bit here (``isActive(index:)``). Through
    /// `sc_machine_is_active` it waited on a chain of loads (core, chart, state count) and a
    /// call: 7% of the typed guarded benchmark's time for 2% of its instructions.
    @usableFromInline let configuration: UnsafePointer<UInt64>
    weak var owner: Machine?
    /// The typed ``StateMachine`` wrapping this runtime's machine, if any (set once, before
    /// sharing); see ``Machine/typedOwner``.
    weak var typedOwner: AnyObject?
    /// The owner's gate: held by the thread running this runtime's callbacks. Its lock lives in
    /// the core's block, which this runtime frees: the gate is valid while the runtime lives.
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

    /// The machine's external queue: events sent while the machine is held (by its own
    /// actions and observers), processed in order once the current macrostep completes.
    /// Each entry already holds its payload slot; the slot is freed when the core releases it.
    @usableFromInline @exclusivity(unchecked) var externalQueue: [sc_event] = [] {
        didSet { updateFirstQuietStatus() }
    }

    /// What a machine needs only once someone asks for it: observers, the transition
    /// recorder, an external-event gate, a transition-error handler, an error to report.
    /// Out of line, so a machine that uses none of them does not carry their room (about 250
    /// bytes); created on first use and kept.
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
    }
    @exclusivity(unchecked) private var extrasStorage: Extras?
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
        didSet { updateFirstQuietStatus() }
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
    @exclusivity(unchecked) private(set) var wantsUnhandled = false { didSet { updateDispatchesDirectly() } }

    /// Whether ``Machine/start()`` (or a restore) has run.
    @exclusivity(unchecked) var started = false { didSet { updateDispatchesDirectly() } }

    /// Whether a send may go straight to `sc_machine_dispatch` (`Machine.process`): started, and
    /// no external-event gate or unhandled-event observer has to see the event first, and the
    /// chart has no guard or action (no callback frame to put back after the dispatch). Kept up
    /// to date by those properties, so the send path of a chart without callbacks tests one
    /// flag.
    @usableFromInline @exclusivity(unchecked) private(set) var dispatchesDirectly = false
    /// As ``dispatchesDirectly``, for a chart with guards or actions: the dispatch puts back
    /// the callback frame (``restoringCallbackFrame(_:)``). Tested only once
    /// ``dispatchesDirectly`` is false (`Machine.process`), so that a chart without callbacks
    /// pays nothing for them.
    @usableFromInline @exclusivity(unchecked) private(set) var dispatchesDirectlyRestoringFrame = false
    /// Whether the chart has a top-level final state, the only way a dispatch can halt the
    /// machine: when it has none, a send need not ask the core whether it halted.
    @usableFromInline let mayHalt: Bool
    /// Whether a dispatch can run guards or actions, whose trampolines leave callback frames
    /// open (see ``restoringCallbackFrame(_:)``; `CompiledChart.dispatchRunsGuardsOrActions`):
    /// without any, a send need not touch the frame.
    @usableFromInline let dispatchRunsGuardsOrActions: Bool

    /// The machine belongs to a ``LocalStateMachine``: until ``ownerHandedOut`` its sends go
    /// straight to the core when ``confinedSendsDirectly``, holding nothing, else hold its gate
    /// with plain stores (see `ReentrantGate.withConfinedHold`). Set once, before use.
    var confinedToOneThread = false { didSet { updateDispatchesDirectly() } }
    /// A callback of a confined machine read ``ActionContext/machine``: the machine may now be
    /// sent to from other threads, and its gate is the real lock from then on. Only written on
    /// the thread that holds the confined machine.
    @usableFromInline @exclusivity(unchecked) private(set) var ownerHandedOut = false {
        didSet { updateDispatchesDirectly() }
    }
    /// A confined machine's send may call `sc_machine_dispatch` with nothing held and nothing
    /// checked before it (`Machine.sendConfined`): as ``dispatchesDirectly`` (with or without
    /// callbacks), confined, not handed out. No other thread can reach the machine, and its own callbacks cannot send to
    /// it without handing it out first (a ``LocalStateMachine`` is not `Sendable`: no
    /// `@Sendable` callback can capture one), which takes the gate (`handOut`).
    @usableFromInline @exclusivity(unchecked) private(set) var confinedSendsDirectly = false
    /// The machine was handed out during a confined send that held nothing: `handOut` took the
    /// gate then (no other thread could be waiting), and the send releases it, for real, once
    /// its macrostep is done (`Machine.finishConfinedSend`).
    @usableFromInline @exclusivity(unchecked) var releasesGateAfterSend = false {
        didSet { updateFirstQuietStatus() }
    }

    /// ``ActionContext/machine`` from a callback: for a confined machine, hands it out (see
    /// ``ownerHandedOut``). When the send running the callback holds nothing (a direct
    /// confined send), the gate is taken here, with plain stores: the machine has not left
    /// this thread yet, so nobody else can hold it or wait for it.
    func handOut() {
        guard confinedToOneThread, !ownerHandedOut else { return }
        ownerHandedOut = true
        if !gate.isHeld {
            gate.holdConfined(by: machine_lock_self())
            releasesGateAfterSend = true
        }
    }

    /// ``MachineOptions/runsFullAlgorithm``: no direct dispatch either, so the reference the
    /// differential tests compare with shares none of the send path's shortcuts.
    let runsFullAlgorithm: Bool

    private func updateDispatchesDirectly() {
        let direct = started && !hasExternalEventGate && !wantsUnhandled && !runsFullAlgorithm
        dispatchesDirectly = direct && !dispatchRunsGuardsOrActions
        dispatchesDirectlyRestoringFrame = direct && dispatchRunsGuardsOrActions
        confinedSendsDirectly = direct && confinedToOneThread && !ownerHandedOut
    }

    /// Of the statuses SC_OK (0) and SC_UNHANDLED (1), the first after which a direct dispatch
    /// leaves its send nothing to do: 0 when both do, 1 when only SC_UNHANDLED does (the chart
    /// has a top-level final state, and SC_OK may mean it halted), 2 when neither (a callback
    /// queued an event, recorded an error, asked to stop, or took the gate: see
    /// ``releasesGateAfterSend``). Kept up to date by those properties, so the send tests one
    /// byte against the status (``leftNothingToFinish(_:)``).
    @usableFromInline @exclusivity(unchecked) private(set) var firstQuietStatus: UInt32

    private func updateFirstQuietStatus() {
        let busy = !externalQueue.isEmpty || hasPendingError || stopRequested || releasesGateAfterSend
        firstQuietStatus = busy ? 2 : mayHalt ? 1 : 0
    }

    /// After a direct dispatch that returned `status`: whether the macrostep is complete with
    /// nothing left for the send to do (see `Machine.process`). One subtraction and one
    /// comparison: `status` in `firstQuietStatus..<2` (errors are negative, and wrap past it).
    @inlinable @inline(__always)
    func leftNothingToFinish(_ status: sc_status) -> Bool {
        UInt32(bitPattern: status.rawValue) &- firstQuietStatus < 2 &- firstQuietStatus
    }
    /// Whether the halt has been handled (delayed events cancelled, streams finished).
    @exclusivity(unchecked) var haltReported = false
    /// ``Machine/stop()`` was called from a callback: stop once the macrostep completes.
    @usableFromInline @exclusivity(unchecked) var stopRequested = false {
        didSet { updateFirstQuietStatus() }
    }

    /// Run before each external event's macrostep (see `Machine+ExternalEvents.swift`).
    var externalEventGate: ((ActionContext) -> Bool)? {
        get { extrasStorage?.externalEventGate }
        set {
            if newValue != nil || extrasStorage != nil { extras.externalEventGate = newValue }
            hasExternalEventGate = newValue != nil
            updateDispatchesDirectly()
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
        let trampolineHost = trampolineHostStorage
        trampolineHost.pointee.runtime = Unmanaged.passUnretained(self).toOpaque()
        trampolineHost.pointee.configuration = configuration
        host.context = UnsafeMutableRawPointer(trampolineHost)
        // In C: the trampolines call the chart's closures directly (machine_trampoline.h).
        host.guard = machine_trampoline_guard
        host.action = machine_trampoline_action
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
    /// by the trampolines' context (`machine_trampoline_host`, the `sc_host.context`: this
    /// runtime's address, the chart's lists, the configuration bits), just before the core machine
    /// (``init(chart:options:)``): no field of its own.
    private static let trampolineHostOffset = (MemoryLayout<sc_host>.size + 7) / 8 * 8
    private static let hostBytes = trampolineHostOffset + (MemoryLayout<machine_trampoline_host>.size + 7) / 8 * 8

    private var hostStorage: UnsafeMutablePointer<sc_host> {
        (UnsafeMutableRawPointer(core) - Self.hostBytes).assumingMemoryBound(to: sc_host.self)
    }

    private var trampolineHostStorage: UnsafeMutablePointer<machine_trampoline_host> {
        (UnsafeMutableRawPointer(core) - Self.hostBytes + Self.trampolineHostOffset)
            .assumingMemoryBound(to: machine_trampoline_host.self)
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

    /// The bytes of the block before the gate's lock: the core machine's, rounded up to the
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
        self.firstQuietStatus = mayHalt ? 1 : 0
        self.dispatchRunsGuardsOrActions = chart.dispatchRunsGuardsOrActions
        // One block for the core's host (and the trampolines' context), the core machine and the
        // gate's lock: one allocation instead of four (host, machine, gate object, lock), freed in deinit.
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
        self.gate = ReentrantGate(lock: lock)
        let host = block.initializeMemory(as: sc_host.self, repeating: sc_host(), count: 1)
        (block + Self.trampolineHostOffset).initializeMemory(
            as: machine_trampoline_host.self, repeating: machine_trampoline_host(
                runtime: nil, guards: chart.guardTable.lists, actions: chart.actionTable.lists, configuration: nil),
            count: 1)
        var core: OpaquePointer?
        let status = sc_machine_init(&core, block + Self.hostBytes, coreBytes, chart.chartPointer, host, &coreOptions)
        precondition(status == SC_OK, "CStateCore rejected tables CompiledChart had checked")
        self.core = core
        self.configuration = sc_machine_configuration(core)
        installHost()       // now that self is complete: the context points at it
    }

    deinit {
        sc_machine_destroy(core)                // releases queued events; the block is ours
        extrasStorage?.internalQueueStorage?.deallocate()      // after the core, which used it to the end
        machine_lock_destroy(gate.lock)
        free(UnsafeMutableRawPointer(core) - Self.hostBytes)      // the block starts with the host
    }

    /// Runs `body` with the runtime behind a core callback's context (its
    /// `machine_trampoline_host`), without retaining it: the machine owns the runtime and
    /// outlives every callback.
    @inline(__always)
    static func with<T>(_ context: UnsafeMutableRawPointer?, _ body: (MachineRuntime) -> T) -> T {
        let runtime = context.unsafelyUnwrapped.assumingMemoryBound(to: machine_trampoline_host.self).pointee.runtime
        return Unmanaged<MachineRuntime>.fromOpaque(runtime.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body` in a callback frame of this runtime (`machine_callback.h`): the frame the
    /// ``ActionContext``s it makes are live in. The frame it replaced (none, the frame a guard
    /// or action left open, or the callback of another machine that sent to this one) is back
    /// when it returns. Every Swift callback that hands a context to user code or calls user
    /// code runs in one (`MachineRuntime+Callbacks.swift`; the external-event gate, before the
    /// macrostep); guards and actions run in the frames their C trampolines open
    /// (`machine_trampoline.h`).
    @inline(__always)
    func withCallbackFrame<T>(_ body: () throws -> T) rethrows -> T {
        try Self.withCallbackFrame(of: Unmanaged.passUnretained(self).toOpaque(), body)
    }

    /// Calls `body`, a call into the core that may run guards and actions, and puts back the
    /// callback frame that was current before it: the trampolines leave each guard's and
    /// action's frame open (`machine_trampoline.h`), so every call into the core that can run
    /// them goes through here (`Machine`'s start, sends, stops and `canHandle`, the confined
    /// send). After a send from outside the frame is empty again, and a callback of another
    /// machine that sent to this one has its own back: a context is refused once its callback
    /// has returned.
    ///
    /// ```swift
    /// let status = runtime.restoringCallbackFrame { sc_machine_dispatch(core, event) }
    /// ```
    @inlinable @inline(__always)
    func restoringCallbackFrame<T>(_ body: () throws -> T) rethrows -> T {
        let replacedMachine = machine_callback_current_machine()
        let replacedSerial = machine_callback_serial()
        defer { machine_callback_restore(replacedMachine, replacedSerial) }
        return try body()
    }

    /// `sc_machine_dispatch(core, event)`, putting back the callback frame when the dispatch
    /// can run guards or actions (``dispatchRunsGuardsOrActions``).
    @inlinable @inline(__always)
    func dispatchRestoringFrame(_ core: OpaquePointer, _ event: sc_event) -> sc_status {
        guard dispatchRunsGuardsOrActions else { return sc_machine_dispatch(core, event) }
        return restoringCallbackFrame { sc_machine_dispatch(core, event) }
    }

    /// ``withCallbackFrame(_:)`` of the runtime at `address`.
    @inline(__always)
    static func withCallbackFrame<T>(of address: UnsafeMutableRawPointer, _ body: () throws -> T) rethrows -> T {
        let replacedMachine = machine_callback_current_machine()
        let replacedSerial = machine_callback_serial()
        machine_callback_begin(address)
        defer { machine_callback_restore(replacedMachine, replacedSerial) }
        return try body()
    }
}
