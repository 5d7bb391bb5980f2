import Statechart
import StatechartSCXML

/// `<data>` (SCXML 5.2, B.2.2): `expr` is evaluated; inline content and `src` files hold JSON
/// (an object, array, number...), XML (a DOM document) or anything else (a space-normalized
/// string). A value that cannot be computed leaves the variable declared and `undefined`, and
/// raises `error.execution`.
extension ECMAScriptDatamodel {
    public func initialize(_ data: [SCXMLData]) throws {
        var failures: [String] = []
        for item in data {
            do {
                try initialize(item)
            } catch {
                try? engine.declare(item.id, expression: "undefined")
                failures.append("<data id=\"\(item.id)\">: \(error)")
            }
        }
        if !failures.isEmpty { throw SCXMLExecutionError(failures.joined(separator: "; ")) }
    }

    private func initialize(_ item: SCXMLData) throws {
        switch item.value {
        case nil:
            try engine.declare(item.id, expression: "undefined")
        case .expression(let expression)?:
            try engine.declare(item.id, expression: Self.expression(expression))
        case .inline(let content)?:
            try engine.declare(item.id, expression: try source(of: content))
        case .src(let uri)?:
            let source = try source(ofText: try loadResource(uri))
            do {
                try engine.declare(item.id, expression: source)
            } catch {
                throw error.namingSource("<data src=\"\(uri)\">")   // not the file's text
            }
        }
    }

    private func loadResource(_ uri: String) throws -> String {
        guard let services else { throw SCXMLExecutionError("the session has ended") }
        return try services.loadResource(uri)
    }

    public func declare(_ data: [SCXMLData]) throws {
        for item in data { try engine.declare(item.id, expression: "undefined") }
    }

    /// `<content>`'s text: JSON as its value, anything else as a space-normalized string
    /// (XML content reaches scripts through ``setEvent(_:)`` as a DOM instead).
    public func value(ofInline content: SCXMLInlineContent) throws -> DataValue {
        switch content {
        case .text(let text):
            return engine.parseJSON(text) ?? .string(SCXMLMarkup.normalizeSpace(text))
        case .markup(let markup), .document(_, let markup):
            return .string(markup)
        }
    }

    /// An expression producing the value of inline content.
    func source(of content: SCXMLInlineContent) throws -> String {
        switch content {
        case .text(let text):
            return try source(ofText: text)
        case .markup(let markup), .document(_, let markup):
            guard let tree = SCXMLMarkup.documentTree(of: markup) else {
                throw SCXMLExecutionError("the content is not well-formed XML")
            }
            return try domSource(tree)
        }
    }

    /// JSON, else XML, else a space-normalized string.
    func source(ofText text: String) throws -> String {
        if let value = engine.parseJSON(text) { return JavaScriptLiteral.source(value) }
        if let tree = SCXMLMarkup.documentTree(of: text) { return try domSource(tree) }
        return JavaScriptLiteral.source(.string(SCXMLMarkup.normalizeSpace(text)))
    }

    /// An expression building `tree` as a DOM document (installing the DOM prelude first).
    func domSource(_ tree: DataValue) throws -> String {
        try prepareDOM()
        return "\(ECMAScriptDOM.runtimeName).dom(\(JavaScriptLiteral.source(tree)))"
    }

    /// Runs the DOM prelude in this session's engine unless it has run already.
    func prepareDOM() throws(ScriptError) {
        guard !hasDOM else { return }
        do {
            try engine.executeOnce(script: ECMAScriptDOM.prelude)
        } catch {
            throw error.namingSource("the DOM prelude")   // not its text
        }
        hasDOM = true
    }
}

/// ECMAScript source text for data values.
enum JavaScriptLiteral {
    /// An expression evaluating to `value`.
    ///
    /// ```swift
    /// JavaScriptLiteral.source(.object(["a": .array([.number(1), .string("x")])]))   // {"a":[1,"x"]}
    /// ```
    static func source(_ value: DataValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
            return "\(number)"
        case .string(let text): return quoted(text)
        case .array(let items): return "[" + items.map(source).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { quoted($0) + ":" + source(members[$0]!) }.joined(separator: ",") + "}"
        }
    }

    /// A string literal: JSON's escapes plus U+2028 and U+2029, which end lines in ES5.
    static func quoted(_ text: String) -> String { DataValue.quote(text) }
}
