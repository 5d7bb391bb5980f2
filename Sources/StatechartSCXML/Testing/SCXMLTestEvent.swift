import Statechart

/// One event of an SCXML test path: its name and, when the document gives an example of it
/// (``SCXMLEventExample``), the example's data.
///
/// ```swift
/// let event = SCXMLTestEvent("order.placed", data: .object(["amount": .number(120)]))
/// event.line                      // order.placed {"amount":120}
/// try machine.send(event.name, data: event.data)
/// ```
public struct SCXMLTestEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event's name.
    public var name: String
    /// Its data (`_event.data`), `nil` for none.
    public var data: DataValue?

    /// Creates an event.
    public init(_ name: String, data: DataValue? = nil) {
        self.name = name
        self.data = data
    }

    /// The line `statechart trace` reads for this event: the name, then a space and the data
    /// as one line of JSON when there is data.
    public var line: String { data.map { name + " " + $0.jsonText } ?? name }

    /// ``line``.
    public var description: String { line }
}
