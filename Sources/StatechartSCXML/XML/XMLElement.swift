// XML carried as data (inline content of <data>, <content>, <assign>) as a value tree, and the
// copy of a subtree of an `XMLTree` into one.

/// An attribute as parsed (namespace declarations are not attributes here).
struct XMLAttribute: Sendable {
    var localName: String
    var prefix: String?
    var namespaceURI: String?
    var value: String

    var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }
}

/// An element with its source position, as a value tree (for XML carried as data; the SCXML
/// builder reads ``XMLTree`` directly).
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
}

/// A child node. CDATA sections are text; entity references never appear (they are errors).
enum XMLNode: Sendable {
    case element(XMLElement)
    case text(String)
    case comment(String)
    case processingInstruction(target: String, data: String)
}

extension XMLTreeView {
    /// The subtree at `element` as a value tree.
    func element(_ element: Index) -> XMLElement {
        let record = nodes[Int(element)]
        var result = XMLElement(
            localName: localName(element), prefix: prefix(element), namespaceURI: namespaceURI(element),
            attributes: [], namespaceDeclarations: declarationsOf(element), children: [], line: Int(record.line),
            column: Int(record.column))
        for attribute in attributeRange(element) {
            let a = attributes[attribute]
            result.attributes.append(
                XMLAttribute(
                    localName: strings[Int(a.name)], prefix: string(a.prefix), namespaceURI: string(a.namespace),
                    value: attributeValue(attribute)))
        }
        var child = record.firstChild
        while child >= 0 {
            let node = nodes[Int(child)]
            switch node.kind {
            case .element: result.children.append(.element(self.element(child)))
            case .text, .cdata: result.children.append(.text(content(child)))
            case .comment: result.children.append(.comment(content(child)))
            case .processingInstruction:
                result.children.append(.processingInstruction(target: strings[Int(node.name)], data: content(child)))
            }
            child = node.nextSibling
        }
        return result
    }
}
