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
// so entities are never substituted and no external DTD or entity is loaded. XML_PARSE_HUGE is set
// only to lift libxml2's fixed depth limit of 256 (uSCXML's benchmarks nest deeper): the depth
// limit is SCXMLParser.Limits.maxDepth, enforced in startElement, which stops the parser at the
// first element past it; the text-node limit libxml2 would apply is kept below
// (maximumTextLength), and the document size limit bounds every other length. Entity declarations are refused outright:
// the SAX hook below stops the parser at the first one, and the document (which has a DOCTYPE)
// then goes through SourceScanner, which reports it.
//
// Positions: see SAXState.locate (from the document's bytes while libxml2 reads) and
// SourceScanner (when that is not certain).
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

    var tree: XMLTree.Parts
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

    // Positions of start tags, from the document's own bytes (a plain UTF-8 document): at each
    // start tag libxml2 has read up to its `>`; the tag's `<` is the last one before that (a start
    // tag holds no `<`), and lines and columns are counted on from the previous tag's `<`, the
    // way SourceScanner counts them. Any doubt (`positionsOK` false) and the reader runs
    // SourceScanner instead.
    private let raw: UnsafeBufferPointer<UInt8>?
    var positionsOK: Bool
    /// The previous tag's `<` (every byte before it is counted), its line and column.
    private var scanned = 0
    private var line: Int32 = 1
    private var column: Int32 = 1
    private var elementCount = 0
    /// libxml2's line for each element (where its start tag ends), for SourceScanner's fallback.
    var libxml2Lines: [Int32] = []
    /// Nesting depth, and whether it ever went past the limit.
    private var depth = 0
    /// The deepest nesting seen (the root is 1): how deep the recursive passes over the model go.
    private(set) var deepest = 0
    private let maxDepth: Int
    var tooDeep = false
    var sawDoctype = false
    var hasDocument = false
    var contextFailed = false
    private var pointers = PointerTable()
    private var stringIndex: [String: Int32] = [:]

    /// `raw`: the document's bytes when they are plain UTF-8 (else positions come from SourceScanner).
    init(raw: UnsafeBufferPointer<UInt8>?, documentSize: Int, maxDepth: Int) {
        self.raw = raw
        self.positionsOK = raw != nil
        self.maxDepth = maxDepth
        tree = XMLTree.Parts(documentSize: documentSize)
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

    /// Gives the elements SourceScanner's positions: the i-th element gets the i-th start tag's
    /// position when the tag has its name, else libxml2's line and column 1.
    mutating func assignPositions(tags: [SourceScanner.Tag], source: SourceText) {
        var element = 0
        for index in tree.nodes.indices where tree.nodes[index].kind == .element {
            let node = tree.nodes[index]
            var line = libxml2Lines[element]
            var column: Int32 = 1
            if element < tags.count {
                let tag = tags[element]
                let bytes = source.bytes[Int(tag.nameStart)..<Int(tag.nameStart + tag.nameCount)]
                let name: String
                if source.isSingleByte {
                    var scalars = String.UnicodeScalarView()
                    for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
                    name = String(scalars)
                } else {
                    name = String(decoding: bytes, as: UTF8.self)
                }
                let local = tree.strings[Int(node.name)]
                let qualified = node.prefix >= 0 ? "\(tree.strings[Int(node.prefix)]):\(local)" : local
                if name == qualified {
                    line = tag.line
                    column = tag.column
                }
            }
            tree.nodes[index].line = line
            tree.nodes[index].column = column
            element += 1
        }
    }

    /// The position of the current start tag's `<` from the document's bytes, or `false` when it
    /// cannot be found for certain.
    private mutating func locate(_ context: xmlParserCtxtPtr, prefix: UnsafePointer<xmlChar>?, local: UnsafePointer<xmlChar>) -> Bool {
        guard let raw, let base = raw.baseAddress, let input = context.pointee.input, let cur = input.pointee.cur,
            let inputBase = input.pointee.base, context.pointee.inputNr == 1
        else { return false }
        let end = Int(input.pointee.consumed) + (cur - inputBase)
        guard end <= raw.count, end > scanned else { return false }
        // The last `<` before `end`: found forwards from the previous tag with memchr (end tags,
        // comments and the like may come between).
        var open = -1
        var from = elementCount == 0 ? 0 : scanned + 1
        while from < end, let found = memchr(base + from, 0x3C, end - from) {
            open = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            from = open + 1
        }
        guard open >= 0 else { return false }
        // The name must follow, then a byte ending it.
        var index = open + 1
        func consume(_ text: UnsafePointer<xmlChar>) -> Bool {
            var pointer = text
            while pointer.pointee != 0 {
                guard index < end, base[index] == pointer.pointee else { return false }
                index += 1
                pointer += 1
            }
            return true
        }
        if let prefix {
            guard consume(prefix), index < end, base[index] == UInt8(ascii: ":") else { return false }
            index += 1
        }
        guard consume(local), index < raw.count else { return false }
        let next = base[index]
        guard next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D || next == UInt8(ascii: "/")
            || next == UInt8(ascii: ">")
        else { return false }
        // Lines and columns from the previous tag's `<` (at `scanned`) to this one.
        var position = scanned
        var lineStart = -1
        while position < open, let found = memchr(base + position, 0x0A, open - position) {
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            line += 1
            lineStart = newline + 1
            position = newline + 1
        }
        if lineStart >= 0 {
            column = 1 + Int32(characters(base, from: lineStart, to: open))
        } else {
            column += Int32(characters(base, from: scanned, to: open))
        }
        scanned = open
        return true
    }

    /// The characters (bytes that do not continue a UTF-8 sequence) in `base[start..<end]`.
    @inline(__always)
    private func characters(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var continuations = 0
        var index = start
        // Eight ASCII bytes at a time.
        while index + 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < end {
            if base[index] & 0xC0 == 0x80 { continuations += 1 }
            index += 1
        }
        return end - start - continuations
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
        libxml2Lines.append(inputLine)
        depth += 1
        deepest = max(deepest, depth)
        if depth > maxDepth {
            // Stop at once: a hostile document may nest far deeper (SourceScanner names the element).
            tooDeep = true
            xmlStopParser(context)
            return
        }
        if positionsOK { positionsOK = locate(context, prefix: prefix, local: localName) }
        elementCount += 1
        node.line = line
        node.column = column

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
        depth -= 1
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
                let moved = Array(UnsafeBufferPointer(rebasing: tree.bytes.buffer[start..<(start + Int(lastRecord.textCount))]))
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
        /// The deepest element nesting (the root is 1).
        var depth = 0
        var diagnostics: [SCXMLDiagnostic]
    }

    /// Parses a document (`data`, already checked against the size limit) into a tree whose
    /// elements carry the positions of their start tags, refusing documents nested deeper than
    /// `maxDepth` and documents that declare entities (SourceScanner's rules).
    static func read(_ data: Data, fileName: String, maxDepth: Int) -> Output {
        let plain = SourceText.isPlainUTF8(data)
        return data.withUnsafeBytes { bytes in
            let raw = plain ? bytes.bindMemory(to: UInt8.self) : nil
            var run = self.run(data, fileName: fileName, state: SAXState(raw: raw, documentSize: data.count, maxDepth: maxDepth))
            let certain = run.positionsOK && !run.tooDeep && !run.sawDoctype && run.errors.isEmpty
                && run.entityDeclaration == nil
            if !certain {
                // SourceScanner decides, as it did before libxml2 ever saw the document: entity
                // declarations and the depth limit first, then its tags give the positions.
                let source = SourceText(data: data)
                let scan = SourceScanner.scan(source, maxDepth: maxDepth)
                if let entity = scan.entityDeclaration {
                    run.tree.deallocate()
                    return Output(tree: nil, diagnostics: [
                        entityDeclarationError(fileName, name: entity.name, line: entity.line, column: entity.column)
                    ])
                }
                if let tag = scan.tooDeep {
                    run.tree.deallocate()
                    let name = tag.name.split(separator: ":").last.map(String.init) ?? tag.name
                    return Output(tree: nil, diagnostics: [
                        SCXMLDiagnostic(
                            location: SCXMLSourceLocation(file: fileName, line: tag.line, column: tag.column), element: name,
                            message:
                                "<\(tag.name)> is nested \(maxDepth + 1) elements deep, more than the limit of "
                                + "\(maxDepth) (SCXMLParser.Limits.maxDepth)")
                    ])
                }
                run.assignPositions(tags: scan.tags, source: source)
            }
            return finish(&run, fileName: fileName)
        }
    }

    /// Parses `data` into a value tree (for XML carried as data: positions are libxml2's lines and
    /// column 1; `tags` is always empty here).
    static func parse(
        _ data: Data, fileName: String, tags _: [SourceScanner.Tag] = []
    ) -> (root: XMLElement?, diagnostics: [SCXMLDiagnostic]) {
        var run = self.run(data, fileName: fileName, state: SAXState(raw: nil, documentSize: data.count, maxDepth: .max))
        run.assignPositions(tags: [], source: SourceText(bytes: [], isSingleByte: false))
        let output = finish(&run, fileName: fileName)
        return (output.tree.flatMap { tree in tree.view.root.map { tree.view.element($0) } }, output.diagnostics)
    }

    /// Runs libxml2 over `data` with the SAX callbacks writing into `state`.
    private static func run(_ data: Data, fileName: String, state: consuming SAXState) -> SAXState {
        precondition(libxml2Initialized)
        let statePointer = UnsafeMutablePointer<SAXState>.allocate(capacity: 1)
        statePointer.initialize(to: state)
        defer { statePointer.deallocate() }
        guard let context = xmlNewParserCtxt() else {
            statePointer.pointee.contextFailed = true
            return statePointer.move()
        }
        defer { xmlFreeParserCtxt(context) }
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
            sax.pointee.internalSubset = { userData, name, externalID, systemID in
                guard let (_, state) = saxState(userData) else { return }
                state.pointee.sawDoctype = true
                xmlSAX2InternalSubset(userData, name, externalID, systemID)
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

        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_HUGE.rawValue)
        let document: xmlDocPtr? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return xmlCtxtReadMemory(
                context, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), fileName, nil, options)
        }
        if let document {
            statePointer.pointee.hasDocument = true
            xmlFreeDoc(document)
        }
        return statePointer.move()
    }

    /// The tree or the diagnostics of a run.
    private static func finish(_ run: inout SAXState, fileName: String) -> Output {
        var tree: XMLTree? = XMLTree(run.tree)  // owns (and frees) the buffers from here on
        if run.contextFailed {
            return Output(tree: nil, diagnostics: [documentError(fileName, "libxml2 could not create a parser context")])
        }
        var diagnostics: [SCXMLDiagnostic] = []
        if let entity = run.entityDeclaration {
            diagnostics.append(entityDeclarationError(fileName, name: entity.name, line: entity.line, column: entity.column))
            return Output(tree: nil, diagnostics: diagnostics)
        }
        for entry in run.errors.prefix(20) {
            diagnostics.append(
                SCXMLDiagnostic(
                    location: SCXMLSourceLocation(file: fileName, line: max(entry.line, 1), column: max(entry.column, 1)),
                    element: "", message: "malformed XML: \(entry.message)"))
        }
        guard diagnostics.isEmpty else { return Output(tree: nil, diagnostics: diagnostics) }
        guard run.hasDocument, let owner = tree, !run.tree.nodes.isEmpty else {
            return Output(tree: nil, diagnostics: [documentError(fileName, "malformed XML: the document has no root element")])
        }
        tree = nil
        let view = owner.view
        for (element, name) in run.unresolvedEntities {
            diagnostics.append(
                SCXMLDiagnostic(
                    location: SCXMLSourceLocation(file: fileName, line: view.line(element), column: view.column(element)),
                    element: view.localName(element),
                    message:
                        "the entity reference '&\(name);' cannot be resolved: entities are neither declared nor loaded "
                        + "from external DTDs; use a character reference or write the text out"))
        }
        return Output(tree: owner, depth: run.deepest, diagnostics: diagnostics)
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
