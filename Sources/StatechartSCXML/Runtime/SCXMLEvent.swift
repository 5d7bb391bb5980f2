import Statechart

/// An SCXML event as a document sees it in `_event` (SCXML 5.10.1).
///
/// ```swift
/// try machine.send("order.placed", data: .object(["id": .number(7)]))
/// machine.onSend { event, target in print(event.name, target ?? "-") }
/// ```
public struct SCXMLEvent: Sendable, Hashable {
    /// `platform` for events the processor raises (errors, done events), `internal` for `<raise>`
    /// and `<send target="#_internal">`, `external` for the rest.
    public enum Kind: String, Sendable, Hashable {
        case platform, `internal`, external
    }

    public var name: String
    public var type: Kind
    /// The id of the `<send>` that produced the event, when it has one.
    public var sendID: String?
    /// URI of the sending session (`#_scxml_<sessionid>`) for events sent by SCXML sessions.
    public var origin: String?
    /// Type of the processor that sent it (the SCXML processor's URI).
    public var originType: String?
    /// The id of the invocation the event came from, when it came from one.
    public var invokeID: String?
    /// The payload (`namelist`, `<param>`, `<content>`, `<donedata>`, or host data).
    public var data: DataValue?

    public init(name: String, type: Kind = .external, sendID: String? = nil, origin: String? = nil,
                originType: String? = nil, invokeID: String? = nil, data: DataValue? = nil) {
        self.name = name
        self.type = type
        self.sendID = sendID
        self.origin = origin
        self.originType = originType
        self.invokeID = invokeID
        self.data = data
    }

    /// The SCXML Event I/O Processor's type URI.
    public static let scxmlProcessorType = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
}

extension SCXMLEvent {
    /// The SCXML view of a core event: its payload when it is an `SCXMLEvent`, else a platform
    /// event (such as `done.state.x` raised by the core) with the payload as data when it is one.
    init(_ event: Event) {
        if let scxml = event.payload as? SCXMLEvent {
            self = scxml
        } else {
            self.init(name: event.name, type: .platform, data: event.payload as? DataValue)
        }
    }
}
