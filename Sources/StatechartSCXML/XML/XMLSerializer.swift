import Statechart

/// Serializes XML children back to text, escaping as the package's XML writer does
/// (`XMLOutputElement`, which the exports use).
enum XMLSerializer {
    /// The children of an element as an XML fragment. Each top-level element also declares every
    /// namespace in scope that it does not declare itself, so the fragment stands alone.
    static func serializeChildren(of element: XMLTree.Index, in tree: XMLTreeView) -> String {
        var output = ""
        let inner = tree.scope(of: element)
        var child = tree.nodes[Int(element)].firstChild
        while child >= 0 {
            if tree.nodes[Int(child)].kind == .element {
                serialize(child, in: tree, output: &output, extraDeclarations: missingDeclarations(for: child, in: inner, tree: tree))
            } else {
                serializeLeaf(child, in: tree, output: &output)
            }
            child = tree.nodes[Int(child)].nextSibling
        }
        return output
    }

    private static func missingDeclarations(
        for element: XMLTree.Index, in scope: XMLNamespaceScope, tree: XMLTreeView
    ) -> [XMLNamespaceDeclaration] {
        var result: [XMLNamespaceDeclaration] = []
        let declared = Set(tree.declarationsOf(element).map(\.prefix))
        let sorted = scope.bindings.sorted { ($0.key ?? "") < ($1.key ?? "") }
        for (prefix, uri) in sorted where prefix != "xml" && !declared.contains(prefix) {
            if prefix == nil && uri.isEmpty { continue }
            result.append(XMLNamespaceDeclaration(prefix: prefix, uri: uri))
        }
        return result
    }

    private static func serialize(
        _ element: XMLTree.Index, in tree: XMLTreeView, output: inout String, extraDeclarations: [XMLNamespaceDeclaration]
    ) {
        let name = tree.qualifiedName(element)
        output += "<" + name
        for declaration in extraDeclarations + tree.declarationsOf(element) {
            output += " xmlns" + (declaration.prefix.map { ":" + $0 } ?? "") + "=\"" + XMLOutputElement.escapeAttribute(declaration.uri) + "\""
        }
        for attribute in tree.attributeRange(element) {
            output += " " + tree.attributeQualifiedName(attribute) + "=\"" + XMLOutputElement.escapeAttribute(tree.attributeValue(attribute)) + "\""
        }
        var child = tree.nodes[Int(element)].firstChild
        if child < 0 {
            output += "/>"
            return
        }
        output += ">"
        while child >= 0 {
            if tree.nodes[Int(child)].kind == .element {
                serialize(child, in: tree, output: &output, extraDeclarations: [])
            } else {
                serializeLeaf(child, in: tree, output: &output)
            }
            child = tree.nodes[Int(child)].nextSibling
        }
        output += "</" + name + ">"
    }

    private static func serializeLeaf(_ node: XMLTree.Index, in tree: XMLTreeView, output: inout String) {
        let record = tree.nodes[Int(node)]
        switch record.kind {
        case .element: break
        case .text, .cdata: output += XMLOutputElement.escapeText(tree.content(node))
        case .comment: output += "<!--" + tree.content(node) + "-->"
        case .processingInstruction:
            let data = tree.content(node)
            output += "<?" + tree.strings[Int(record.name)] + (data.isEmpty ? "" : " " + data) + "?>"
        }
    }
}
