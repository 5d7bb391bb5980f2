import Statechart

/// An SCXML event as a document sees it in `_event` (SCXML 5.10.1).
///
/// ```swift
/// try machine.send("order.placed", data: .object(["id": .number(7)]))
/// machine.onSend { event, target, _ in print(event.name, target); return true }
/// ```
public struct SCXMLEvent: Sendable, Hashable {
    /// `platform` for events the processor raises (errors, done events), `internal` for `<raise>`
    /// and `<send target="#_internal">`, `external` for the rest.
    public enum Kind: String, Sendable, Hashable {
        case platform, `internal`, external
    }

    /// The event's name, matched against transitions' `event` descriptors.
    public var name: String
    /// Who produced the event (see ``Kind``).
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
    /// `true` when ``data`` is `.string(markup)` holding XML from an inline `<content>`:
    /// datamodels with a DOM (ECMAScript) show it to scripts as a document.
    public var dataIsXML: Bool
    /// The raw message the event came in, for events received by the BasicHTTP Event I/O
    /// Processor (the request line, headers and body): the IRP's test-only `_event.raw`.
    public var raw: String?

    /// Which invocation of which session produced the event, so that the invoking session can
    /// run `<finalize>` and ignore events of cancelled invocations. Set by the runtime only.
    var invocation: InvocationTag?
    /// The memory `data` is charged to while the event exists (``SCXMLDatamodel/chargePayload(_:)``).
    var payloadCharge = PayloadCharge()

    /// An event with the given fields; hosts usually set only `name` and `data`.
    ///
    /// ```swift
    /// try machine.send(SCXMLEvent(name: "order.placed", data: .object(["id": .number(7)])))
    /// ```
    public init(name: String, type: Kind = .external, sendID: String? = nil, origin: String? = nil,
                originType: String? = nil, invokeID: String? = nil, data: DataValue? = nil,
                dataIsXML: Bool = false, raw: String? = nil) {
        self.name = name
        self.type = type
        self.sendID = sendID
        self.origin = origin
        self.originType = originType
        self.invokeID = invokeID
        self.data = data
        self.dataIsXML = dataIsXML
        self.raw = raw
    }

    /// The SCXML Event I/O Processor's type URI.
    public static let scxmlProcessorType = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
    /// The BasicHTTP Event I/O Processor's type URI.
    public static let basicHTTPProcessorType = "http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"
}

/// The invocation an event came back from: the invoking session and the invoked one.
struct InvocationTag: Sendable, Hashable {
    var parentSessionID: String
    var childSessionID: String
}

extension SCXMLEvent {
    /// The host flag (`sc_event.flags`) of an external event sent without payload: its name,
    /// type `external` and nothing else (``SCXMLMachine/send(_:data:)`` without data). Such an
    /// event travels as its interned id alone; its `SCXMLEvent` is made only when something
    /// reads it.
    @usableFromInline static let bareExternalFlag: UInt32 = 1

    /// The SCXML view of a core event and its host flags (``ActionContext/eventFlags``).
    init(_ event: Event, flags: UInt32) {
        if event.payload == nil && flags & Self.bareExternalFlag != 0 {
            self.init(name: event.name, type: .external)
        } else {
            self.init(event)
        }
    }

    /// Whether the event is only a name sent from outside: type `external`, no data, no ids.
    var isBareExternal: Bool {
        type == .external && data == nil && sendID == nil && origin == nil && originType == nil
            && invokeID == nil && !dataIsXML && raw == nil && invocation == nil
    }

    /// The SCXML view of a core event: its payload when it is an `SCXMLEvent`, else a platform
    /// event (such as `done.state.x` raised by the core) with the payload as data when it is one.
    init(_ event: Event) {
        if let scxml = event.payload as? SCXMLEvent {
            self = scxml
        } else if let done = event.payload as? DoneData {
            self.init(name: event.name, type: .platform, data: done.data, dataIsXML: done.isXML)
        } else {
            self.init(name: event.name, type: .platform, data: event.payload as? DataValue)
        }
    }

    /// The payload of a `done.state.<id>` event whose final state has `<donedata>`.
    struct DoneData: Sendable {
        var data: DataValue
        var isXML: Bool
    }
}
