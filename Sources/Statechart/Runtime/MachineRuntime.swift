import CStateCore

/// The state behind a ``Machine``: the C machine, the host callbacks it calls, and the table
/// of event payloads the C queues refer to. Only touched while the machine's gate is held.
final class MachineRuntime {
    let chart: CompiledChart
    let maximumSteps: Int
    private(set) var core: OpaquePointer!
    weak var owner: Machine?

    /// Events whose payload or exact name the core cannot carry in an id: slot i is referenced
    /// by `sc_event.data == i + 1` and freed when the core releases the event.
    private var slots: [Event?] = []
    private var freeSlots: [Int] = []

    /// Set when a queue overflowed inside a callback; reported by the current send.
    var pendingError: MachineError?
    /// Transitions taken during the current send, when someone asked for them.
    var recordTransitions = false
    var takenTransitions: [Int] = []

    var observers = ObserverList()

    init(chart: CompiledChart, options: MachineOptions) {
        self.chart = chart
        self.maximumSteps = options.maximumStepsPerMacrostep
        var host = sc_host()
        host.context = nil
        host.guard = { context, _, id, event in
            MachineRuntime.from(context).evaluateGuard(Int(id), event)
        }
        host.action = { context, _, id, event in
            MachineRuntime.from(context).runAction(Int(id), event)
        }
        host.entered = { context, _, state in
            MachineRuntime.from(context).stateChanged(Int(state), entered: true)
        }
        host.exited = { context, _, state in
            MachineRuntime.from(context).stateChanged(Int(state), entered: false)
        }
        host.taken = { context, _, transition, event in
            MachineRuntime.from(context).transitionTaken(Int(transition), event)
        }
        host.invoke = { context, _, state, start in
            MachineRuntime.from(context).invoke(Int(state), start: start)
        }
        host.done_data = { context, _, state, done in
            MachineRuntime.from(context).fillDoneData(Int(state), done)
        }
        host.release = { context, _, event in
            guard let event else { return }
            MachineRuntime.from(context).releaseSlot(event.pointee.data)
        }
        host.context = Unmanaged.passUnretained(self).toOpaque()
        var coreOptions = sc_options(internal_queue_capacity: UInt32(options.internalQueueCapacity),
                                     external_queue_capacity: UInt32(options.externalQueueCapacity),
                                     max_steps: UInt32(options.maximumStepsPerMacrostep))
        core = sc_machine_create(chart.chartPointer, &host, &coreOptions)
        precondition(core != nil, "CStateCore rejected tables CompiledChart had checked")
    }

    deinit {
        sc_machine_destroy(core)
    }

    @inline(__always)
    static func from(_ context: UnsafeMutableRawPointer?) -> MachineRuntime {
        Unmanaged<MachineRuntime>.fromOpaque(context!).takeUnretainedValue()
    }

    // MARK: - Events between Swift and the core

    /// The core's view of `event`: its interned id, plus a payload slot when the id alone
    /// does not reproduce the event (payload, or a name the chart does not mention).
    func coreEvent(_ event: Event) -> sc_event {
        let (id, exact) = chart.events.lookup(event.name)
        if exact && event.payload == nil { return sc_event(id: id, flags: 0, data: 0) }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = event
        } else {
            slot = slots.count
            slots.append(event)
        }
        return sc_event(id: id, flags: 0, data: UInt(slot + 1))
    }

    func swiftEvent(_ event: UnsafePointer<sc_event>?) -> Event? {
        guard let event = event?.pointee else { return nil }
        if event.data != 0, let stored = slots[Int(event.data) - 1] { return stored }
        return Event(chart.eventNames[Int(event.id)])
    }

    private func releaseSlot(_ data: UInt) {
        guard data != 0 else { return }
        slots[Int(data) - 1] = nil
        freeSlots.append(Int(data) - 1)
    }

    // MARK: - Callbacks

    private func evaluateGuard(_ id: Int, _ event: UnsafePointer<sc_event>?) -> Bool {
        chart.guards[id](ActionContext(runtime: self, event: swiftEvent(event)))
    }

    private func runAction(_ id: Int, _ event: UnsafePointer<sc_event>?) {
        let context = ActionContext(runtime: self, event: swiftEvent(event))
        for action in chart.actions[id] { action(context) }
    }

    private func stateChanged(_ state: Int, entered: Bool) {
        observers.stateChanged(chart.stateIDs[state], entered: entered)
    }

    private func transitionTaken(_ transition: Int, _ event: UnsafePointer<sc_event>?) {
        if recordTransitions { takenTransitions.append(transition) }
        if observers.hasTransitionObservers {
            observers.transitionTaken(TransitionRecord(chart: chart, index: transition, event: swiftEvent(event)))
        }
    }

    private func invoke(_ state: Int, start: Bool) {
        let context = ActionContext(runtime: self, event: nil)
        for invocation in chart.invocations[state] ?? [] {
            if start { invocation.start(context) } else { invocation.cancel(context) }
        }
    }

    private func fillDoneData(_ state: Int, _ done: UnsafeMutablePointer<sc_event>?) {
        guard let done, let compute = chart.doneData[state] else { return }
        let payload = compute(ActionContext(runtime: self, event: nil))
        let name = chart.eventNames[Int(done.pointee.id)]
        done.pointee = coreEvent(Event(name, payload: payload))
    }

    // MARK: - Services for ActionContext

    func raiseFromAction(_ event: Event) {
        var e = coreEvent(event)
        if sc_machine_raise(core, e) != SC_OK {
            releaseSlot(e.data)
            e.data = 0
            pendingError = .queueFull(event: event.name, queue: "internal")
        }
    }

    /// The machine's external queue: events sent while the machine is held (by its own
    /// actions and observers), processed in order once the current macrostep completes.
    var externalQueue: [Event] = []

    func postFromAction(_ event: Event) {
        externalQueue.append(event)
    }

    func isActive(_ id: String) -> Bool {
        guard let index = chart.stateIndex[id] else { return false }
        return sc_machine_is_active(core, sc_id(index))
    }

    func activeStates(atomicOnly: Bool) -> [String] {
        let count = sc_machine_active_states(core, atomicOnly, nil, 0)
        return [sc_id](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
            initialized = Int(sc_machine_active_states(core, atomicOnly, buffer.baseAddress, count))
        }.map { chart.stateIDs[Int($0)] }
    }
}
