import Statechart

// Event names resolved once against a machine's chart, so sending them needs no lookup.

extension SCXMLMachine {
    /// An event name looked up once in a machine's document, for sending it again and again
    /// without looking it up each time (see ``SCXMLMachine/event(named:)``).
    ///
    /// ```swift
    /// let coin = machine.event(named: "coin")
    /// for _ in 0..<1_000 { try machine.send(coin) }
    /// ```
    ///
    /// Sending it is the same as sending its ``name`` without data. A value made by one machine
    /// may be sent to any other: it is then looked up by name, as a string would be.
    public struct EventName: Sendable, Hashable, CustomStringConvertible {
        /// The event's name.
        public let name: String
        /// The name's interned id in `chart`'s events, when the document mentions the name
        /// exactly.
        @usableFromInline let id: UInt32?
        /// The chart `id` belongs to (never reused, unlike the chart's address).
        @usableFromInline let chart: ChartIdentity

        init(name: String, id: UInt32?, chart: ChartIdentity) {
            self.name = name
            self.id = id
            self.chart = chart
        }

        /// The name.
        public var description: String { name }
    }

    /// The event `name`, resolved against this machine's document once, for `send(_:)`.
    ///
    /// ```swift
    /// let push = machine.event(named: "push")
    /// try machine.send(push)
    /// ```
    /// - Complexity: one lookup of the name; sending the result needs none when the document
    ///   mentions the name exactly (as a transition's event descriptor or a prefix of one).
    public func event(named name: String) -> EventName {
        EventName(name: name, id: machine.internedEventID(name), chart: machine.chart.identity)
    }

    /// Sends a resolved event name without data, like ``send(_:data:)`` with its name.
    ///
    /// ```swift
    /// let coin = machine.event(named: "coin")
    /// try machine.send(coin)
    /// ```
    @inlinable @discardableResult
    public func send(_ event: EventName) throws -> SendOutcome {
        if let id = event.id, event.chart == machine.chart.identity {
            return try machine.send(coreEventID: id, flags: SCXMLEvent.bareExternalFlag)
        }
        return try send(event.name)
    }
}
