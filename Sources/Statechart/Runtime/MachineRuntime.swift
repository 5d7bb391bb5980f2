import CStateCore

/// The state behind a ``Machine``: the C machine, the host callbacks it calls, and the table
/// of event payloads the C queues refer to. Only touched while the machine's gate is held.
///
/// The hot properties are `@exclusivity(unchecked)`: the gate already serializes every access,
/// and the dynamic exclusivity checks would otherwise cost more than the core's dispatch.
final class MachineRuntime {
    let chart: CompiledChart
    let maximumSteps: Int
    let maximumQueuedEvents: Int
    /// ``MachineOptions/maximumInternalQueueLength``: the internal queue grows up to it.
    let maximumInternalQueueLength: Int
    /// The internal queue's slots once it has outgrown the machine's block (see
    /// `growInternalQueue`), and how many there are (first the block's).
    private var internalQueueStorage: UnsafeMutablePointer<sc_event>?
    private var internalQueueSlots: Int
    private(set) var core: OpaquePointer!
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
    @exclusivity(unchecked) private var slots: [Slot?] = []
    @exclusivity(unchecked) private var freeSlots: [Int] = []

    /// Set when a queue overflowed inside a callback; reported by the current send.
    @exclusivity(unchecked) var pendingError: MachineError?
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
    @exclusivity(unchecked) private var stateObservers: [ObserverList.StateObserver] = []
    @exclusivity(unchecked) private var transitionObservers: [ObserverList.TransitionObserver] = []
    // Plain flags the callbacks test, so the hot path reads no array (and retains nothing).
    @exclusivity(unchecked) private(set) var wantsStateChanges = false
    @exclusivity(unchecked) private(set) var wantsTransitions = false
    @exclusivity(unchecked) private(set) var wantsUnhandled = false

    /// Whether ``Machine/start()`` (or a restore) has run.
    @exclusivity(unchecked) var started = false
    /// Whether the halt has been handled (delayed events cancelled, streams finished).
    @exclusivity(unchecked) var haltReported = false
    /// ``Machine/stop()`` was called from a callback: stop once the macrostep completes.
    @exclusivity(unchecked) var stopRequested = false

    /// The machine's external queue: events sent while the machine is held (by its own
    /// actions and observers), processed in order once the current macrostep completes.
    /// Each entry already holds its payload slot; the slot is freed when the core releases it.
    @exclusivity(unchecked) var externalQueue: [sc_event] = []

    /// Run before each external event's macrostep (see `Machine+ExternalEvents.swift`).
    @exclusivity(unchecked) var externalEventGate: ((ActionContext) -> Bool)?

    /// Told when a transition is not taken (see `Machine.setTransitionErrorHandler`); without
    /// one the send throws ``MachineError/transitionNotTaken(transition:reason:)``.
    @exclusivity(unchecked) var transitionErrorHandler: ((ActionContext, String) -> Void)?

    /// The callbacks the core calls. The observer callbacks (entered, exited, taken) are
    /// installed only while someone observes, and `release` from the first event that holds a
    /// payload slot on: the core replays the microsteps it has cached without any call when its
    /// host has none to make.
    private var host = sc_host()

