import Statechart
import StatechartSCXML

/// Conditions, values, locations and `<foreach>` (SCXML 5.9, B.2.3-B.2.6). Assignments are
/// strict: an undeclared location or a read-only system variable is an error.
extension ECMAScriptDatamodel {
    public func evaluateCondition(_ expression: String) throws -> Bool {
        try engine.evaluateBoolean(Self.expression(expression))
    }

    public func evaluate(_ expression: String) throws -> DataValue {
        try engine.evaluate(Self.expression(expression))
    }

    /// ECMAScript's ToString; a DOM node gives its markup.
    public func evaluateString(_ expression: String) throws -> String {
        try engine.evaluateString(Self.expression(expression))
    }

    /// An attribute's expression without trailing semicolons, which documents often write
    /// (`expr="new Thing();"`, IRP test 452) and which an expression may not contain.
    static func expression(_ text: String) -> String {
        // Most texts end in neither: returned as they are, with no characters counted (the last
        // byte read from the contiguous UTF-8 every native and small string has).
        guard let last = text.utf8.withContiguousStorageIfAvailable({ $0.last }) ?? text.utf8.last else { return text }
        let asciiSpace = last == 0x20 || (0x09...0x0D).contains(last)
        if last < 0x80 && last != UInt8(ascii: ";") && !asciiSpace { return text }
        var trimmed = Substring(text)
        while let last = trimmed.last, last == ";" || last.isWhitespace { trimmed = trimmed.dropLast() }
        return trimmed.count == text.count ? text : String(trimmed)
    }

    public func assign(_ location: String, _ value: SCXMLAssign.Value?) throws {
        switch value {
        case .expression(let expression)?:
            try engine.assign(location: location, expression: Self.expression(expression))
        case .inline(let content)?:
            try engine.assign(location: location, expression: try source(of: content))
        case nil:
            try engine.assign(location: location, expression: "undefined")
        }
    }

    public func store(_ value: DataValue, at location: String) throws {
        try engine.assign(location: location, value: value)
    }

    public func items(of arrayExpression: String) throws -> [DataValue] {
        try engine.foreachItems(arrayExpression)
    }

    public func value(at location: String) throws -> DataValue {
        try engine.value(of: location)
    }

    /// Iterates a shallow copy of the array; items keep their identity (objects are not
    /// copied). `item` and `index` are declared when new (SCXML 4.6).
    public func foreach(_ node: SCXMLForeach, body: () throws -> Void) throws {
        try engine.foreach(array: node.array, item: node.item, index: node.index, body: body)
    }
}

extension ECMAScriptDatamodel {
    /// Charges an event payload copied out of the engine to the document tree's script memory
    /// budget while the event exists, so payloads queued by `<send>` count against the same bound
    /// as the heaps they came from (the copy's size: `DataValue.approximateByteCount`).
    public func chargePayload(_ data: DataValue) throws -> SCXMLPayloadLease? {
        let bytes = data.approximateByteCount
        guard let lease = engine.memoryBudget.charge(bytes: bytes) else {
            let budget = engine.memoryBudget
            throw SCXMLExecutionError(
                "the event's data (\(bytes) bytes) does not fit in the ECMAScript memory limit of this document tree (\(budget.limit) bytes, \(budget.inUse) in use)")
        }
        return lease
    }
}

extension DataValue {
    /// About the bytes a copy of this value holds: its strings' UTF-8 and keys, and 16 bytes per
    /// value. Used to charge payloads to a memory budget; nested as deep as the value.
    var approximateByteCount: Int {
        switch self {
        case .null, .bool, .number: return 16
        case .string(let text): return 16 + text.utf8.count
        case .array(let items): return items.reduce(16) { $0 + $1.approximateByteCount }
        case .object(let members): return members.reduce(16) { $0 + 16 + $1.key.utf8.count + $1.value.approximateByteCount }
        }
    }
}
