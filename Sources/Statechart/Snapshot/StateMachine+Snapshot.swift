import CStateCore

extension StateMachine {
    /// The dynamic state of a typed machine between two macrosteps, in your own types:
    /// `Codable` when your states and events are.
    ///
    /// ```swift
    /// enum Light: String, Hashable, Codable { case green, yellow, red }
    /// enum Signal: ChartEvent, Codable { case timer, emergency }
    ///
    /// let saved = try JSONEncoder().encode(try machine.snapshot())
    /// let snapshot = try JSONDecoder().decode(StateMachine<Light, Signal>.Snapshot.self, from: saved)
    /// let restored = try StateMachine(chart, restoring: snapshot)
    /// ```
    public struct Snapshot: Sendable {
        /// The chart's name (informational).
        public var chart: String
        /// Every active state, compound and parallel ancestors included, in document order.
        public var activeStates: [State]
        /// The history states that hold a record, in document order.
        public var history: [HistoryRecord]
        /// Events raised and not processed yet, in queue order (empty unless the last
        /// macrostep was stopped as a runaway).
        public var internalEvents: [PendingEvent]
        /// Pending delayed events (``After`` timers included), in delivery order.
        public var delayedEvents: [DelayedEvent]
        /// Whether the machine had halted.
        public var isFinished: Bool

        /// Creates a snapshot from its parts (to build or edit one by hand).
        public init(chart: String, activeStates: [State], history: [HistoryRecord] = [],
                    internalEvents: [PendingEvent] = [], delayedEvents: [DelayedEvent] = [],
                    isFinished: Bool = false) {
            self.chart = chart
            self.activeStates = activeStates
            self.history = history
            self.internalEvents = internalEvents
            self.delayedEvents = delayedEvents
            self.isFinished = isFinished
        }

        /// What a history state remembers.
        public struct HistoryRecord: Sendable {
            /// The history state.
            public var state: State
            /// The remembered states: the parent's active child (shallow history) or its
            /// active atomic descendants (deep history).
            public var remembered: [State]

            /// A record of `state` remembering `remembered`.
            public init(state: State, remembered: [State]) {
                self.state = state
                self.remembered = remembered
            }
        }

        /// A delayed event still waiting, with the time left before it is due.
        public struct DelayedEvent: Sendable {
            /// The send id, to cancel it.
            public var sendID: String
            /// The event.
            public var event: PendingEvent
            /// The time left before it is due, when the snapshot was taken.
            public var remaining: Duration

            /// A delayed event due `remaining` from now.
            public init(sendID: String, event: PendingEvent, remaining: Duration) {
                self.sendID = sendID
                self.event = event
                self.remaining = remaining
            }
        }

        /// An event waiting in a queue: one of your events, or an event of the chart's own
        /// (a done event, an ``After`` timer) by name.
        public enum PendingEvent: Sendable {
            /// One of your events.
            case event(Event)
            /// An event of the chart's own, by name.
            case untyped(SnapshotEvent)
        }
    }

    /// Captures the configuration, history records, internal queue and pending delayed events.
    ///
    /// ```swift
    /// let snapshot = try machine.snapshot()
    /// ```
    /// - Throws: ``SnapshotError/insideMacrostep`` from the machine's own callbacks,
    ///   ``SnapshotError/notStarted``, ``SnapshotError/unencodablePayload(event:)`` for an
    ///   untyped event whose payload is not a ``DataValue``.
    public func snapshot() throws -> Snapshot {
        try snapshot(whileHeld: {})
    }

