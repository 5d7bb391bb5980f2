import CStateCore

/// What the core calls back (through the `sc_host` installed in `MachineRuntime.init`; guards
/// and actions: `MachineRuntime+GuardsAndActions.swift`): observers, invocations, done data, a
/// full internal queue, a transition not taken; and the observers' reports of what no caller
/// can receive.
extension MachineRuntime {
    func stateChanged(_ state: Int, entered: Bool) {
        guard wantsStateChanges else { return }
        let list = stateObservers
        // A frame of its own, as every callback that runs user code: a context kept from an
        // earlier callback is refused here.
        withCallbackFrame {
            for observer in list { observer(state, entered) }
        }
    }

    func transitionTaken(_ transition: Int, _ event: UnsafePointer<sc_event>?) {
        guard wantsTransitions else { return }
        let seen = event.map { observed($0.pointee) } ?? .none
        if recordTransitions { takenTransitions.append((transition, seen)) }
        let list = transitionObservers
        withCallbackFrame {     // an observer may make a context (Machine.onTransitionEvent)
            for observer in list { observer(transition, seen) }
        }
    }

    func invoke(_ state: Int, start: Bool) {
        withCallbackFrame {
            let context = ActionContext()
            for invocation in chart.invocations[state] ?? [] {
                if start { invocation.start(context) } else { invocation.cancel(context) }
            }
        }
    }

    func fillDoneData(_ state: Int, _ done: UnsafeMutablePointer<sc_event>?) {
        guard let done, let compute = chart.doneData[state] else { return }
        let payload = withCallbackFrame { compute(ActionContext()) }
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

    /// The core's internal queue is full: move it into twice the slots (sc_host.queue_full),
    /// up to ``maximumInternalQueueLength``. Past it the core refuses the event.
    func growInternalQueue(_ core: OpaquePointer?) {
        // The core calls this when a raise finds the queue full: its count is its capacity.
        let current = Int(sc_machine_internal_count(core))
        guard current < maximumInternalQueueLength else { return }
        let slots = min(max(current * 2, 1), maximumInternalQueueLength)
        let storage = UnsafeMutablePointer<sc_event>.allocate(capacity: slots)
        guard sc_machine_set_internal_queue(core, storage, UInt32(slots)) == SC_OK else {
            storage.deallocate()
            return
        }
        replaceInternalQueueStorage(storage)
    }

    /// The core did not take `transition` (sc_host.error): its targets, history resolved,
    /// cannot be active together.
    func transitionNotTaken(_ transition: Int, _ status: sc_status) {
        let tables = chart.tables.pointee
        let t = tables.transitions[transition]
        let targets = (0..<Int(t.target_count)).map { chart.stateIDs[Int(tables.targets[Int(t.targets_offset) + $0])] }
        let name = "the transition from '\(chart.stateIDs[Int(t.source)])' to '\(targets.joined(separator: " "))'"
        let reason = status == SC_ERR_BAD_TARGETS
            ? "its targets, with history states replaced by their recorded values, cannot be active together"
            : String(cString: sc_status_text(status))
        if let handler = transitionErrorHandler {
            withCallbackFrame { handler(ActionContext(), "\(name) was not taken: \(reason)") }
        } else if pendingError == nil {
            pendingError = .transitionNotTaken(transition: name, reason: reason)
        }
    }
}
