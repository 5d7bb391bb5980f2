import CLibXML2
import Foundation
import Statechart

// Everything one libxml2 parse collects, written by the SAX2 callbacks (LibXML2Reader+Callbacks):
// the tree being built, interned names, libxml2's errors.

/// libxml2's limit on a text node built without XML_PARSE_HUGE (XML_MAX_TEXT_LENGTH).
let maximumTextLength = 10_000_000

/// Everything one parse collects: the tree being built and libxml2's errors.
struct SAXState {
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
    // tag holds no `<`), and lines and columns are counted on from the previous tag's `<` by the
    // LineCounter SourceScanner counts with too. Any doubt (`positionsOK` false) and the reader
    // runs SourceScanner instead.
    let raw: UnsafeBufferPointer<UInt8>?
    var positionsOK: Bool
    /// The previous tag's `<`, and its line and column (from `counter`, which SourceScanner
    /// counts with too).
    var scanned = 0
    var counter = LineCounter(isSingleByte: false)
    var line: Int32 = 1
    var column: Int32 = 1
    var elementCount = 0
    /// libxml2's line for each element (where its start tag ends), for SourceScanner's fallback.
    var libxml2Lines: [Int32] = []
    /// Nesting depth, and whether it ever went past the limit.
    var depth = 0
    /// The deepest nesting seen (the root is 1): how deep the recursive passes over the model go.
    var deepest = 0
    let maxDepth: Int
    var tooDeep = false
    var sawDoctype = false
    var hasDocument = false
    var contextFailed = false
    /// libxml2's interned strings (names, prefixes and namespace URIs live in the parser's
    /// dictionary or its namespace table) by address, so each distinct one is converted once per
    /// document: an entry is a position in `pointerStrings`, which holds the string's index.
    var pointers = HashIndex()
    var pointerStrings: [Int32] = []
    var stringIndex: [String: Int32] = [:]

    // Indentation between the elements of the chart's structure. The builder ignores whitespace
    // in SCXML elements other than <data>, <content>, <assign> and <script> (whose text and
    // markup are kept as written) and outside elements of other namespaces, so a text node of
    // ASCII whitespace there, followed by a tag, is taken out of the tree again: about half the
    // nodes of an indented chart, which the builder then never walks. Text that merges with more
    // text, comments and the rest stay exactly as libxml2's tree builder has them.
    /// Whether blank text is dropped at all (not for XML carried as data, read as a value tree).
    let dropsStructuralBlanks: Bool
    /// The depth of the outermost open element whose content is kept as written, `Int.max` when
    /// there is none.
    var keptFromDepth = Int.max
    /// The blank text node just appended where it may be dropped, and the child before it.
    var pendingBlank: (node: XMLTree.Index, previous: XMLTree.Index)?

    /// `raw`: the document's bytes when they are plain UTF-8 (else positions come from
    /// SourceScanner); `dropsStructuralBlanks`: see above.
    init(raw: UnsafeBufferPointer<UInt8>?, documentSize: Int, maxDepth: Int, dropsStructuralBlanks: Bool) {
        self.raw = raw
        self.positionsOK = raw != nil
        self.maxDepth = maxDepth
        self.dropsStructuralBlanks = dropsStructuralBlanks
        tree = XMLTree.Parts(documentSize: documentSize)
    }

    /// Takes the pending blank text node out of the tree (a tag follows it).
    @inline(__always)
    mutating func dropPendingBlank() {
        guard let (node, previous) = pendingBlank else { return }
        pendingBlank = nil
        let parent = Int(tree.nodes[Int(node)].parent)
        tree.bytes.removeLast(tree.bytes.count - Int(tree.nodes[Int(node)].textStart))
        tree.nodes.removeLast(1)
        if previous >= 0 { tree.nodes[Int(previous)].nextSibling = -1 } else { tree.nodes[parent].firstChild = -1 }
        tree.nodes[parent].lastChild = previous
    }

