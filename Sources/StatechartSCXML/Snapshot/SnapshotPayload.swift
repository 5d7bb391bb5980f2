import Statechart

/// The payloads of a session's queued events, written as data for ``SCXMLSnapshot`` and read
/// back: ``SCXMLEvent``s, deferred `<send>`s, `done.state` data and plain data. Everything else
/// is refused, so no event is restored with a payload it did not have.
enum SnapshotPayload {
    static func encode(_ event: Event) throws -> DataValue? {
        switch event.payload {
        case nil:
            return nil
        case let scxml as SCXMLEvent:
            return encode(scxml)
        case let deferred as SCXMLSession.DeferredSend:
            var fields: [String: DataValue] = ["kind": .string("deferred"), "event": encode(deferred.event),
                                               "type": .string(deferred.type)]
            fields["target"] = deferred.target.map(DataValue.string)
            return .object(fields)
        case let done as SCXMLEvent.DoneData:
            return .object(["kind": .string("done"), "data": done.data, "isXML": .bool(done.isXML)])
        case let value as DataValue:
            return .object(["kind": .string("data"), "value": value])
        default:
            throw SCXMLSnapshotError.unencodableEvent(event.name)
        }
    }

    static func encode(_ event: SCXMLEvent) -> DataValue {
        var fields: [String: DataValue] = ["kind": .string("event"), "name": .string(event.name),
                                           "type": .string(event.type.rawValue)]
        fields["sendid"] = event.sendID.map(DataValue.string)
        fields["origin"] = event.origin.map(DataValue.string)
        fields["origintype"] = event.originType.map(DataValue.string)
        fields["invokeid"] = event.invokeID.map(DataValue.string)
        fields["data"] = event.data
        if event.dataIsXML { fields["dataIsXML"] = .bool(true) }
        fields["raw"] = event.raw.map(DataValue.string)
        if let tag = event.invocation {
            fields["invocation"] = .array([.string(tag.parentSessionID), .string(tag.childSessionID)])
        }
        return .object(fields)
    }

    static func decode(_ event: SnapshotEvent) throws -> (any Sendable)? {
        guard let payload = event.payload else { return nil }
        guard case .object(let fields) = payload, case .string(let kind)? = fields["kind"] else {
            throw SCXMLSnapshotError.malformed("the payload of event '\(event.name)' has no kind")
        }
        switch kind {
        case "event":
            return try decodeEvent(payload, name: event.name)
        case "deferred":
            guard let inner = fields["event"], case .string(let type)? = fields["type"] else {
                throw SCXMLSnapshotError.malformed("the deferred send '\(event.name)' lacks its event or type")
            }
            return SCXMLSession.DeferredSend(event: try decodeEvent(inner, name: event.name),
                                             target: try string(fields["target"], "target", event.name), type: type)
        case "done":
            guard let data = fields["data"] else { throw SCXMLSnapshotError.malformed("done event '\(event.name)' has no data") }
            return SCXMLEvent.DoneData(data: data, isXML: fields["isXML"] == .bool(true))
        case "data":
            return fields["value"] ?? .null
        default:
            throw SCXMLSnapshotError.malformed("event '\(event.name)' has a payload of unknown kind '\(kind)'")
        }
    }

    private static func decodeEvent(_ value: DataValue, name: String) throws -> SCXMLEvent {
        guard case .object(let fields) = value, case .string(let eventName)? = fields["name"],
              case .string(let typeName)? = fields["type"], let type = SCXMLEvent.Kind(rawValue: typeName) else {
            throw SCXMLSnapshotError.malformed("the SCXML event of '\(name)' needs a name and a type (platform, internal or external)")
        }
        var event = SCXMLEvent(name: eventName, type: type, sendID: try string(fields["sendid"], "sendid", name),
                               origin: try string(fields["origin"], "origin", name),
                               originType: try string(fields["origintype"], "origintype", name),
                               invokeID: try string(fields["invokeid"], "invokeid", name), data: fields["data"],
                               dataIsXML: fields["dataIsXML"] == .bool(true), raw: try string(fields["raw"], "raw", name))
        if case .array(let ids)? = fields["invocation"], ids.count == 2, case .string(let parent) = ids[0],
           case .string(let child) = ids[1] {
            event.invocation = InvocationTag(parentSessionID: parent, childSessionID: child)
        }
        return event
    }

    private static func string(_ value: DataValue?, _ field: String, _ name: String) throws -> String? {
        switch value {
        case nil: return nil
        case .string(let text)?: return text
        default: throw SCXMLSnapshotError.malformed("field '\(field)' of event '\(name)' is not a string")
        }
    }
}
