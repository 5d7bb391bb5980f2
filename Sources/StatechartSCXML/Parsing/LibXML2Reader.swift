import CLibXML2
import Foundation

// The only file that touches libxml2. libxml2 parses the document and reports it through SAX2
// callbacks, which write it straight into an `XMLTree` (no libxml2 tree is built or freed); its
// errors become diagnostics.
//
// The tree is exactly the one libxml2's own SAX2 tree builder would build (xmlSAX2StartElementNs
// and friends in libxml2 2.9): adjacent character data is one text node and adjacent CDATA
// sections one CDATA node; namespace declarations keep their order and `xmlns:xml` is dropped;
// attributes defaulted from a DTD are left out; in attribute values holding references, libxml2
// leaves `&#38;` for every `&` (decoded here, as its xmlStringLenGetNodeList would); a non-NCName
// `xml:id` and an over-long text node are reported as the tree builder reports them.
//
// Safety: XML_PARSE_NONET forbids network access; XML_PARSE_NOENT and XML_PARSE_DTDLOAD are not set,
// so entities are never substituted and no external DTD or entity is loaded; XML_PARSE_HUGE is not
// set, so libxml2 keeps its own size and depth limits. Entity declarations are refused outright
// (SourceScanner already rejects them; the SAX hook below is a second line of defence).
//
// Thread safety: every parse has its own parser context and SAX state. Errors go to a structured
// handler stored in that context's SAX block, and the thread-local handler libxml2 falls back on
// for errors without a parser context is swapped in and restored around the parse, so nothing is
// printed to stderr and parses on other threads are not affected.

private let libxml2Initialized: Bool = {
    xmlInitParser()
    return true
}()

/// libxml2's limit on a text node built without XML_PARSE_HUGE (XML_MAX_TEXT_LENGTH).
private let maximumTextLength = 10_000_000

/// Libxml2's interned strings (names, prefixes, namespace URIs live in the parser's dictionary or
/// in its namespace table) by address, so each distinct one is converted once per document.
private struct PointerTable {
    private var keys: [UInt]
    private var values: [Int32]
    private var mask: Int
    private var count = 0

    init() {
        keys = Array(repeating: 0, count: 64)
        values = Array(repeating: 0, count: 64)
        mask = 63
    }

    @inline(__always)
    private func slot(_ key: UInt) -> Int { Int(truncatingIfNeeded: (key >> 3) &* 0x9E37_79B9_7F4A_7C15 >> 40) & mask }

