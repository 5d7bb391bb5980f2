import Statechart
import StatechartSCXML

/// `_event` (SCXML 5.10.1): a read-only global whose fields are always present (`'sendid' in
/// _event`), `undefined` when the event has no such value. Its top level is frozen; `data` is
/// the sender's value as a mutable object (or a DOM document for XML content).
extension ECMAScriptDatamodel {
    public func setEvent(_ event: SCXMLEvent) {
        func optional(_ text: String?) -> String { text.map(JavaScriptLiteral.quoted) ?? "undefined" }
        let fields = [
            "name: " + JavaScriptLiteral.quoted(event.name),
            "type: " + JavaScriptLiteral.quoted(event.type.rawValue),
            "sendid: " + optional(event.sendID),
            "origin: " + optional(event.origin),
            "origintype: " + optional(event.originType),
            "invokeid: " + optional(event.invokeID),
            "data: undefined",
        ]
        do {
            try engine.store(evaluating: "({" + fields.joined(separator: ", ") + "})", as: Key.event)
            if let data = event.data {
                if event.dataIsXML, case .string(let markup) = data, let tree = SCXMLMarkup.documentTree(of: markup) {
                    try engine.store(evaluating: domSource(tree), as: Key.eventData)
                } else {
                    try engine.store(data, as: Key.eventData)
                }
                try engine.setStoredMember("data", of: Key.event, toStoredValue: Key.eventData)
            }
            if let raw = event.raw {
                try engine.store(.string(raw), as: Key.eventRaw)
                try engine.setStoredMember("raw", of: Key.event, toStoredValue: Key.eventRaw)
            }
            try engine.setReadOnly("_event", storedValue: Key.event)
        } catch {
            // Only a fatal engine error gets here; every later evaluation reports it.
        }
    }
}