    /// Whether the content of the element just started is kept as written (see above).
    @inline(__always)
    private func keepsContent(_ node: XMLTree.Node, _ localName: UnsafePointer<xmlChar>) -> Bool {
        node.namespace != tree.scxmlNamespace || isName(localName, "data") || isName(localName, "content")
            || isName(localName, "assign") || isName(localName, "script")
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
        let key = UInt64(UInt(bitPattern: pointer))
        if let known = pointers.find(key, where: { _ in true }) { return pointerStrings[known] }
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
        pointers.insert(key, entry: pointerStrings.count)
        pointerStrings.append(index)
        return index
    }

    @inline(__always)
    mutating func intern(optional pointer: UnsafePointer<xmlChar>?) -> Int32 {
        guard let pointer else { return -1 }
        return intern(pointer)
    }

    // MARK: - Building

    mutating func append(_ node: XMLTree.Node) -> XMLTree.Index {
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


    mutating func startElement(
        _ context: xmlParserCtxtPtr, localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
        uri: UnsafePointer<xmlChar>?, namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        dropPendingBlank()
        var node = XMLTree.Node(kind: .element)
        node.name = intern(localName)
        node.prefix = intern(optional: prefix)
        node.namespace = intern(optional: uri)
        let inputLine = Int32(truncatingIfNeeded: context.pointee.input?.pointee.line ?? 0)
        libxml2Lines.append(inputLine)
        depth += 1
        deepest = max(deepest, depth)
        if keptFromDepth == .max && keepsContent(node, localName) { keptFromDepth = depth }
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
        dropPendingBlank()
        if depth == keptFromDepth { keptFromDepth = .max }
        depth -= 1
        if current >= 0 { current = tree.nodes[Int(current)].parent }
    }

    /// Character data (`cdata`: a CDATA section): appended to the last child when it is of the
    /// same kind, as libxml2's tree builder does.
    mutating func characters(_ context: xmlParserCtxtPtr, _ text: UnsafePointer<xmlChar>?, _ length: Int, cdata: Bool) {
        guard current >= 0 else { return }
        let kind: XMLTree.Kind = cdata ? .cdata : .text
        let last = tree.nodes[Int(current)].lastChild
        if let pending = pendingBlank, pending.node != last || cdata { pendingBlank = nil }
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
            if lastRecord.isASCIIBlank { tree.nodes[Int(last)].isASCIIBlank = Self.isASCIIBlank(buffer) }
            if !tree.nodes[Int(last)].isASCIIBlank { pendingBlank = nil }
            return
        }
        var node = XMLTree.Node(kind: kind)
        node.textStart = Int32(tree.bytes.count)
        node.textCount = Int32(buffer.count)
        node.isASCIIBlank = Self.isASCIIBlank(buffer)
        tree.bytes.append(contentsOf: buffer)
        let index = append(node)
        if node.isASCIIBlank && !cdata && dropsStructuralBlanks && keptFromDepth == .max {
            pendingBlank = (index, last)
        }
    }

    /// Whether every byte is ASCII whitespace (the bytes are at hand now; the builder asks later).
    @inline(__always)
    private static func isASCIIBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !isASCIIWhitespace(byte) { return false }
        return true
    }

    mutating func comment(_ text: UnsafePointer<xmlChar>?) {
        pendingBlank = nil
        guard current >= 0 else { return }
        var node = XMLTree.Node(kind: .comment)
        appendText(text, to: &node)
        _ = append(node)
    }

    mutating func processingInstruction(target: UnsafePointer<xmlChar>?, data: UnsafePointer<xmlChar>?) {
        pendingBlank = nil
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
        pendingBlank = nil
        guard current >= 0, let name else { return }
        unresolvedEntities.append((current, String(cString: name)))
    }
}

/// Whether the NUL-terminated `text` is `name` (ASCII).
func isName(_ text: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
    let count = name.utf8CodeUnitCount
    let bytes = name.utf8Start
    for index in 0..<count where text[index] != bytes[index] { return false }
    return text[count] == 0
}