    func find(_ key: UInt) -> Int32? {
        var index = slot(key)
        while true {
            let candidate = keys[index]
            if candidate == key { return values[index] }
            if candidate == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    mutating func insert(_ key: UInt, _ value: Int32) {
        if (count + 1) * 2 > keys.count { grow() }
        var index = slot(key)
        while keys[index] != 0 { index = (index + 1) & mask }
        keys[index] = key
        values[index] = value
        count += 1
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        mask = keys.count - 1
        count = 0
        for (index, key) in oldKeys.enumerated() where key != 0 { insert(key, oldValues[index]) }
    }
}

/// Everything one parse collects: the tree being built and libxml2's errors.
private struct SAXState {
    struct ErrorEntry {
        var line: Int
        var column: Int
        var message: String
    }

    var tree = XMLTree.Parts()
    /// The element being parsed, -1 outside the root.
    var current: XMLTree.Index = -1
    var errors: [ErrorEntry] = []
    var entityDeclaration: (name: String, line: Int, column: Int)?
    /// Entity references left in the tree (by the element holding them, and the entity's name).
    var unresolvedEntities: [(element: XMLTree.Index, name: String)] = []
    /// After a fatal error libxml2 stops building the document but keeps scanning, and what it
    /// reports then is mostly a consequence of the first error ("Premature end of data"), so only
    /// errors up to the first fatal one are kept.
    var sawFatalError = false

    let source: SourceText
    let tags: [SourceScanner.Tag]
    var nextTag = 0
    private var pointers = PointerTable()
    private var stringIndex: [String: Int32] = [:]

    init(source: SourceText, tags: [SourceScanner.Tag]) {
        self.source = source
        self.tags = tags
        tree.nodes.reserveCapacity(tags.count * 2 + 1)
    }

    mutating func record(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, !sawFatalError else { return }  // warnings are not errors
        if error.level.rawValue >= XML_ERR_FATAL.rawValue { sawFatalError = true }
        record(line: Int(error.line), column: Int(error.int2), message: error.message.map { String(cString: $0) } ?? "unknown XML error")
    }

    mutating func record(line: Int, column: Int, message: String) {
        var message = message
        while let last = message.last, last.isWhitespace { message.removeLast() }
        errors.append(ErrorEntry(line: line, column: column, message: message))
    }

    // MARK: - Strings

    /// The index in the tree's strings of the NUL-terminated string at `pointer`.
    @inline(__always)
    mutating func intern(_ pointer: UnsafePointer<xmlChar>) -> Int32 {
        let key = UInt(bitPattern: pointer)
        if let known = pointers.find(key) { return known }
        let value = String(cString: pointer)
        let index: Int32
        if let existing = stringIndex[value] {
            index = existing
        } else {
            index = Int32(tree.strings.count)
            tree.strings.append(value)
            stringIndex[value] = index
            if value == SCXMLDocument.namespace { tree.scxmlNamespace = index }
        }
        pointers.insert(key, index)
        return index
    }

    @inline(__always)
    mutating func intern(optional pointer: UnsafePointer<xmlChar>?) -> Int32 {
        guard let pointer else { return -1 }
        return intern(pointer)
    }

    // MARK: - Building

    private mutating func append(_ node: XMLTree.Node) -> XMLTree.Index {
        var node = node
        let index = XMLTree.Index(tree.nodes.count)
        node.parent = current
        if current >= 0 {
            let parent = Int(current)
            let last = tree.nodes[parent].lastChild
            if last >= 0 { tree.nodes[Int(last)].nextSibling = index } else { tree.nodes[parent].firstChild = index }
            tree.nodes[parent].lastChild = index
        }
        tree.nodes.append(node)
        return index
    }

    /// Whether the scanner's next start tag is `prefix:local` (or `local`).
    private func tagMatches(_ tag: SourceScanner.Tag, prefix: UnsafePointer<xmlChar>?, local: UnsafePointer<xmlChar>) -> Bool {
        source.bytes.withUnsafeBufferPointer { bytes in
            var index = Int(tag.nameStart)
            let end = index + Int(tag.nameCount)
            if source.isSingleByte && bytes[index..<end].contains(where: { $0 >= 0x80 }) {
                // Bytes are characters (ISO-8859-1 and the like), libxml2's names UTF-8.
                var scalars = String.UnicodeScalarView()
                for byte in bytes[index..<end] { scalars.append(Unicode.Scalar(byte)) }
                let local = String(cString: local)
                return String(scalars) == (prefix.map { String(cString: $0) + ":" + local } ?? local)
            }
            func consume(_ text: UnsafePointer<xmlChar>) -> Bool {
                var pointer = text
                while pointer.pointee != 0 {
                    guard index < end, bytes[index] == pointer.pointee else { return false }
                    index += 1
                    pointer += 1
                }
                return true
            }
            if let prefix {
                guard consume(prefix), index < end, bytes[index] == UInt8(ascii: ":") else { return false }
                index += 1
            }
            return consume(local) && index == end
        }
    }

    mutating func startElement(
        _ context: xmlParserCtxtPtr, localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
        uri: UnsafePointer<xmlChar>?, namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        var node = XMLTree.Node(kind: .element)
        node.name = intern(localName)
        node.prefix = intern(optional: prefix)
        node.namespace = intern(optional: uri)
        let inputLine = Int32(truncatingIfNeeded: context.pointee.input?.pointee.line ?? 0)
        node.line = inputLine
        node.column = 1
        if nextTag < tags.count, tagMatches(tags[nextTag], prefix: prefix, local: localName) {
            node.line = tags[nextTag].line
            node.column = tags[nextTag].column
        }
        nextTag += 1

        node.firstDeclaration = Int32(tree.declarations.count)
        if let namespaces {
            for index in 0..<namespaceCount {
                let declaredPrefix = namespaces[2 * index]
                // xmlNewNs refuses to declare the predefined "xml" prefix.
                if let declaredPrefix, isName(declaredPrefix, "xml") { continue }
                let declaredURI = namespaces[2 * index + 1]
                tree.declarations.append(
                    XMLTree.Declaration(
                        prefix: intern(optional: declaredPrefix),
                        uri: declaredURI.map { intern($0) } ?? emptyString()))
            }
        }
        node.declarationCount = Int32(tree.declarations.count) - node.firstDeclaration

        let index = append(node)
        current = index

        tree.nodes[Int(index)].firstAttribute = Int32(tree.attributes.count)
        if let attributes {
            for attribute in 0..<attributeCount {
                let base = 5 * attribute
                guard let name = attributes[base], let value = attributes[base + 3], let end = attributes[base + 4] else {
                    continue
                }
                let attributePrefix = attributes[base + 1]
                let attributeURI = attributes[base + 2]
                var record = XMLTree.Attribute(
                    name: intern(name), prefix: intern(optional: attributePrefix),
                    namespace: intern(optional: attributeURI), valueStart: Int32(tree.bytes.count), valueCount: 0)
                if attributePrefix != nil && attributeURI == nil {
                    // An undefined prefix (already an error): the tree builder names the attribute
                    // "prefix:name" without a namespace.
                    record.name = internQualified(attributePrefix!, name)
                    record.prefix = -1
                }
                let length = end - value
                let raw = UnsafeBufferPointer(start: value, count: length)
                if end.pointee == 0, raw.contains(UInt8(ascii: "&")) {
                    appendDecodedValue(raw, element: index)
                } else {
                    tree.bytes.append(contentsOf: raw)
                }
                record.valueCount = Int32(tree.bytes.count) - record.valueStart
                tree.attributes.append(record)
                if let attributePrefix, isName(attributePrefix, "xml"), isName(name, "id") {
                    checkXMLID(context, UnsafeBufferPointer(start: value, count: length))
                }
            }
        }
        tree.nodes[Int(index)].attributeCount = Int32(tree.attributes.count) - tree.nodes[Int(index)].firstAttribute
    }

    private mutating func emptyString() -> Int32 {
        if let index = stringIndex[""] { return index }
        let index = Int32(tree.strings.count)
        tree.strings.append("")
        stringIndex[""] = index
        return index
    }

    private mutating func internQualified(_ prefix: UnsafePointer<xmlChar>, _ name: UnsafePointer<xmlChar>) -> Int32 {
        let value = String(cString: prefix) + ":" + String(cString: name)
        if let index = stringIndex[value] { return index }
        let index = Int32(tree.strings.count)
        tree.strings.append(value)
        stringIndex[value] = index
        return index
    }

    /// A value libxml2 copied because it held references: every `&` it kept starts `&#38;`
    /// (an escaped ampersand); any other reference names an undeclared entity and is dropped.
    private mutating func appendDecodedValue(_ raw: UnsafeBufferPointer<UInt8>, element: XMLTree.Index) {
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "&") else {
                tree.bytes.append(byte)
                index += 1
                continue
            }
            var end = index + 1
            while end < raw.count && raw[end] != UInt8(ascii: ";") { end += 1 }
            let name = raw[(index + 1)..<min(end, raw.count)]
            if name.elementsEqual("#38".utf8) {
                tree.bytes.append(UInt8(ascii: "&"))
            } else if name.first == UInt8(ascii: "#") {
                if let scalar = Self.characterReference(name.dropFirst()) { tree.bytes.append(contentsOf: String(scalar).utf8) }
            } else {
                unresolvedEntities.append((element, String(decoding: name, as: UTF8.self)))
            }
            index = end + 1
        }
    }

