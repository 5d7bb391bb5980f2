/// A small XML element tree and its serializer: the one writer behind every SCXML export
/// (``ChartDefinition/scxml()`` here, `SCXMLDocument.scxml()` in StatechartSCXML), so escaping
/// and layout are decided in one place.
///
/// Elements whose children are elements and comments only are indented, one child a line;
/// an element with text keeps its content exactly as given (whitespace in text is data).
package struct XMLOutputElement: Sendable {
    /// A child of an element.
    package enum Node: Sendable {
        case element(XMLOutputElement)
        /// Character data, escaped when written.
        case text(String)
        /// Markup that is already XML (inline content kept as written), written as is.
        case markup(String)
        /// A comment, written `<!-- text -->`; `--`, which may not appear in one, is written `- -`.
        case comment(String)
    }

    package var name: String
    package var attributes: [(name: String, value: String)]
    package var children: [Node]

    package init(_ name: String, _ attributes: [(name: String, value: String)] = [], children: [Node] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// Adds `name="value"` when `value` is not `nil`.
    package mutating func attribute(_ name: String, _ value: String?) {
        if let value { attributes.append((name, value)) }
    }

    package mutating func append(_ element: XMLOutputElement) { children.append(.element(element)) }

    /// The element as a document: the XML declaration, the element, a final line break.
    package func document() -> String {
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        write(to: &output, depth: 0)
        return output
    }

    package func write(to output: inout String, depth: Int) {
        let indent = ExportIndentation.prefix(depth, unit: "  ")
        output += indent + "<" + name
        for (name, value) in attributes { output += " \(name)=\"\(Self.escapeAttribute(value))\"" }
        if children.isEmpty {
            output += "/>\n"
            return
        }
        output += ">"
        let hasCharacterData = children.contains { node in
            switch node {
            case .text, .markup: return true
            case .element, .comment: return false
            }
        }
        if hasCharacterData {
            // Inline: any whitespace added here would change the content.
            for child in children {
                switch child {
                case .text(let text): output += Self.escapeText(text)
                case .markup(let markup): output += markup
                case .comment(let text): output += "<!-- \(Self.commentText(text)) -->"
                case .element(let element):
                    var nested = ""
                    element.write(to: &nested, depth: 0)
                    output += nested.dropLast()     // its line break would be content
                }
            }
            output += "</\(name)>\n"
            return
        }
        output += "\n"
        for child in children {
            switch child {
            case .element(let element): element.write(to: &output, depth: depth + 1)
            case .comment(let text): output += indent + "  <!-- \(Self.commentText(text)) -->\n"
            case .text, .markup: break
            }
        }
        output += indent + "</\(name)>\n"
    }

    /// Attribute values: markup characters escaped, and tab, line feed and carriage return as
    /// character references, which survive the parser's attribute-value normalization.
    package static func escapeAttribute(_ value: String) -> String { escape(value, attribute: true) }

    /// Character data: `&`, `<`, `>` escaped, and a carriage return as a reference (a parser
    /// turns a literal one into a line feed).
    package static func escapeText(_ text: String) -> String { escape(text, attribute: false) }

    private static func escape(_ text: String, attribute: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\r": result += "&#13;"
            case "\"" where attribute: result += "&quot;"
            case "\t" where attribute: result += "&#9;"
            case "\n" where attribute: result += "&#10;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func commentText(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "-", result.last == "-" { result += " " }
            result.append(character)
        }
        return result
    }
}
