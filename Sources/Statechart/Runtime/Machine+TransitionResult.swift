import CStateCore

extension Machine {
    /// What one send did: whether the event was handled, the transitions taken and the
    /// configuration before and after.
    ///
    /// ```swift
    /// let result = try machine.transition(on: "coin")
    /// result.isHandled                 // true
    /// result.before                    // ["locked"]
    /// result.after                     // ["unlocked"]
    /// result.transitions.map(\.description)   // ["locked -coin-> unlocked"]
    /// ```
    public struct TransitionResult: Sendable, CustomStringConvertible {
        /// The event that was sent.
        public let event: Event
        /// Handled, unhandled, queued (sent from inside the machine's own callbacks) or halted.
        public let outcome: SendOutcome
        /// Every transition taken before the send returned, in order: the event's own, the
        /// eventless and internal-event transitions of its macrostep, then those of the events
        /// its actions sent to the machine. Each record names its triggering event.
        public let transitions: [TransitionRecord]
        /// The active atomic states before the event, in document order.
        public let before: [String]
        /// The active atomic states after the send, in document order.
        public let after: [String]

        /// Whether the event enabled a transition.
        public var isHandled: Bool { outcome == .handled }

        /// `event: outcome [before] -> [after]`.
        public var description: String {
            "\(event.name): \(outcome) [\(before.joined(separator: ", "))] -> [\(after.joined(separator: ", "))]"
        }
    }

    /// The raw material of a transition result, in chart indices.
    struct RecordedSend {
        var outcome: SendOutcome
        var taken: [(index: Int, event: ObservedEvent)]
        var before: [Int]
        var after: [Int]
    }

    /// Runs a send with transition recording switched on. From inside a callback the event is
    /// only queued: the result has no transitions and `before == after`.
    func recording(_ event: Event, typed: (any Sendable)?, known: (id: UInt32, exact: Bool)?) throws -> RecordedSend {
        try enqueueOrRun({ runtime.coreEvent(event, typed: typed, known: known) }, queued: {
            let now = runtime.activeIndices(atomicOnly: true)
            return RecordedSend(outcome: .queued, taken: [], before: now, after: now)
        }, run: { raw in
            guard runtime.started else {
                runtime.releaseSlot(raw.data)
                throw MachineError.notStarted
            }
            let before = runtime.activeIndices(atomicOnly: true)
            runtime.recordTransitions = true
            runtime.takenTransitions.removeAll(keepingCapacity: true)
            defer {
                runtime.recordTransitions = false
                runtime.takenTransitions.removeAll(keepingCapacity: true)
            }
            let outcome = try process(raw)
            return RecordedSend(outcome: outcome, taken: runtime.takenTransitions, before: before,
                                after: runtime.activeIndices(atomicOnly: true))
        })
    }

    /// Sends `event` like ``send(_:)`` and reports what happened: the transitions taken and the
    /// configuration before and after.
    ///
    /// ```swift
    /// let result = try machine.transition(on: "coin")
    /// if !result.isHandled { print("coin ignored in \(result.before)") }
    /// ```
    /// - Complexity: allocates the result's arrays; use ``send(_:)`` on hot paths.
    @discardableResult
    public func transition(on event: Event) throws -> TransitionResult {
        let recorded = try recording(event, typed: nil, known: nil)
        let ids = chart.stateIDs
        return TransitionResult(
            event: event, outcome: recorded.outcome,
            transitions: recorded.taken.map { TransitionRecord(chart: chart, index: $0.index, event: $0.event.event) },
            before: recorded.before.map { ids[$0] }, after: recorded.after.map { ids[$0] })
    }
}
