import Foundation
import Statechart

/// The null datamodel (SCXML B.1): no data, and conditions are the `In(id)` predicate.
///
/// As an extension for firmware charts, conditions may combine `In()` with `!`, `&&`, `||`,
/// parentheses, `true` and `false` (`In('closed') && !In('paused')`, see `NullCondition`);
/// plain `In('id')` means what the spec says.
///
/// As an extension for host integration, conditions and `expr`-style attributes may also call
/// a host function registered on the machine, with literal arguments (`isReady()`,
/// `quota('disk', 3)`), and value attributes may be literals (`'text'`, `3`, `true`).
/// Everything else (`<assign>`, `<script>`, `<foreach>`, `<data>`, locations) is rejected when
/// the document is loaded. `<invoke>` works with a literal `type` and `src`, or inline
/// `<content>`; a `<log expr>` that is not an expression logs its text (with a load warning).
public final class NullDatamodel: SCXMLDatamodel {
    public static let names = ["null"]
    private unowned let services: SCXMLSessionServices
    /// The services as the runtime's own session, which answers `In()` by state index. Not
    /// retained per use: sessions are weakly referenced elsewhere, which makes every retain
    /// of one take the slow path of a side table; the session owns this datamodel.
    private let session: Unmanaged<SCXMLSession>?

    /// An expression as it is evaluated: parsed once, with `In(id)` resolved to the state's
    /// index when the session can answer by index.
    private enum Compiled {
        case parsed(NullExpression)
        case inState(index: Int)
        case never      // In() of an id that names no state
    }
    /// Compiled expressions by their text: a document evaluates the same few conditions over
    /// and over.
    @exclusivity(unchecked) private var compiled = ExpressionCache<Compiled>()   // used with the machine held

    public init(services: SCXMLSessionServices) throws {
        self.services = services
        self.session = (services as? SCXMLSession).map { Unmanaged.passUnretained($0) }
    }

    public static func check(_ document: SCXMLDocument) -> [SCXMLDiagnostic] {
        var problems: [SCXMLDiagnostic] = []
        // What would make it run: a document that declares no datamodel gets the default one,
        // which the loader can change.
        let undeclared = "declare datamodel=\"ecmascript\" on <scxml>, or load it with --datamodel ecmascript "
            + "(SCXMLMachine.Options.defaultDatamodel): the document declares no datamodel, so it got the null one"
        let remedy = document.datamodel == nil ? undeclared : "declare datamodel=\"ecmascript\" on <scxml>"
        let expressionRemedy = document.datamodel == nil ? undeclared : "declare datamodel=\"ecmascript\""
        func reject(_ location: SCXMLSourceLocation, _ element: String, _ what: String) {
            problems.append(SCXMLDiagnostic(location: location, element: element,
                message: "\(what) is not supported by the null datamodel; \(remedy)"))
        }
        func expression(_ text: String?, _ location: SCXMLSourceLocation, _ element: String, _ attribute: String) {
            guard let text, NullExpression(text) == nil else { return }
            problems.append(SCXMLDiagnostic(location: location, element: element,
                message: "\(attribute)=\"\(text)\" is not a null-datamodel expression; use In('state') (combined with !, &&, ||, parentheses, true, false), a host function call or a literal, or \(expressionRemedy)"))
        }
        func source(_ value: SCXMLValueSource?, _ location: SCXMLSourceLocation, _ element: String, _ attribute: String) {
            if case .expression(let text)? = value { expression(text, location, element, attribute + "expr") }
        }
        // The parts of a <send> and an <invoke> that read or write data.
        func dataParts(_ id: SCXMLIDSource?, _ namelist: [String], _ params: [SCXMLParam], _ content: SCXMLContent?,
                       _ location: SCXMLSourceLocation, _ element: String) {
            if case .location? = id { reject(location, element, "idlocation") }
            if !namelist.isEmpty { reject(location, element, "namelist") }
            if !params.isEmpty { reject(location, element, "<param>") }
            if case .expression? = content?.value { reject(location, "content", "<content expr>") }
        }
        SCXMLDocumentWalker.visit(document) { item in
            switch item {
            case .data(let data):
                reject(data.sourceLocation, "data", "<data>")
            case .script(let script):
                reject(script.sourceLocation, "script", "<script>")
            case .condition(let cond, let location, let element):
                expression(cond, location, element, "cond")
            case .executable(let executable):
                switch executable {
                case .assign(let node): reject(node.sourceLocation, "assign", "<assign>")
                case .foreach(let node): reject(node.sourceLocation, "foreach", "<foreach>")
                case .script(let node): reject(node.sourceLocation, "script", "<script>")
                case .log(let node):
                    // Qt and uSCXML log such text as it is: so does logMessage(_:) below.
                    if let text = node.expr, NullExpression(text) == nil {
                        problems.append(SCXMLDiagnostic(location: node.sourceLocation, element: "log",
                            message: "<log expr=\"\(text)\"> is not a null-datamodel expression; it is logged as the text itself, as Qt and uSCXML do (write expr=\"'...'\" to say so)",
                            severity: .warning))
                    }
                case .cancel(let node): source(node.sendID, node.sourceLocation, "cancel", "sendid")
                case .send(let node):
                    source(node.event, node.sourceLocation, "send", "event")
                    source(node.target, node.sourceLocation, "send", "target")
                    source(node.type, node.sourceLocation, "send", "type")
                    source(node.delay, node.sourceLocation, "send", "delay")
                    dataParts(node.id, node.namelist, node.params, node.content, node.sourceLocation, "send")
                case .raise, .if: break
                }
            case .doneData(let done):
                if !done.params.isEmpty { reject(done.sourceLocation, "donedata", "<param>") }
                if case .expression? = done.content?.value { reject(done.sourceLocation, "content", "<content expr>") }
            case .invoke(let invoke):
                // An invoke with a literal type and src, or inline <content>, needs no
                // expressions: only the parts that read or write data are refused.
                source(invoke.type, invoke.sourceLocation, "invoke", "type")
                source(invoke.src, invoke.sourceLocation, "invoke", "src")
                dataParts(invoke.id, invoke.namelist, invoke.params, invoke.content, invoke.sourceLocation, "invoke")
            }
        }
        return problems
    }

