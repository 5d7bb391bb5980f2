import CStateCore

extension StateMachine {
    /// What a typed action or guard sees and can do: the event (typed), the configuration,
    /// and ways to raise, send, delay and cancel events.
    ///
    /// ```swift
    /// On(.seek, to: .playing) { ctx in
    ///     if case .seek(let position)? = ctx.event { player.seek(to: position) }
    ///     if ctx.isActive(.muted) { ctx.raise(.unmute) }
    ///     ctx.send(.tick, after: .seconds(1), id: "tick")
    /// }
    /// ```
    ///
    /// A context is valid only while its action runs, on its thread (see ``ActionContext``);
    /// keep ``machine`` to reach the machine later.
    public struct Context {
        /// The untyped context underneath (event names, raw payloads, untyped sends).
        public let untyped: ActionContext
        // The chart's maps travel in the untyped context (`ActionContext.argument`, the box's
        // argument), so a typed callback's box makes this context from the untyped one alone.

        /// The typed context of a callback whose untyped context carries the chart's maps
        /// (a typed box's, `ActionBox.init(typed:maps:)`).
        @inlinable @inline(__always)
        init(untyped: ActionContext) {
            self.untyped = untyped
        }

        @inlinable @inline(__always)
        init(untyped: ActionContext, maps: TypedChartMaps<State, Event>) {
            self.untyped = untyped.carrying(argument: UnsafeRawPointer(maps.callbackArgument))
        }

        /// The chart's maps. Unretained: the chart's boxes keep them, and the chart lives while
        /// its machine runs them. A kept context may outlive both, so every member checks that
        /// the context is live (`ActionContext.checkLive`) before it reads the maps.
        @inlinable
        var maps: TypedChartMaps<State, Event> {
            @inline(__always) get { mapsReference.takeUnretainedValue() }
        }

        @inlinable
        var mapsReference: Unmanaged<TypedChartMaps<State, Event>> {
            @inline(__always) get { TypedChartMaps.reference(fromCallbackArgument: untyped.argument.unsafelyUnwrapped) }
        }

        /// The event being processed, or `nil` for eventless transitions, the initial entry,
        /// done events and ``After`` timers.
        ///
        /// - Complexity: O(1). For an event without payload sent through the fast path it is a
        ///   table lookup by the event's interned id.
        @inlinable
        public var event: Event? {
            untyped.checkLive()
            let raw = untyped.coreEvent
            if raw.data == 0 && maps.eventsAreNames && raw.id < maps.eventByCoreID.count {
                if let event = maps.eventByCoreID[Int(raw.id)] { return event }
            }
            return maps.typed(untyped)
        }

        /// The name of the event being processed as the chart knows it (done events and
        /// timers included), or `nil`.
        public var eventName: String? { untyped.event?.name }

        /// Appends `event` to the internal queue: processed within the current macrostep,
        /// after the current microstep (SCXML `<raise>`).
        public func raise(_ event: Event) {
            let runtime = self.untyped.checked          // before the maps, which may be gone
            let (untyped, typed, known) = maps.untyped(event)
            runtime.raiseFromAction(untyped, typed: typed, known: known)
        }

        /// Appends `event` to the external queue: processed after the current macrostep
        /// completes, before the send that started it returns.
        public func send(_ event: Event) {
            let runtime = self.untyped.checked          // before the maps, which may be gone
            let (untyped, typed, known) = maps.untyped(event)
            runtime.postFromAction(untyped, typed: typed, known: known)
        }

        /// Sends `event` to the machine once `delay` has passed on its clock; see
        /// ``StateMachine/send(_:after:id:)``.
        ///
        /// - Returns: the send id (`id`, or a generated `"send.N"`), for ``cancel(sendID:)``.
        @discardableResult
        public func send(_ event: Event, after delay: Duration, id: String? = nil) -> String {
            guard let machine = self.untyped.machine else { return id ?? "" }   // checks the context
            let (untyped, typed, _) = maps.untyped(event)
            return machine.scheduler.schedule(untyped, typed: typed, after: delay, id: id)
        }

        /// Cancels the machine's pending delayed events sent with `sendID`.
        ///
        /// - Returns: whether an event was still pending.
        @discardableResult
        public func cancel(sendID: String) -> Bool {
            untyped.machine?.scheduler.cancel(id: sendID) ?? false
        }

        /// Whether `state` is in the current configuration (SCXML `In()`).
        ///
        /// - Complexity: O(1); for a payload-free enum of states a table lookup by its bytes.
        // Always inlined into the guard: a call of its own cost a frame per test.
        @inlinable @inline(__always)
        public func isActive(_ state: State) -> Bool {
            untyped.checkLive()        // before the maps, which may be gone
            if let index = TypedChartMaps<State, Event>.directStateIndex(state, fromCallbackArgument: untyped.argument.unsafelyUnwrapped) {
                return index >= 0 && untyped.isActiveOnceLive(stateIndex: index)
            }
            // Borrowed: loading the unowned(unsafe) reference retained and released it.
            let found = mapsReference._withUnsafeGuaranteedRef { $0.index(of: state) }
            guard let index = found else { return false }
            return untyped.isActiveOnceLive(stateIndex: index)
        }

        /// The machine running this action. Read it while the action runs (see
        /// ``ActionContext/machine``); the machine it returns may be kept and sent to anywhere.
        ///
        /// ```swift
        /// OnEntry { ctx in
        ///     let machine = ctx.machine
        ///     Task { try? machine?.send(.tick) }
        /// }
        /// ```
        public var machine: StateMachine<State, Event>? {
            untyped.machine?.typedOwner as? StateMachine<State, Event>
        }
    }
}