    /// ``snapshot()``, running `whileHeld` with the machine held right after the capture (the
    /// context is read there: it goes with the configuration captured).
    func snapshot(whileHeld: () throws -> Void) throws -> Snapshot {
        let raw = try machine.captureRaw(whileHeld: whileHeld)
        let maps = self.maps
        func pending(_ event: Statechart.Event, typed: (any Sendable)?, raw: sc_event) throws -> Snapshot.PendingEvent {
            if let typed = maps.typed(ObservedEvent(event: event, raw: raw, typed: typed)) { return .event(typed) }
            switch event.payload {
            case nil: return .untyped(SnapshotEvent(name: event.name))
            case let value as DataValue: return .untyped(SnapshotEvent(name: event.name, payload: value))
            default: throw SnapshotError.unencodablePayload(event: event.name)
            }
        }
        let noID = sc_event(id: SC_NONE, flags: 0, data: 1)
        return Snapshot(
            chart: chart.name,
            activeStates: raw.active.compactMap(maps.state(at:)),
            history: raw.history.compactMap { record in
                maps.state(at: record.state).map {
                    Snapshot.HistoryRecord(state: $0, remembered: record.remembered.compactMap(maps.state(at:)))
                }
            },
            internalEvents: try raw.internalEvents.map { try pending($0.event, typed: $0.typed, raw: $0.raw) },
            delayedEvents: try raw.delayed.map {
                Snapshot.DelayedEvent(sendID: $0.id, event: try pending($0.event, typed: $0.typed, raw: noID),
                                      remaining: $0.remaining)
            },
            isFinished: raw.halted)
    }

    /// Replaces this machine's state with `snapshot`'s without running any action; see
    /// ``Machine/restore(_:)``.
    ///
    /// ```swift
    /// let machine = StateMachine(chart, clock: clock)
    /// try machine.restore(snapshot)
    /// try machine.send(.next)          // continues as the original would have
    /// ```
    public func restore(_ snapshot: Snapshot) throws {
        try restore(snapshot, beforeApplying: {})
    }

    /// ``restore(_:)-(StateMachine<State,Event>.Snapshot)``, running `beforeApplying` with the
    /// machine held once the snapshot is checked, before anything changes (the context is
    /// written there).
    func restore(_ snapshot: Snapshot, beforeApplying: () throws -> Void) throws {
        let maps = self.maps
        func index(_ state: State) throws -> Int {
            guard let index = maps.index(of: state) else { throw SnapshotError.unknownState(chart.id(of: state)) }
            return index
        }
        func restored(_ event: Snapshot.PendingEvent) -> RestoredEvent {
            switch event {
            case .event(let typed):
                let (untyped, value, known) = maps.untyped(typed)
                return RestoredEvent(event: untyped, typed: value, known: known)
            case .untyped(let event):
                return RestoredEvent(event: Statechart.Event(event.name, payload: event.payload), typed: nil, known: nil)
            }
        }
        try machine.restoreRaw(
            active: try snapshot.activeStates.map(index),
            history: try snapshot.history.map { (try index($0.state), try $0.remembered.map(index)) },
            halted: snapshot.isFinished,
            internalEvents: snapshot.internalEvents.map(restored),
            delayed: snapshot.delayedEvents.map { ($0.sendID, restored($0.event), $0.remaining) },
            beforeApplying: beforeApplying)
    }

}

extension StateMachine where Event.Context == NoContext {
    /// A machine for `chart` in the state `snapshot` recorded; see
    /// ``restore(_:)-(StateMachine<State,Event>.Snapshot)``. (A chart with a context restores
    /// from a ``ContextSnapshot``, which carries it.)
    ///
    /// ```swift
    /// let machine = try StateMachine(chart, restoring: snapshot, clock: clock)
    /// ```
    public convenience init(_ chart: TypedChart<State, Event>, restoring snapshot: Snapshot,
                            options: MachineOptions = MachineOptions(),
                            clock: any MachineClock = SystemClock.shared) throws {
        self.init(chart, options: options, clock: clock)
        try restore(snapshot)
    }
}

extension StateMachine.Snapshot: Equatable, Hashable {}
extension StateMachine.Snapshot.HistoryRecord: Equatable, Hashable {}
extension StateMachine.Snapshot.DelayedEvent: Equatable, Hashable {}
extension StateMachine.Snapshot.PendingEvent: Equatable, Hashable {}

extension StateMachine.Snapshot: Codable where State: Codable, Event: Codable {}
extension StateMachine.Snapshot.HistoryRecord: Codable where State: Codable, Event: Codable {}
extension StateMachine.Snapshot.DelayedEvent: Codable where State: Codable, Event: Codable {}
extension StateMachine.Snapshot.PendingEvent: Codable where State: Codable, Event: Codable {}