    /// The text of `<log expr>`: the expression's value, or, for text that is no null-datamodel
    /// expression (`expr="Door opened"`), the text itself, as Qt and uSCXML log it (``check(_:)``
    /// warns of it when the document is loaded).
    public func logMessage(_ expression: String) throws -> String {
        guard NullExpression(expression) != nil else { return expression }
        return try evaluateString(expression)
    }

    public func initialize(_ data: [SCXMLData]) throws {
        if let first = data.first { throw SCXMLExecutionError("the null datamodel has no data ('\(first.id)')") }
    }

    public func runScript(_ script: SCXMLScript) throws {
        throw SCXMLExecutionError("the null datamodel cannot run <script>")
    }

    public func setEvent(_ event: SCXMLEvent) {}

    public func evaluateCondition(_ expression: String) throws -> Bool {
        switch try evaluate(expression) {
        case .bool(let value): return value
        case .null: return false
        case .number(let n): return n != 0
        case .string(let s): return !s.isEmpty
        case .array, .object: return true
        }
    }

    public func evaluate(_ expression: String) throws -> DataValue {
        let parsed: NullExpression
        switch try compile(expression) {
        case .inState(let index):
            return .bool(session?._withUnsafeGuaranteedRef { $0.isActive(stateIndex: index) } ?? false)
        case .never: return .bool(false)
        case .parsed(let expression): parsed = expression
        }
        switch parsed {
        case .literal(let value):
            return value
        case .condition(let condition):
            return .bool(condition.evaluate { services.isActive($0) })
        case .call(let name, let arguments):
            if name == "In" {
                guard arguments.count == 1, case .string(let id) = arguments[0] else {
                    throw SCXMLExecutionError("In() takes one state id")
                }
                return .bool(services.isActive(id))
            }
            guard let function = services.hostFunctions[name] else {
                throw SCXMLExecutionError("no host function named '\(name)' is registered")
            }
            do {
                return try function(arguments)
            } catch {
                throw SCXMLExecutionError("host function '\(name)' failed: \(error)")
            }
        }
    }

    private func compile(_ expression: String) throws -> Compiled {
        if let known = compiled[expression] { return known }
        guard let parsed = NullExpression(expression) else {
            throw SCXMLExecutionError("'\(expression)' is not a null-datamodel expression")
        }
        var result = Compiled.parsed(parsed)
        if case .call("In", let arguments) = parsed, arguments.count == 1, case .string(let id) = arguments[0],
           let session = session?.takeUnretainedValue() {
            result = session.stateIndex(of: id).map { .inState(index: $0) } ?? .never
        }
        compiled[expression] = result
        return result
    }

    public func assign(_ location: String, _ value: SCXMLAssign.Value?) throws {
        throw SCXMLExecutionError("the null datamodel has no locations ('\(location)')")
    }

    public func store(_ value: DataValue, at location: String) throws {
        throw SCXMLExecutionError("the null datamodel has no locations ('\(location)')")
    }

    public func items(of arrayExpression: String) throws -> [DataValue] {
        throw SCXMLExecutionError("the null datamodel has no arrays")
    }

    public func value(at location: String) throws -> DataValue {
        throw SCXMLExecutionError("the null datamodel has no locations ('\(location)')")
    }

