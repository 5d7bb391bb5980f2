// The parsed XML, held in flat arrays so that libxml2 stays inside LibXML2Reader.swift and the
// SCXML builder works on plain values without one allocation per node: a record per node,
// names interned once per document, and text and attribute values as byte ranges of one buffer
// (turned into strings only when the builder asks for them).

/// A parsed XML document: the root element and everything in it. Immutable once parsed (a class,
/// so that readers share its arrays without retaining them on every access).
final class XMLTree {
    /// A node's position in ``nodes``.
    typealias Index = Int32

    enum Kind: UInt8, Sendable {
        case element, text, cdata, comment, processingInstruction
    }

    /// One node. Names are indices into ``strings`` (-1 when absent); text, comments and
    /// processing-instruction data are byte ranges of ``bytes``.
    struct Node: Sendable {
        var kind: Kind
        /// An element's local name, a processing instruction's target.
        var name: Int32 = -1
        var prefix: Int32 = -1
        var namespace: Int32 = -1
        var parent: Index = -1
        var firstChild: Index = -1
        var lastChild: Index = -1
        var nextSibling: Index = -1
        var firstAttribute: Int32 = 0
        var attributeCount: Int32 = 0
        var firstDeclaration: Int32 = 0
        var declarationCount: Int32 = 0
        var textStart: Int32 = 0
        var textCount: Int32 = 0
        var line: Int32 = 0
        var column: Int32 = 0

        init(kind: Kind) { self.kind = kind }
    }

    /// An attribute (namespace declarations are not attributes here).
    struct Attribute: Sendable {
        var name: Int32
        var prefix: Int32
        var namespace: Int32
        var valueStart: Int32
        var valueCount: Int32
    }

    /// A namespace declaration (`xmlns="..."` when `prefix` is -1, `xmlns:p="..."` otherwise).
    struct Declaration: Sendable {
        var prefix: Int32
        var uri: Int32
    }

    /// The tree while it is being built. Its buffers are handed to the tree (or deallocated with
    /// ``deallocate()`` when no tree is made).
    struct Parts {
        var nodes: GrowableBuffer<Node>
        var attributes: GrowableBuffer<Attribute>
        var declarations = GrowableBuffer<Declaration>(capacity: 4)
        var strings: [String] = []
        var bytes: GrowableBuffer<UInt8>
        var scxmlNamespace: Int32 = -2

        /// Buffers sized for a document of `size` bytes.
        init(documentSize size: Int) {
            nodes = GrowableBuffer(capacity: max(size / 24, 16))
            attributes = GrowableBuffer(capacity: max(size / 40, 16))
            bytes = GrowableBuffer(capacity: max(size / 4, 64))
        }

        func deallocate() {
            nodes.deallocate()
            attributes.deallocate()
            declarations.deallocate()
            bytes.deallocate()
        }
    }

    /// Read access to the tree, valid while the tree lives: plain pointers, so readers copy it
    /// freely and reach any node without retaining anything.
    let view: XMLTreeView

    private let nodes: UnsafeMutableBufferPointer<Node>
    private let attributes: UnsafeMutableBufferPointer<Attribute>
    private let declarations: UnsafeMutableBufferPointer<Declaration>
    private let strings: UnsafeMutableBufferPointer<String>
    private let nameCodes: UnsafeMutableBufferPointer<SCXMLName>
    private let bytes: UnsafeMutableBufferPointer<UInt8>

    /// A tree owning the buffers of `parts`.
    init(_ parts: Parts) {
        func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
            _ = buffer.initialize(from: array)
            return UnsafeMutableBufferPointer(rebasing: buffer[0..<array.count])
        }
        nodes = parts.nodes.buffer
        attributes = parts.attributes.buffer
        declarations = parts.declarations.buffer
        strings = copy(parts.strings)
        nameCodes = copy(parts.strings.map(SCXMLName.init))
        bytes = parts.bytes.buffer
        view = XMLTreeView(
            nodes: UnsafeBufferPointer(nodes), attributes: UnsafeBufferPointer(attributes),
            declarations: UnsafeBufferPointer(declarations), strings: UnsafeBufferPointer(strings),
            nameCodes: UnsafeBufferPointer(nameCodes), bytes: UnsafeBufferPointer(bytes),
            scxmlNamespace: parts.scxmlNamespace)
    }

    deinit {
        _ = strings.deinitialize()
        strings.baseAddress?.deallocate()
        nameCodes.baseAddress?.deallocate()
        nodes.baseAddress?.deallocate()
        attributes.baseAddress?.deallocate()
        declarations.baseAddress?.deallocate()
        bytes.baseAddress?.deallocate()
    }
}