    private static func characterReference(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
        var text = String(decoding: digits, as: UTF8.self)
        var radix = 10
        if text.hasPrefix("x") {
            text.removeFirst()
            radix = 16
        }
        return UInt32(text, radix: radix).flatMap(Unicode.Scalar.init)
    }

    /// xmlSAX2AttributeNs registers an `xml:id` and reports a value that is not an NCName.
    private mutating func checkXMLID(_ context: xmlParserCtxtPtr, _ raw: UnsafeBufferPointer<UInt8>) {
        var value = Array(raw)
        value.append(0)
        let valid = value.withUnsafeBufferPointer { xmlValidateNCName($0.baseAddress, 1) == 0 }
        if !valid {
            let input = context.pointee.input
            record(
                line: Int(input?.pointee.line ?? 0), column: Int(input?.pointee.col ?? 0),
                message: "xml:id : attribute value \(String(decoding: raw, as: UTF8.self)) is not an NCName")
        }
    }

    mutating func endElement() {
        if current >= 0 { current = tree.nodes[Int(current)].parent }
    }

    /// Character data (`cdata`: a CDATA section): appended to the last child when it is of the
    /// same kind, as libxml2's tree builder does.
    mutating func characters(_ context: xmlParserCtxtPtr, _ text: UnsafePointer<xmlChar>?, _ length: Int, cdata: Bool) {
        guard current >= 0 else { return }
        let kind: XMLTree.Kind = cdata ? .cdata : .text
        let last = tree.nodes[Int(current)].lastChild
        let buffer = UnsafeBufferPointer(start: text, count: text == nil ? 0 : length)
        if last >= 0, tree.nodes[Int(last)].kind == kind {
            let lastRecord = tree.nodes[Int(last)]
            if !cdata && Int(lastRecord.textCount) + length > maximumTextLength {
                // xmlSAX2Characters: reported as an allocation failure, and the parse stops.
                let input = context.pointee.input
                record(
                    line: Int(input?.pointee.line ?? 0), column: Int(input?.pointee.col ?? 0),
                    message: "xmlSAX2Characters: huge text node")
                context.pointee.errNo = Int32(XML_ERR_NO_MEMORY.rawValue)
                context.pointee.instate = XML_PARSER_EOF
                context.pointee.disableSAX = 1
                return
            }
            if Int(lastRecord.textStart + lastRecord.textCount) != tree.bytes.count {
                // Not at the end of the buffer (never expected): move the text there first.
                let start = Int(lastRecord.textStart)
                let moved = Array(tree.bytes[start..<(start + Int(lastRecord.textCount))])
                tree.nodes[Int(last)].textStart = Int32(tree.bytes.count)
                tree.bytes.append(contentsOf: moved)
            }
            tree.bytes.append(contentsOf: buffer)
            tree.nodes[Int(last)].textCount += Int32(length)
            return
        }
        var node = XMLTree.Node(kind: kind)
        node.textStart = Int32(tree.bytes.count)
        node.textCount = Int32(buffer.count)
        tree.bytes.append(contentsOf: buffer)
        _ = append(node)
    }

