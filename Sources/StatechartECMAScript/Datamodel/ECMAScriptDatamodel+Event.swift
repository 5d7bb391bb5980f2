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
                // Data the engine cannot hold (nested too deeply, too large) stays undefined.
                try? setMember("data", to: data, isXML: event.dataIsXML, key: Key.eventData)
            }
            if let raw = event.raw {
                try? setMember("raw", to: .string(raw), isXML: false, key: Key.eventRaw)
            }
            try engine.setReadOnly("_event", storedValue: Key.event)
        } catch {
            // Only a fatal engine error gets here; every later evaluation reports it.
        }
    }

    private func setMember(_ member: String, to value: DataValue, isXML: Bool, key: String) throws {
        if isXML, case .string(let markup) = value, let tree = SCXMLMarkup.documentTree(of: markup) {
            try engine.store(evaluating: domSource(tree), as: key)
        } else {
            try engine.store(value, as: key)
        }
        try engine.setStoredMember(member, of: Key.event, toStoredValue: key)
    }
}
