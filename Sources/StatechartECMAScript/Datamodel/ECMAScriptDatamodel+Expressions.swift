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
