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
        if record.isASCIIBlank { return true }
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
}