    mutating func comment(_ text: UnsafePointer<xmlChar>?) {
        guard current >= 0 else { return }
        var node = XMLTree.Node(kind: .comment)
        appendText(text, to: &node)
        _ = append(node)
    }

    mutating func processingInstruction(target: UnsafePointer<xmlChar>?, data: UnsafePointer<xmlChar>?) {
        guard current >= 0, let target else { return }
        var node = XMLTree.Node(kind: .processingInstruction)
        node.name = intern(target)
        appendText(data, to: &node)
        _ = append(node)
    }

    private mutating func appendText(_ text: UnsafePointer<xmlChar>?, to node: inout XMLTree.Node) {
        node.textStart = Int32(tree.bytes.count)
        if let text {
            tree.bytes.append(contentsOf: UnsafeBufferPointer(start: text, count: Int(xmlStrlen(text))))
        }
        node.textCount = Int32(tree.bytes.count) - node.textStart
    }

    mutating func reference(_ name: UnsafePointer<xmlChar>?) {
        guard current >= 0, let name else { return }
        unresolvedEntities.append((current, String(cString: name)))
    }
}

/// Whether the NUL-terminated `text` is `name` (ASCII).
private func isName(_ text: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
    let count = name.utf8CodeUnitCount
    let bytes = name.utf8Start
    for index in 0..<count where text[index] != bytes[index] { return false }
    return text[count] == 0
}