    public func value(ofInline content: SCXMLInlineContent) throws -> DataValue {
        .string(content.rawText)
    }
}

/// The tiny expression language of the null datamodel: a literal, or a call with literal
/// arguments, where a bare identifier argument is taken as a string (`In(s1)` = `In('s1')`), or
/// (the extension) `In()` conditions combined with `!`, `&&`, `||` and parentheses.
package enum NullExpression: Equatable {
    case literal(DataValue)
    case call(String, [DataValue])
    /// A combination of `In()`s (the forms above are tried first, so `In('a')` alone is a call).
    case condition(NullCondition)

    package init?(_ text: String) {
        if let simple = Self.simple(text) {
            self = simple
        } else if let condition = NullCondition(text) {
            self = .condition(condition)
        } else {
            return nil
        }
    }

    /// The condition this expression stands for when its value is known without host functions:
    /// `In()` and its combinations, and literals by their truth (`null`, `0`, `''` are false).
    /// `nil` for a host function call.
    package var staticCondition: NullCondition? {
        switch self {
        case .condition(let condition): return condition
        case .call("In", let arguments):
            guard arguments.count == 1, case .string(let id) = arguments[0] else { return nil }
            return .inState(id)
        case .call: return nil
        case .literal(let value):
            switch value {
            case .bool(let b): return .constant(b)
            case .null: return .constant(false)
            case .number(let n): return .constant(n != 0)
            case .string(let s): return .constant(!s.isEmpty)
            case .array, .object: return .constant(true)
            }
        }
    }

    private static func simple(_ text: String) -> NullExpression? {
        if let call = Self.quotedCall(text) {
            return call
        }
        let trimmed = Self.trimmed(text[...], newlines: true)
        if let value = Self.literal(trimmed) {
            return .literal(value)
        }
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else { return nil }
        let name = Self.trimmed(trimmed[..<open], newlines: false)
        guard Self.isIdentifier(name) else { return nil }
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        var arguments: [DataValue] = []
        for part in Self.splitArguments(String(inner)) {
            let argument = Self.trimmed(part[...], newlines: false)
            if argument.isEmpty { continue }
            if let value = Self.literal(argument) {
                arguments.append(value)
            } else if Self.isIdentifier(argument) {
                arguments.append(.string(argument))
            } else {
                return nil
            }
        }
        return .call(name, arguments)
    }

    /// `Name('text')` or `Name("text")`, all ASCII, no whitespace outside the quotes (the usual
    /// condition, `In('s1')`): read byte by byte, with the result the general parse gives.
    private static func quotedCall(_ text: String) -> NullExpression? {
        let parsed: (name: String, argument: String)?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
            guard let first = bytes.first, isLetter(first) || first == UInt8(ascii: "_") else { return nil }
            var index = 1
            while index < bytes.count {
                let b = bytes[index]
                guard isLetter(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
                    || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
                else { break }
                index += 1
            }
            let nameEnd = index
            guard bytes.count - nameEnd >= 4, bytes[nameEnd] == UInt8(ascii: "("), bytes[bytes.count - 1] == UInt8(ascii: ")")
            else { return nil }
            let quote = bytes[nameEnd + 1]
            guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\""), bytes[bytes.count - 2] == quote else { return nil }
            for b in bytes[(nameEnd + 2)..<(bytes.count - 2)]
            where b < 0x20 || b > 0x7E || b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") {
                return nil
            }
            return (String(decoding: bytes[..<nameEnd], as: UTF8.self),
                    String(decoding: bytes[(nameEnd + 2)..<(bytes.count - 2)], as: UTF8.self))
        }
        guard let parsed = parsed ?? nil else { return nil }
        return .call(parsed.name, [.string(parsed.argument)])
    }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)` (or `.whitespaces`), without Foundation
    /// when the text starts and ends with ASCII characters outside the set (nothing to trim).
    private static func trimmed(_ text: Substring, newlines: Bool) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, first < 0x80, last < 0x80 {
            func trims(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || (newlines && byte >= 0x0A && byte <= 0x0D) }
            if !trims(first) && !trims(last) { return String(text) }
        }
        return text.trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }
    }

    private static func literal(_ text: String) -> DataValue? {
        if text.count >= 2, let q = text.first, q == "'" || q == "\"", text.last == q {
            let body = text.dropFirst().dropLast()
            return body.contains(q) ? nil : .string(String(body))
        }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: return Double(text).map { .number($0) }
        }
    }

    private static func splitArguments(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for ch in text {
            if let q = quote {
                if ch == q { quote = nil }
                current.append(ch)
            } else if ch == "'" || ch == "\"" {
                quote = ch
                current.append(ch)
            } else if ch == "," {
                parts.append(current)
                current = ""
            } else {
                current.append(ch)
            }
        }
        parts.append(current)
        return parts
    }
}
