/// Observers: called synchronously, in registration order, on the thread running the
/// macrostep, with the machine held. They may read the machine and send to it (the event is
/// queued); they must not block waiting for another thread that uses this machine.
extension Machine {
    /// Calls `observer` each time a state is entered (`entered` true) or exited.
    ///
    /// Entries are reported before the state's entry actions run, exits after its exit actions.
    ///
    /// ```swift
    /// machine.onStateChange { state, entered in print(entered ? "enter" : "exit", state) }
    /// ```
    @discardableResult
    public func onStateChange(_ observer: @escaping @Sendable (_ state: String, _ entered: Bool) -> Void) -> ObserverToken {
        let ids = chart.stateIDs
        return access { runtime.observers.add(state: { index, entered in observer(ids[index], entered) }) }
    }

    /// Calls `observer` for each transition taken, before its actions run.
    ///
    /// ```swift
    /// machine.onTransition { print($0) }     // "locked -coin-> unlocked"
    /// ```
    @discardableResult
    public func onTransition(_ observer: @escaping @Sendable (TransitionRecord) -> Void) -> ObserverToken {
        let chart = self.chart
        return access {
            runtime.observers.add(transition: { index, event in
                observer(TransitionRecord(chart: chart, index: index, event: event.event))
            })
        }
    }

    /// Calls `observer` for each sent event that enabled no transition (including delayed
    /// events and events queued by actions).
    ///
    /// ```swift
    /// machine.onUnhandled { event in log.warning("ignored \(event.name)") }
    /// ```
    @discardableResult
    public func onUnhandled(_ observer: @escaping @Sendable (Event) -> Void) -> ObserverToken {
        access {
            runtime.observers.add(unhandled: { seen in
                if let event = seen.event { observer(event) }
            })
        }
    }

    /// Calls `observer` when a send that has no caller to throw to fails: a delayed event
    /// whose macrostep ran away or overflowed a queue.
    ///
    /// ```swift
    /// machine.onError { error in assertionFailure("\(error)") }
    /// ```
    @discardableResult
    public func onError(_ observer: @escaping @Sendable (MachineError) -> Void) -> ObserverToken {
        access { runtime.observers.add(error: observer) }
    }

    /// Registers an observer of state indices (for the typed front end).
    @usableFromInline
    func addStateObserver(_ observer: @escaping @Sendable (_ index: Int, _ entered: Bool) -> Void) -> ObserverToken {
        access { runtime.observers.add(state: observer) }
    }

    /// Stops calling the observer registered under `token`.
    ///
    /// ```swift
    /// let token = machine.onTransition { print($0) }
    /// machine.removeObserver(token)
    /// ```
    public func removeObserver(_ token: ObserverToken) {
        access { runtime.observers.remove(token) }
    }
}