@inline(__always)
private func saxState(_ userData: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, UnsafeMutablePointer<SAXState>)? {
    // userData is the parser context (libxml2 passes ctxt->userData, which is the context).
    guard let userData else { return nil }
    let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let pointer = context.pointee._private else { return nil }
    return (context, pointer.assumingMemoryBound(to: SAXState.self))
}

/// Parses XML with libxml2.
enum LibXML2Reader {
    /// The outcome: a tree or the reasons there is none.
    struct Output {
        var tree: XMLTree?
        var diagnostics: [SCXMLDiagnostic]
    }

    /// Parses `data` (already checked against the size limit) into a tree whose elements carry
    /// the positions of the scanner's `tags` (`source` is the text the tags were found in).
    static func read(_ data: Data, fileName: String, source: SourceText, tags: [SourceScanner.Tag]) -> Output {
        precondition(libxml2Initialized)
        guard let context = xmlNewParserCtxt() else {
            return Output(tree: nil, diagnostics: [documentError(fileName, "libxml2 could not create a parser context")])
        }
        defer { xmlFreeParserCtxt(context) }
        let statePointer = UnsafeMutablePointer<SAXState>.allocate(capacity: 1)
        statePointer.initialize(to: SAXState(source: source, tags: tags))
        defer {
            statePointer.deinitialize(count: 1)
            statePointer.deallocate()
        }
        context.pointee._private = UnsafeMutableRawPointer(statePointer)
        if let sax = context.pointee.sax {
            sax.pointee.serror = { userData, error in
                guard let (_, state) = saxState(userData), let error else { return }
                state.pointee.record(error.pointee)
            }
            sax.pointee.entityDecl = { userData, name, _, _, _, _ in
                guard let (context, state) = saxState(userData) else { return }
                if state.pointee.entityDeclaration == nil {
                    let input = context.pointee.input
                    state.pointee.entityDeclaration = (
                        name.map { String(cString: $0) } ?? "",
                        Int(input?.pointee.line ?? 0), Int(input?.pointee.col ?? 0)
                    )
                }
                xmlStopParser(context)
            }
            sax.pointee.startElementNs = { userData, localName, prefix, uri, namespaceCount, namespaces, attributeCount, defaulted, attributes in
                guard let (context, state) = saxState(userData), let localName else { return }
                var count = Int(attributeCount)
                // Attributes defaulted from the DTD are only added with XML_PARSE_DTDATTR.
                if defaulted != 0 && (context.pointee.loadsubset & XML_COMPLETE_ATTRS) == 0 { count -= Int(defaulted) }
                state.pointee.startElement(
                    context, localName: localName, prefix: prefix, uri: uri, namespaceCount: Int(namespaceCount),
                    namespaces: namespaces, attributeCount: count, attributes: attributes)
            }
            sax.pointee.endElementNs = { userData, _, _, _ in
                guard let (_, state) = saxState(userData) else { return }
                state.pointee.endElement()
            }
            let characters: charactersSAXFunc = { userData, text, length in
                guard let (context, state) = saxState(userData) else { return }
                state.pointee.characters(context, text, Int(length), cdata: false)
            }
            sax.pointee.characters = characters
            sax.pointee.ignorableWhitespace = characters
            sax.pointee.cdataBlock = { userData, text, length in
                guard let (context, state) = saxState(userData) else { return }
                state.pointee.characters(context, text, Int(length), cdata: true)
            }
            sax.pointee.comment = { userData, text in
                guard let (context, state) = saxState(userData), context.pointee.inSubset == 0 else { return }
                state.pointee.comment(text)
            }
            sax.pointee.processingInstruction = { userData, target, data in
                guard let (context, state) = saxState(userData), context.pointee.inSubset == 0 else { return }
                state.pointee.processingInstruction(target: target, data: data)
            }
            sax.pointee.reference = { userData, name in
                guard let (_, state) = saxState(userData) else { return }
                state.pointee.reference(name)
            }
        }

        // Errors raised without a parser context go to the thread-local handler: route them to the
        // state for the duration of this parse.
        let savedHandler = __xmlStructuredError().pointee
        let savedContext = __xmlStructuredErrorContext().pointee
        xmlSetStructuredErrorFunc(UnsafeMutableRawPointer(statePointer)) { userData, error in
            guard let userData, let error else { return }
            userData.assumingMemoryBound(to: SAXState.self).pointee.record(error.pointee)
        }
        defer { xmlSetStructuredErrorFunc(savedContext, savedHandler) }

        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)
        let document: xmlDocPtr? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return xmlCtxtReadMemory(
                context, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), fileName, nil, options)
        }
        if let document { xmlFreeDoc(document) }

        var diagnostics: [SCXMLDiagnostic] = []
        if let entity = statePointer.pointee.entityDeclaration {
            diagnostics.append(entityDeclarationError(fileName, name: entity.name, line: entity.line, column: entity.column))
            return Output(tree: nil, diagnostics: diagnostics)
        }
        for entry in statePointer.pointee.errors.prefix(20) {
            diagnostics.append(
                SCXMLDiagnostic(
                    location: SCXMLSourceLocation(file: fileName, line: max(entry.line, 1), column: max(entry.column, 1)),
                    element: "", message: "malformed XML: \(entry.message)"))
        }
        guard diagnostics.isEmpty else { return Output(tree: nil, diagnostics: diagnostics) }
        guard document != nil, !statePointer.pointee.tree.nodes.isEmpty else {
            return Output(tree: nil, diagnostics: [documentError(fileName, "malformed XML: the document has no root element")])
        }
        let owner = XMLTree(statePointer.pointee.tree)
        statePointer.pointee.tree = XMLTree.Parts()
        let tree = owner.view
        for (element, name) in statePointer.pointee.unresolvedEntities {
            diagnostics.append(
                SCXMLDiagnostic(
                    location: SCXMLSourceLocation(file: fileName, line: tree.line(element), column: tree.column(element)),
                    element: tree.localName(element),
                    message:
                        "the entity reference '&\(name);' cannot be resolved: entities are neither declared nor loaded "
                        + "from external DTDs; use a character reference or write the text out"))
        }
        return Output(tree: owner, diagnostics: diagnostics)
    }

    /// Parses `data` into a value tree (for XML carried as data, where positions do not matter).
    static func parse(_ data: Data, fileName: String, tags: [SourceScanner.Tag]) -> (root: XMLElement?, diagnostics: [SCXMLDiagnostic]) {
        let output = read(data, fileName: fileName, source: SourceText(bytes: [], isSingleByte: false), tags: tags)
        return (output.tree.flatMap { tree in tree.view.root.map { tree.view.element($0) } }, output.diagnostics)
    }

    static func documentError(_ fileName: String, _ message: String) -> SCXMLDiagnostic {
        SCXMLDiagnostic(location: SCXMLSourceLocation(file: fileName, line: 1, column: 1), element: "", message: message)
    }

    static func entityDeclarationError(_ fileName: String, name: String, line: Int, column: Int) -> SCXMLDiagnostic {
        SCXMLDiagnostic(
            location: SCXMLSourceLocation(file: fileName, line: max(line, 1), column: max(column, 1)), element: "",
            message:
                "the DOCTYPE declares the entity '\(name)'; entity declarations are not allowed in SCXML documents "
                + "(they enable entity-expansion and external-entity attacks): write the text out instead")
    }
}
