// A small Swift copy of the parsed XML, so that libxml2 stays inside LibXML2Reader.swift and the
// SCXML builder works on plain values.

/// An attribute as parsed (namespace declarations are not attributes here).
struct XMLAttribute: Sendable {
    var localName: String
    var prefix: String?
    var namespaceURI: String?
    var value: String

    var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }
}

/// A namespace declaration (`xmlns="..."` when `prefix` is `nil`, `xmlns:p="..."` otherwise).
struct XMLNamespaceDeclaration: Sendable, Equatable {
    var prefix: String?
    var uri: String
}

/// An element with its source position.
struct XMLElement: Sendable {
    var localName: String
    var prefix: String?
    var namespaceURI: String?
    var attributes: [XMLAttribute]
    var namespaceDeclarations: [XMLNamespaceDeclaration]
    var children: [XMLNode]
    var line: Int
    var column: Int

    var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }

    var elementChildren: [XMLElement] {
        children.compactMap { if case .element(let element) = $0 { return element } else { return nil } }
    }

    /// The concatenated text and CDATA children (comments and elements skipped).
    var text: String {
        var result = ""
        for child in children { if case .text(let text) = child { result += text } }
        return result
    }
}

/// A child node. CDATA sections are text; entity references never appear (they are errors).
enum XMLNode: Sendable {
    case element(XMLElement)
    case text(String)
    case comment(String)
    case processingInstruction(target: String, data: String)
}

/// In-scope namespace declarations, innermost last.
struct XMLNamespaceScope: Sendable {
    private(set) var bindings: [String?: String] = ["xml": "http://www.w3.org/XML/1998/namespace"]

    func entering(_ element: XMLElement) -> XMLNamespaceScope {
        var scope = self
        for declaration in element.namespaceDeclarations { scope.bindings[declaration.prefix] = declaration.uri }
        return scope
    }
}

/// Serializes XML children back to text.
enum XMLSerializer {
    /// The children of an element as an XML fragment. Each top-level element also declares every
    /// namespace in scope that it does not declare itself, so the fragment stands alone.
    static func serializeChildren(of element: XMLElement, scope: XMLNamespaceScope) -> String {
        var output = ""
        let inner = scope.entering(element)
        for child in element.children {
            switch child {
            case .element(let child):
                serialize(child, output: &output, extraDeclarations: missingDeclarations(for: child, in: inner))
            default:
                serialize(child, output: &output)
            }
        }
        return output
    }

    private static func missingDeclarations(
        for element: XMLElement, in scope: XMLNamespaceScope
    ) -> [XMLNamespaceDeclaration] {
        var result: [XMLNamespaceDeclaration] = []
        let declared = Set(element.namespaceDeclarations.map(\.prefix))
        let sorted = scope.bindings.sorted { ($0.key ?? "") < ($1.key ?? "") }
        for (prefix, uri) in sorted where prefix != "xml" && !declared.contains(prefix) {
            if prefix == nil && uri.isEmpty { continue }
            result.append(XMLNamespaceDeclaration(prefix: prefix, uri: uri))
        }
        return result
    }

    private static func serialize(
        _ element: XMLElement, output: inout String, extraDeclarations: [XMLNamespaceDeclaration]
    ) {
        output += "<" + element.qualifiedName
        for declaration in extraDeclarations + element.namespaceDeclarations {
            output += " xmlns" + (declaration.prefix.map { ":" + $0 } ?? "") + "=\"" + escapeAttribute(declaration.uri) + "\""
        }
        for attribute in element.attributes {
            output += " " + attribute.qualifiedName + "=\"" + escapeAttribute(attribute.value) + "\""
        }
        if element.children.isEmpty {
            output += "/>"
            return
        }
        output += ">"
        for child in element.children { serialize(child, output: &output) }
        output += "</" + element.qualifiedName + ">"
    }

    private static func serialize(_ node: XMLNode, output: inout String) {
        switch node {
        case .element(let element): serialize(element, output: &output, extraDeclarations: [])
        case .text(let text): output += escapeText(text)
        case .comment(let text): output += "<!--" + text + "-->"
        case .processingInstruction(let target, let data):
            output += "<?" + target + (data.isEmpty ? "" : " " + data) + "?>"
        }
    }

    static func escapeText(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    static func escapeAttribute(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
