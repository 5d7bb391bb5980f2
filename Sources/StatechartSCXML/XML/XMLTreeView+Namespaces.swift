// Namespace declarations and the bindings in scope, for serializing inline content.

extension XMLTreeView {
    /// The namespace declarations of an element, in document order.
    func declarationsOf(_ element: Index) -> [XMLNamespaceDeclaration] {
        let record = nodes[Int(element)]
        var result: [XMLNamespaceDeclaration] = []
        for index in Int(record.firstDeclaration)..<Int(record.firstDeclaration + record.declarationCount) {
            let declaration = declarations[index]
            result.append(XMLNamespaceDeclaration(prefix: string(declaration.prefix), uri: strings[Int(declaration.uri)]))
        }
        return result
    }

    /// The namespace bindings in scope inside `element` (its own declarations included).
    func scope(of element: Index) -> XMLNamespaceScope {
        var chain: [Index] = []
        var current = element
        while current >= 0 {
            chain.append(current)
            current = nodes[Int(current)].parent
        }
        var scope = XMLNamespaceScope()
        for ancestor in chain.reversed() {
            for declaration in declarationsOf(ancestor) { scope.bindings[declaration.prefix] = declaration.uri }
        }
        return scope
    }
}

/// A namespace declaration (`xmlns="..."` when `prefix` is `nil`, `xmlns:p="..."` otherwise).
struct XMLNamespaceDeclaration: Sendable, Equatable {
    var prefix: String?
    var uri: String
}

/// In-scope namespace declarations.
struct XMLNamespaceScope: Sendable {
    var bindings: [String?: String] = ["xml": "http://www.w3.org/XML/1998/namespace"]
}
