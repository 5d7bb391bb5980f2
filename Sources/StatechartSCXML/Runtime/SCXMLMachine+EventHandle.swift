import Statechart

// Events resolved once against a machine's chart, so sending them needs no lookup.

extension SCXMLMachine {
    /// An event the machine's document names, resolved once (``SCXMLMachine/event(_:)``) so that
    /// sending it again and again needs no lookup.
    ///
    /// ```swift
    /// let coin = try machine.event("coin"), push = try machine.event("push")
    /// for _ in 0..<1_000 {
    ///     try machine.send(coin)
    ///     try machine.send(push)
    /// }
    /// ```
    ///
    /// Sending a handle is the same as sending its name without data (``send(_:data:)``): the
    /// document sees an external event of that name. A handle is two integers (the event's
    /// interned id and its chart's identity): copying and sending it counts no references and
    /// allocates nothing. It belongs to the machine that made it: another machine refuses it
    /// (``EventHandleError/Reason/otherMachine``), also one loaded from the same document, since each
    /// machine compiles its own chart.
    public struct EventHandle: Sendable, Hashable {
        /// The event's interned id in `chart`'s events.
        @usableFromInline let id: UInt32
        /// The chart `id` belongs to (never reused, unlike the chart's address).
        @usableFromInline let chart: ChartIdentity

        init(id: UInt32, chart: ChartIdentity) {
            self.id = id
            self.chart = chart
        }
    }

    /// Why ``SCXMLMachine/event(_:)`` made no handle, or ``SCXMLMachine/send(_:)-(SCXMLMachine.EventHandle)``
    /// refused one.
    ///
    /// ```swift
    /// do { _ = try machine.event("coin ") } catch let error as SCXMLMachine.EventHandleError {
    ///     print(error)   // the document names no event 'coin ' exactly (did you mean 'coin'?); ...
    /// }
    /// ```
    public struct EventHandleError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The two causes, as a struct over an internal enum so causes can be added.
        public struct Reason: Hashable, Sendable {
            enum Kind: Hashable, Sendable { case unknownEvent, otherMachine }
            let kind: Kind
            /// The document names no event of that name exactly: it is matched only by a
            /// wildcard or a prefix descriptor (`*`, `error` for `error.send`), or not at all.
            public static let unknownEvent = Reason(kind: .unknownEvent)
            /// The handle was made by another machine.
            public static let otherMachine = Reason(kind: .otherMachine)
        }

        public let reason: Reason
        /// The event name asked for (``Reason/unknownEvent``), or `nil`.
        public let eventName: String?
        public let description: String
    }

    /// A handle for the event `name`, which the document names exactly (as a transition's
    /// event descriptor, or a prefix of one before a dot), for ``send(_:)-(SCXMLMachine.EventHandle)``.
    ///
    /// ```swift
    /// let push = try machine.event("push")
    /// try machine.send(push)
    /// ```
    /// - Throws: ``EventHandleError`` (``EventHandleError/Reason/unknownEvent``) for a name the
    ///   document does not name exactly: such an event travels with its name, so send it with
    ///   ``send(_:data:)``.
    /// - Complexity: one lookup of the name.
    public func event(_ name: String) throws -> EventHandle {
        guard let id = machine.internedEventID(name) else {
            let suggestion = Suggestions.closest(to: name, in: machine.chart.eventNames).map { " (did you mean '\($0)'?)" } ?? ""
            throw EventHandleError(reason: .unknownEvent, eventName: name, description:
                "the document names no event '\(name)' exactly\(suggestion); only events named by a transition's "
                + "event descriptor (or a prefix of one) have handles: send this one by name, with send(_:data:)")
        }
        return EventHandle(id: id, chart: machine.chart.identity)
    }

    /// The name of the event `handle` stands for, or `nil` when another machine made it.
    ///
    /// ```swift
    /// machine.name(of: try machine.event("coin"))   // "coin"
    /// ```
    public func name(of handle: EventHandle) -> String? {
        guard handle.chart == chartIdentity else { return nil }
        return machine.chart.eventNames[Int(handle.id)]
    }

    /// Sends the event `handle` stands for, without data: like ``send(_:data:)`` with its name,
    /// without looking the name up.
    ///
    /// ```swift
    /// let coin = try machine.event("coin")
    /// try machine.send(coin)
    /// ```
    /// - Throws: ``EventHandleError`` (``EventHandleError/Reason/otherMachine``) for a handle
    ///   another machine made; what ``send(_:data:)`` throws.
    /// - Complexity: one macrostep; no lookup, no reference counting, no allocation.
    @inlinable @discardableResult
    public func send(_ handle: EventHandle) throws -> SendOutcome {
        guard handle.chart == chartIdentity else { throw refused(handle) }
        return try machine.send(coreEventID: handle.id, flags: SCXMLEvent.bareExternalFlag)
    }

    /// The error for a handle of another machine, kept out of line (the send above inlines).
    @usableFromInline @inline(never)
    func refused(_ handle: EventHandle) -> EventHandleError {
        EventHandleError(reason: .otherMachine, eventName: nil, description:
            "this event handle was made by another SCXMLMachine (a handle holds an event id of the chart that "
            + "machine compiled); make one for this machine with its event(_:)")
    }
}
