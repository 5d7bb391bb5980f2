/// Observers: called synchronously, in registration order, on the thread running the
/// macrostep, with the machine held, so every observer sees the same sequence. They may read
/// the machine and send to it (the event is queued); they must not block waiting for another
/// thread that uses this machine.
extension StateMachine {
    /// Calls `observer` for each transition taken, before its actions run.
    ///
    /// ```swift
    /// machine.onTransition { t in log("\(t.source) -> \(t.targets)") }
    /// ```
    @discardableResult
    public func onTransition(_ observer: @escaping @Sendable (Transition) -> Void) -> ObserverToken {
        let compiled = chart.compiled, maps = self.maps
        return machine.access {
            machine.runtime.observers.add(transition: { index, event in
                let record = TransitionRecord(chart: compiled, index: index, event: event.event)
                observer(Transition(record: record, observed: event, maps: maps, chart: compiled))
            })
        }
    }

    /// Calls `observer` with each state entered (before its entry actions run).
    ///
    /// ```swift
    /// machine.onEnter { state in print("entered", state) }
    /// ```
    @inlinable @discardableResult
    public func onEnter(_ observer: @escaping @Sendable (State) -> Void) -> ObserverToken {
        onStateChange { state, entered in if entered { observer(state) } }
    }

    /// Calls `observer` with each state exited (after its exit actions ran).
    @inlinable @discardableResult
    public func onExit(_ observer: @escaping @Sendable (State) -> Void) -> ObserverToken {
        onStateChange { state, entered in if !entered { observer(state) } }
    }

    /// Calls `observer` each time `state` is entered.
    ///
    /// ```swift
    /// machine.onEnter(.loggedIn) { showHome() }
    /// ```
    @inlinable @discardableResult
    public func onEnter(_ state: State, _ observer: @escaping @Sendable () -> Void) -> ObserverToken {
        onStateChange { changed, entered in if entered && changed == state { observer() } }
    }

    /// Calls `observer` each time `state` is exited.
    @inlinable @discardableResult
    public func onExit(_ state: State, _ observer: @escaping @Sendable () -> Void) -> ObserverToken {
        onStateChange { changed, entered in if !entered && changed == state { observer() } }
    }

    /// Calls `observer` each time a state is entered (`entered` true) or exited.
    ///
    /// ```swift
    /// machine.onStateChange { state, entered in print(entered ? "+" : "-", state) }
    /// ```
    // Inlinable: the observer's wrapper is specialized for your types in your module.
    @inlinable @discardableResult
    public func onStateChange(_ observer: @escaping @Sendable (_ state: State, _ entered: Bool) -> Void) -> ObserverToken {
        let maps = self.maps
        return machine.addStateObserver { index, entered in
            if let state = maps.state(at: index) { observer(state, entered) }
        }
    }

    /// Calls `observer` for each of your events that enabled no transition (sent directly,
    /// queued by an action, or delayed). Unhandled events are never dropped silently: the
    /// send also returns ``SendOutcome/unhandled``.
    ///
    /// ```swift
    /// machine.onUnhandled { event in log.warning("\(event) ignored") }
    /// ```
    @discardableResult
    public func onUnhandled(_ observer: @escaping @Sendable (Event) -> Void) -> ObserverToken {
        let maps = self.maps
        return machine.access {
            machine.runtime.observers.add(unhandled: { seen in
                if let event = maps.typed(seen) { observer(event) }
            })
        }
    }

    /// Calls `observer` when a delayed event's macrostep fails (no caller can catch it).
    @discardableResult
    public func onError(_ observer: @escaping @Sendable (MachineError) -> Void) -> ObserverToken {
        machine.onError(observer)
    }

    /// Stops calling the observer registered under `token`.
    public func removeObserver(_ token: ObserverToken) {
        machine.removeObserver(token)
    }

    /// A new stream of the transitions this machine takes from now on, for Swift concurrency.
    ///
    /// Every stream sees the same sequence, in the order the transitions were taken. The
    /// stream finishes when the machine halts, is stopped or is deallocated; cancelling the
    /// consuming task removes its observer.
    ///
    /// ```swift
    /// Task {
    ///     for await transition in machine.transitions {
    ///         await MainActor.run { view.show(transition.targets) }
    ///     }
    /// }
    /// ```
    /// - Note: the buffer is unbounded.
    public var transitions: AsyncStream<Transition> {
        let compiled = chart.compiled, maps = self.maps
        return machine.transitionStream { index, event in
            Transition(record: TransitionRecord(chart: compiled, index: index, event: event.event),
                       observed: event, maps: maps, chart: compiled)
        }
    }
}