/// A growable buffer of plain values, appended to without the checks of `Array` and handed over
/// without copying. The owner deallocates it.
struct GrowableBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }
    /// The elements (the memory stays the buffer's).
    var buffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base + index) }
        nonmutating unsafeMutableAddress { base + index }
    }

    @inline(__always)
    private mutating func reserve(_ total: Int) {
        guard total > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < total { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { reserve(count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        reserve(count + elements.count)
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    mutating func append<S: Sequence<Element>>(contentsOf elements: S) {
        for element in elements { append(element) }
    }

    func deallocate() { base.deallocate() }
}

/// Read access to an ``XMLTree`` (valid while the tree lives).
struct XMLTreeView {
    typealias Index = XMLTree.Index
    typealias Kind = XMLTree.Kind

    let nodes: UnsafeBufferPointer<XMLTree.Node>
    let attributes: UnsafeBufferPointer<XMLTree.Attribute>
    let declarations: UnsafeBufferPointer<XMLTree.Declaration>
    /// Interned names, prefixes and namespace URIs.
    let strings: UnsafeBufferPointer<String>
    /// The SCXML name each of ``strings`` is, if any.
    let nameCodes: UnsafeBufferPointer<SCXMLName>
    /// Text and attribute values, UTF-8.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The index in ``strings`` of the SCXML namespace URI, -2 when the document never names it.
    let scxmlNamespace: Int32

    /// The element's local name as an SCXML name.
    @inline(__always)
    func code(_ node: Index) -> SCXMLName { nameCodes[Int(nodes[Int(node)].name)] }

    /// The attribute's local name as an SCXML name.
    @inline(__always)
    func attributeCode(_ attribute: Int) -> SCXMLName { nameCodes[Int(attributes[attribute].name)] }

    /// The root element (the first node), if any.
    var root: Index? { nodes.isEmpty ? nil : 0 }

    // MARK: - Names

    @inline(__always)
    func string(_ index: Int32) -> String? { index < 0 ? nil : strings[Int(index)] }

    @inline(__always)
    func localName(_ node: Index) -> String { strings[Int(nodes[Int(node)].name)] }

    @inline(__always)
    func prefix(_ node: Index) -> String? { string(nodes[Int(node)].prefix) }

    @inline(__always)
    func namespaceURI(_ node: Index) -> String? { string(nodes[Int(node)].namespace) }

    func qualifiedName(_ node: Index) -> String {
        let local = localName(node)
        return prefix(node).map { "\($0):\(local)" } ?? local
    }

    /// Whether the element is in the SCXML namespace.
    @inline(__always)
    func isSCXML(_ node: Index) -> Bool { nodes[Int(node)].namespace == scxmlNamespace }

    /// Whether the element has no namespace.
    @inline(__always)
    func hasNoNamespace(_ node: Index) -> Bool { nodes[Int(node)].namespace < 0 }

    @inline(__always)
    func line(_ node: Index) -> Int { Int(nodes[Int(node)].line) }

    @inline(__always)
    func column(_ node: Index) -> Int { Int(nodes[Int(node)].column) }

    // MARK: - Text

    /// The bytes `start..<start + count` as a string.
    func string(bytesAt start: Int32, count: Int32) -> String {
        if count == 0 { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(start + count)]), as: UTF8.self)
    }

    /// A text, CDATA or comment node's text, a processing instruction's data.
    func content(_ node: Index) -> String {
        let record = nodes[Int(node)]
        return string(bytesAt: record.textStart, count: record.textCount)
    }

    /// Whether a text node holds only whitespace (`Character.isWhitespace`).
    func isBlank(_ node: Index) -> Bool {
        let record = nodes[Int(node)]
        var index = Int(record.textStart)
        let end = index + Int(record.textCount)
        while index < end {
            let byte = bytes[index]
            if byte >= 0x80 { return content(node).isBlank }
            if !isASCIIWhitespace(byte) { return false }
            index += 1
        }
        return true
    }

    /// Whether the node is text or CDATA.
    @inline(__always)
    func isText(_ node: Index) -> Bool {
        let kind = nodes[Int(node)].kind
        return kind == .text || kind == .cdata
    }

    /// The concatenated text and CDATA children of an element (comments and elements skipped).
    func text(_ element: Index) -> String {
        var child = nodes[Int(element)].firstChild
        var result = ""
        while child >= 0 {
            if isText(child) { result += content(child) }
            child = nodes[Int(child)].nextSibling
        }
        return result
    }

    /// Whether the element's text and CDATA children are all whitespace.
    func isTextBlank(_ element: Index) -> Bool {
        var child = nodes[Int(element)].firstChild
        var ascii = true
        while child >= 0 {
            if isText(child) {
                let record = nodes[Int(child)]
                var index = Int(record.textStart)
                let end = index + Int(record.textCount)
                while index < end {
                    let byte = bytes[index]
                    if byte >= 0x80 {
                        ascii = false
                    } else if !isASCIIWhitespace(byte) {
                        return false
                    }
                    index += 1
                }
            }
            child = nodes[Int(child)].nextSibling
        }
        // Non-ASCII text: whitespace is decided on the whole text, as Character.isWhitespace does.
        return ascii || text(element).isBlank
    }

    /// Whether the element has element children.
    func hasElementChildren(_ element: Index) -> Bool {
        var child = nodes[Int(element)].firstChild
        while child >= 0 {
            if nodes[Int(child)].kind == .element { return true }
            child = nodes[Int(child)].nextSibling
        }
        return false
    }

    /// The element children, in order.
    func elementChildren(_ element: Index) -> [Index] {
        var result: [Index] = []
        var child = nodes[Int(element)].firstChild
        while child >= 0 {
            if nodes[Int(child)].kind == .element { result.append(child) }
            child = nodes[Int(child)].nextSibling
        }
        return result
    }

    // MARK: - Attributes

    /// The attributes of `element`, as indices into ``attributes``.
    @inline(__always)
    func attributeRange(_ element: Index) -> Range<Int> {
        let record = nodes[Int(element)]
        return Int(record.firstAttribute)..<Int(record.firstAttribute + record.attributeCount)
    }

    func attributeValue(_ attribute: Int) -> String {
        let record = attributes[attribute]
        return string(bytesAt: record.valueStart, count: record.valueCount)
    }

    func attributeQualifiedName(_ attribute: Int) -> String {
        let record = attributes[attribute]
        let local = strings[Int(record.name)]
        return string(record.prefix).map { "\($0):\(local)" } ?? local
    }

    /// The value of the element's attribute `name` without a namespace.
    func attribute(_ name: String, of element: Index) -> String? {
        for attribute in attributeRange(element) {
            let record = attributes[attribute]
            if record.namespace < 0 && strings[Int(record.name)] == name { return attributeValue(attribute) }
        }
        return nil
    }

    // MARK: - Namespaces

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

    // MARK: - Value copies

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

/// In-scope namespace declarations.
struct XMLNamespaceScope: Sendable {
    var bindings: [String?: String] = ["xml": "http://www.w3.org/XML/1998/namespace"]
}

/// Serializes XML children back to text.
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
            output += " xmlns" + (declaration.prefix.map { ":" + $0 } ?? "") + "=\"" + escapeAttribute(declaration.uri) + "\""
        }
        for attribute in tree.attributeRange(element) {
            output += " " + tree.attributeQualifiedName(attribute) + "=\"" + escapeAttribute(tree.attributeValue(attribute)) + "\""
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
        case .text, .cdata: output += escapeText(tree.content(node))
        case .comment: output += "<!--" + tree.content(node) + "-->"
        case .processingInstruction:
            let data = tree.content(node)
            output += "<?" + tree.strings[Int(record.name)] + (data.isEmpty ? "" : " " + data) + "?>"
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
