extension StateMachine {
    /// A transition the machine took, in your own types.
    ///
    /// ```swift
    /// machine.onTransition { t in print(t.source, "->", t.targets, "on", t.event as Any) }
    /// ```
    public struct Transition: Sendable, CustomStringConvertible {
        /// The state whose transition was taken (for a transition written at the top level of
        /// the chart, the top-level state that was active).
        public let source: State
        /// The target states; empty for a targetless transition.
        public let targets: [State]
        /// The triggering event, or `nil` for eventless transitions, done events and timers
        /// (see ``record`` for those).
        public let event: Event?
        /// The untyped record: ids, the untyped event, the transition's index in the chart.
        public let record: TransitionRecord

        init(record: TransitionRecord, observed: ObservedEvent, maps: TypedChartMaps<State, Event>, chart: CompiledChart) {
            let index = record.index
            self.source = maps.state(at: Int(chart.tables.pointee.transitions[index].source))!
            self.targets = record.targets.compactMap { chart.index(of: $0).flatMap(maps.state(at:)) }
            self.event = maps.typed(observed)
            self.record = record
        }

        /// The transition as `source -event-> targets`.
        public var description: String { record.description }
    }

    /// What one send did, in your own types: Tinder's `Transition.Valid`/`Invalid` and
    /// Transporter's `Transition`, for hierarchical charts.
    ///
    /// ```swift
    /// let result = try machine.transition(on: .coin)
    /// switch result.outcome {
    /// case .handled: print(result.before, "->", result.after)     // [locked] -> [unlocked]
    /// case .unhandled: print("no transition for coin in", result.before)
    /// default: break
    /// }
    /// ```
    public struct TransitionResult: Sendable, CustomStringConvertible {
        /// The event that was sent.
        public let event: Event
        /// Handled, unhandled, queued (sent from inside the machine's own callbacks) or halted.
        public let outcome: SendOutcome
        /// Every transition taken before the send returned, in order: the event's own, the
        /// eventless and raised-event transitions of its macrostep, then those of the events
        /// its actions sent to the machine.
        public let transitions: [Transition]
        /// The active atomic states before the event, in document order.
        public let before: [State]
        /// The active atomic states after the send, in document order.
        public let after: [State]

        /// Whether the event enabled a transition.
        public var isHandled: Bool { outcome == .handled }

        /// `event: outcome [before] -> [after]`.
        public var description: String {
            "\(event): \(outcome) \(before) -> \(after)"
        }
    }

    /// Sends `event` like ``send(_:)`` and reports what happened: the outcome, the transitions
    /// taken and the configuration before and after.
    ///
    /// ```swift
    /// let result = try machine.transition(on: .melt)
    /// result.isHandled                         // true
    /// result.transitions.map(\.source)         // [.solid]
    /// result.after                             // [.liquid]
    /// ```
    /// - Complexity: one macrostep, plus the allocation of the result's arrays. Prefer
    ///   ``send(_:)`` on hot paths.
    @discardableResult
    public func transition(on event: Event) throws -> TransitionResult {
        let (untyped, typed, known) = maps.untyped(event)
        let recorded = try machine.recording(untyped, typed: typed, known: known)
        let compiled = chart.compiled
        let maps = self.maps
        return TransitionResult(
            event: event, outcome: recorded.outcome,
            transitions: recorded.taken.map { taken in
                Transition(record: TransitionRecord(chart: compiled, index: taken.index, event: taken.event.event),
                           observed: taken.event, maps: maps, chart: compiled)
            },
            before: recorded.before.compactMap(maps.state(at:)),
            after: recorded.after.compactMap(maps.state(at:)))
    }
}