    private static let release: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<sc_event>?) -> Void = {
        context, _, event in
        guard let event, event.pointee.data != 0 else { return }
        MachineRuntime.with(context) { $0.releaseSlot(event.pointee.data) }
    }

    /// Installs `release` once payload slots are used (allowed inside callbacks too). It stays:
    /// a machine that carries payloads usually keeps doing so.
    private func installRelease() {
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
        self.maximumQueuedEvents = max(options.maximumQueuedEventsPerSend, 0)
        let limit = min(max(options.maximumInternalQueueLength, 1), Int(UInt32.max))
        self.maximumInternalQueueLength = limit
        self.internalQueueSlots = min(max(options.internalQueueCapacity, 1), limit)
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
                                     max_steps: UInt32(options.maximumStepsPerMacrostep))
        core = sc_machine_create(chart.chartPointer, &host, &coreOptions)
        precondition(core != nil, "CStateCore rejected tables CompiledChart had checked")
        self.host = host
    }

    deinit {
        sc_machine_destroy(core)
        internalQueueStorage?.deallocate()      // after the core, which used it to the end
    }

    /// The core's internal queue is full: move it into twice the slots (sc_host.queue_full),
    /// up to ``maximumInternalQueueLength``. Past it the core refuses the event.
    private func growInternalQueue(_ core: OpaquePointer?) {
        guard internalQueueSlots < maximumInternalQueueLength else { return }
        let slots = min(internalQueueSlots * 2, maximumInternalQueueLength)
        let storage = UnsafeMutablePointer<sc_event>.allocate(capacity: slots)
        guard sc_machine_set_internal_queue(core, storage, UInt32(slots)) == SC_OK else {
            storage.deallocate()
            return
        }
        internalQueueStorage?.deallocate()      // the core copied the events out of it
        internalQueueStorage = storage
        internalQueueSlots = slots
    }

    /// The core did not take `transition` (sc_host.error): its targets, history resolved,
    /// cannot be active together.
    private func transitionNotTaken(_ transition: Int, _ status: sc_status) {
        let tables = chart.tables.pointee
        let t = tables.transitions[transition]
        let targets = (0..<Int(t.target_count)).map { chart.stateIDs[Int(tables.targets[Int(t.targets_offset) + $0])] }
        let name = "the transition from '\(chart.stateIDs[Int(t.source)])' to '\(targets.joined(separator: " "))'"
        let reason = status == SC_ERR_BAD_TARGETS
            ? "its targets, with history states replaced by their recorded values, cannot be active together"
            : String(cString: sc_status_text(status))
        if let handler = transitionErrorHandler {
            handler(ActionContext(runtime: self), "\(name) was not taken: \(reason)")
        } else if pendingError == nil {
            pendingError = .transitionNotTaken(transition: name, reason: reason)
        }
    }

    /// Runs `body` with the runtime behind a core callback's context, without retaining it:
    /// the machine owns the runtime and outlives every callback.
    @inline(__always)
    static func with<T>(_ context: UnsafeMutableRawPointer?, _ body: (MachineRuntime) -> T) -> T {
        Unmanaged<MachineRuntime>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
    }

    // MARK: - Events between Swift and the core

    /// The core's view of `event`: its interned id, plus a payload slot when the id alone
    /// does not reproduce the event (payload, typed value, or a name the chart does not mention).
    ///
    /// - Parameter known: the event's id and exactness when the caller has already looked it up
    ///   (typed machines keep a table), so no string work is needed.
    func coreEvent(_ event: Event, typed: (any Sendable)? = nil,
                   known: (id: UInt32, exact: Bool)? = nil) -> sc_event {
        let (id, exact) = known ?? chart.events.lookup(event.name)
        if exact && event.payload == nil && typed == nil { return sc_event(id: id, flags: 0, data: 0) }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(event: event, typed: typed)
        } else {
            slot = slots.count
            slots.append(Slot(event: event, typed: typed))
        }
        if host.release == nil { installRelease() }
        return sc_event(id: id, flags: 0, data: UInt(slot + 1))
    }

    /// The Swift event for a core event; valid while the core holds the event.
    func swiftEvent(_ event: UnsafePointer<sc_event>?) -> Event? {
        guard let event else { return nil }
        return swiftEvent(event.pointee)
    }

    func swiftEvent(_ event: sc_event) -> Event? {
        if event.id == SC_NONE { return nil }
        if event.data != 0, let stored = slots[Int(event.data) - 1] { return stored.event }
        if event.id == SC_EVENT_UNKNOWN { return nil }
        return Event(chart.eventNames[Int(event.id)])
    }

    /// The typed value attached to a core event's slot, if any; valid while the core holds the event.
    func typedValue(_ event: sc_event) -> (any Sendable)? {
        guard event.data != 0 else { return nil }
        return slots[Int(event.data) - 1]?.typed
    }

    func observed(_ event: sc_event) -> ObservedEvent {
        ObservedEvent(event: swiftEvent(event), raw: event, typed: typedValue(event))
    }

    /// The Swift event and typed value for an event still owned by the core, for snapshots.
    func slotContents(_ event: sc_event) -> (event: Event, typed: (any Sendable)?)? {
        guard let swift = swiftEvent(event) else { return nil }
        return (swift, typedValue(event))
    }

    func releaseSlot(_ data: UInt) {
        guard data != 0 else { return }
        slots[Int(data) - 1] = nil
        freeSlots.append(Int(data) - 1)
    }

    /// Drops the events waiting in the Swift external queue, freeing their slots.
    func clearExternalQueue() {
        for event in externalQueue { releaseSlot(event.data) }
        externalQueue.removeAll()
    }

    // MARK: - Callbacks

    @inline(__always)
    private func context(_ event: UnsafePointer<sc_event>?) -> ActionContext {
        guard let event else { return ActionContext(runtime: self) }
        return ActionContext(runtime: self, coreEvent: event.pointee)
    }

    private func evaluateGuard(_ id: Int, _ event: UnsafePointer<sc_event>?) -> Bool {
        chart.guardTable.first(id)(context(event))
    }

    private func runAction(_ id: Int, _ event: UnsafePointer<sc_event>?) {
        let context = context(event)
        for action in chart.actionTable.list(id) { action(context) }
    }

    private func stateChanged(_ state: Int, entered: Bool) {
        guard wantsStateChanges else { return }
        let list = stateObservers
        for observer in list { observer(state, entered) }
    }

    private func transitionTaken(_ transition: Int, _ event: UnsafePointer<sc_event>?) {
        guard wantsTransitions else { return }
        let seen = event.map { observed($0.pointee) } ?? .none
        if recordTransitions { takenTransitions.append((transition, seen)) }
        let list = transitionObservers
        for observer in list { observer(transition, seen) }
    }

    func invoke(_ state: Int, start: Bool) {
        let context = ActionContext(runtime: self)
        for invocation in chart.invocations[state] ?? [] {
            if start { invocation.start(context) } else { invocation.cancel(context) }
        }
    }

    private func fillDoneData(_ state: Int, _ done: UnsafeMutablePointer<sc_event>?) {
        guard let done, let compute = chart.doneData[state] else { return }
        let payload = compute(ActionContext(runtime: self))
        let name = chart.eventNames[Int(done.pointee.id)]
        done.pointee = coreEvent(Event(name, payload: payload), known: (done.pointee.id, true))
    }

    /// Reports `event` to the unhandled-event observers.
    func reportUnhandled(_ event: ObservedEvent) {
        let list = observers.unhandledObservers
        for (_, observer) in list { observer(event) }
    }

    /// Reports an error that no caller can receive (a delayed event's macrostep failed).
    func reportError(_ error: MachineError) {
        let list = observers.errorObservers
        for (_, observer) in list { observer(error) }
    }

    // MARK: - Services for ActionContext

    func raiseFromAction(_ event: Event, typed: (any Sendable)? = nil, known: (id: UInt32, exact: Bool)? = nil) {
        raise(coreEvent(event, typed: typed, known: known), name: event.name)
    }

    func raise(_ event: sc_event, name: @autoclosure () -> String) {
        if sc_machine_raise(core, event) != SC_OK {
            releaseSlot(event.data)
            pendingError = .queueFull(event: name(), queue: "internal")
        }
    }

    func postFromAction(_ event: Event, typed: (any Sendable)? = nil, known: (id: UInt32, exact: Bool)? = nil) {
        externalQueue.append(coreEvent(event, typed: typed, known: known))
    }

    func isActive(_ id: String) -> Bool {
        guard let index = chart.stateIndex[id] else { return false }
        return sc_machine_is_active(core, sc_id(index))
    }

    func isActive(index: Int) -> Bool {
        sc_machine_is_active(core, sc_id(index))
    }

    /// Indices of the active states in document order (atomic ones only when `atomicOnly`).
    func activeIndices(atomicOnly: Bool) -> [Int] {
        let count = sc_machine_active_states(core, atomicOnly, nil, 0)
        return [sc_id](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
            initialized = Int(sc_machine_active_states(core, atomicOnly, buffer.baseAddress, count))
        }.map { Int($0) }
    }

    func activeStates(atomicOnly: Bool) -> [String] {
        activeIndices(atomicOnly: atomicOnly).map { chart.stateIDs[$0] }
    }
}
