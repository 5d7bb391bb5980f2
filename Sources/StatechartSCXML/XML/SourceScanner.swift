import Foundation

// libxml2 2.9 records only a line per node (and that line is where the start tag *ends*), so the
// positions of elements come from the source itself. This lexical scan finds every start tag in
// document order, which is the order of the elements in the parsed tree. In well-formed XML a `<`
// can only open markup (it cannot occur in attribute values or text), so skipping comments, CDATA
// sections, processing instructions and the DOCTYPE is enough to see every start tag. The same
// scan enforces the nesting-depth limit and refuses entity declarations.
//
// For a plain UTF-8 document without a DOCTYPE that libxml2 parses without error inside the depth
// limit, LibXML2Reader finds the same positions while libxml2 reads (and this scan would refuse
// nothing), so the scan runs only for the other documents, and then decides as it always did:
// its verdicts on entities and depth come before libxml2's errors.

/// The source text as UTF-8 (or single-byte) code units, ready for ``SourceScanner``.
struct SourceText {
    /// The bytes to scan.
    var bytes: [UInt8]
    /// Every byte is one character (a single-byte encoding such as ISO-8859-1).
    var isSingleByte: Bool

    init(bytes: [UInt8], isSingleByte: Bool) {
        self.bytes = bytes
        self.isSingleByte = isSingleByte
    }

    /// The encoding pseudo-attribute of an XML declaration at the very start, lowercased.
    private static func declaredEncoding<C: Collection<UInt8>>(_ raw: C) -> String? where C.Index == Int {
        guard raw.starts(with: Array("<?xml".utf8)) else { return nil }
        let end = raw.firstIndex(of: UInt8(ascii: ">")) ?? min(raw.count, 200)
        let declaration = String(decoding: raw[raw.startIndex..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote }).lowercased()
    }

    /// Whether `data` is UTF-8 that libxml2 reads as it is: no byte-order mark, no UTF-16, and an
    /// encoding declared (if at all) as UTF-8. Then its bytes are the bytes ``init(data:)`` makes.
    static func isPlainUTF8(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            let raw = buffer.bindMemory(to: UInt8.self)
            if raw.starts(with: [0xEF, 0xBB, 0xBF]) || raw.starts(with: [0xFE, 0xFF]) || raw.starts(with: [0xFF, 0xFE])
                || raw.starts(with: [0x00, 0x3C, 0x00, 0x3F]) || raw.starts(with: [0x3C, 0x00, 0x3F, 0x00])
            {
                return false
            }
            guard let encoding = declaredEncoding(raw) else { return true }
            return encoding == "utf-8" || encoding == "utf8"
        }
    }

    /// Converts the raw document to bytes whose lines and columns match what libxml2 sees.
    init(data: Data) {
        let raw = [UInt8](data)
        func declaredEncoding() -> String? { Self.declaredEncoding(raw) }
        if raw.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = Array(raw.dropFirst(3))
            isSingleByte = false
        } else if raw.starts(with: [0xFE, 0xFF]) || raw.starts(with: [0x00, 0x3C, 0x00, 0x3F]) {
            bytes = Array((String(data: data, encoding: .utf16BigEndian) ?? "").utf8)
            if bytes.first == 0xEF { bytes.removeFirst(min(3, bytes.count)) }  // a decoded BOM
            isSingleByte = false
        } else if raw.starts(with: [0xFF, 0xFE]) || raw.starts(with: [0x3C, 0x00, 0x3F, 0x00]) {
            bytes = Array((String(data: data, encoding: .utf16LittleEndian) ?? "").utf8)
            if bytes.first == 0xEF { bytes.removeFirst(min(3, bytes.count)) }
            isSingleByte = false
        } else if let encoding = declaredEncoding(), !encoding.hasPrefix("utf") {
            // ISO-8859-x, windows-125x, ASCII: one byte per character. (For multi-byte legacy
            // encodings such as Shift_JIS, columns then count bytes.)
            bytes = raw
            isSingleByte = true
        } else {
            bytes = raw
            isSingleByte = false
        }
    }
}

/// Finds start tags, their lines and columns, the nesting depth and entity declarations.
struct SourceScanner {
    /// A start tag: where its qualified name is in the scanned bytes and the position of its `<`.
    struct Tag: Sendable {
        var nameStart: Int32
        var nameCount: Int32
        var line: Int32
        var column: Int32
    }

    /// A tag or declaration named in a diagnostic.
    struct NamedTag: Sendable {
        var name: String
        var line: Int
        var column: Int
    }

    /// What the scan found.
    struct Result: Sendable {
        /// Every start tag in document order (up to the first problem below).
        var tags: [Tag] = []
        /// The first start tag nested deeper than the limit.
        var tooDeep: NamedTag?
        /// The first `<!ENTITY` declaration: the entity's name and the declaration's position.
        var entityDeclaration: NamedTag?
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let isSingleByte: Bool
    /// Byte classes (see ``Self/classes``); continuation bytes are plain in single-byte text.
    private let classes: UnsafePointer<UInt8>
    /// Everything before `position` has been counted into `line`, `lineStart` and `continuations`.
    private var position = 0
    private var line = 1
    /// Where the current line starts.
    private var lineStart = 0
    /// UTF-8 continuation bytes between `lineStart` and `position` (they are not characters).
    private var continuations = 0

    private static let plain: UInt8 = 0, newline: UInt8 = 1, continuation: UInt8 = 2, open: UInt8 = 3,
        close: UInt8 = 4, doubleQuote: UInt8 = 5, singleQuote: UInt8 = 6

    /// The class of every byte, for UTF-8 text (first 256) and single-byte text (last 256).
    private static let classes: [UInt8] = {
        var table = [UInt8](repeating: plain, count: 512)
        for offset in [0, 256] {
            table[offset + 0x0A] = newline
            table[offset + Int(UInt8(ascii: "<"))] = open
            table[offset + Int(UInt8(ascii: ">"))] = close
            table[offset + Int(UInt8(ascii: "\""))] = doubleQuote
            table[offset + Int(UInt8(ascii: "'"))] = singleQuote
        }
        for byte in 0x80...0xBF { table[byte] = continuation }
        return table
    }()

    private init(bytes: UnsafeBufferPointer<UInt8>, isSingleByte: Bool, classes: UnsafePointer<UInt8>) {
        self.bytes = bytes
        self.isSingleByte = isSingleByte
        self.classes = isSingleByte ? classes + 256 : classes
    }

    /// Scans `source`, stopping at the first start tag deeper than `maxDepth` or the first entity declaration.
    static func scan(_ source: SourceText, maxDepth: Int) -> Result {
        source.bytes.withUnsafeBufferPointer { buffer in
            classes.withUnsafeBufferPointer { table in
                var scanner = SourceScanner(bytes: buffer, isSingleByte: source.isSingleByte, classes: table.baseAddress!)
                return scanner.run(maxDepth: maxDepth)
            }
        }
    }

    // MARK: - Moving through the text

    /// The column of `position`.
    @inline(__always)
    private var column: Int { 1 + position - lineStart - continuations }

    /// Counts a newline or continuation byte at `index` (any other byte counts itself).
    @inline(__always)
    private mutating func count(_ byteClass: UInt8, at index: Int) {
        if byteClass == Self.newline {
            line += 1
            lineStart = index + 1
            continuations = 0
        } else if byteClass == Self.continuation {
            continuations += 1
        }
    }

    /// Moves to `target`, keeping line and column up to date.
    private mutating func advance(to target: Int) {
        let end = min(target, bytes.count)
        guard position < end, let base = bytes.baseAddress else { return }
        var index = position
        while index < end {
            let byteClass = classes[Int(base[index])]
            if byteClass == Self.newline || byteClass == Self.continuation { count(byteClass, at: index) }
            index += 1
        }
        position = end
    }

    /// Moves to the next `<`, or to the end; returns whether there is one.
    private mutating func advanceToOpen() -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = position
        let end = bytes.count
        while index < end {
            let byteClass = classes[Int(base[index])]
            if byteClass != Self.plain {
                if byteClass == Self.open {
                    position = index
                    return true
                }
                count(byteClass, at: index)
            }
            index += 1
        }
        position = end
        return false
    }

    /// Moves past the `>` closing a tag (from `index`, inside the tag), skipping quoted values;
    /// returns the index of the `>`, or `nil` (having moved to the end) when there is none.
    private mutating func advancePastTag(from index: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        advance(to: index)
        var index = position
        let end = bytes.count
        var quote: UInt8 = 0
        while index < end {
            let byte = base[index]
            let byteClass = classes[Int(byte)]
            if byteClass != Self.plain {
                if quote != 0 {
                    if byte == quote { quote = 0 } else { count(byteClass, at: index) }
                } else if byteClass == Self.close {
                    position = index + 1
                    return index
                } else if byteClass == Self.doubleQuote || byteClass == Self.singleQuote {
                    quote = byte
                } else {
                    count(byteClass, at: index)
                }
            }
            index += 1
        }
        position = end
        return nil
    }

    private func hasPrefix(_ text: StaticString, at index: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = text.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    private func find(_ byte: UInt8, from index: Int) -> Int? {
        guard index < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + index, Int32(byte), bytes.count - index)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The index just past the next occurrence of `text` at or after `index`.
    private func end(of text: StaticString, from index: Int) -> Int? {
        let first = text.utf8Start[0]
        var index = index
        while let candidate = find(first, from: index) {
            if hasPrefix(text, at: candidate) { return candidate + text.utf8CodeUnitCount }
            index = candidate + 1
        }
        return nil
    }

    /// The text of `bytes[start..<end]`, decoded as UTF-8, or byte by byte as ISO-8859-1.
    private func text(from start: Int, to end: Int) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if isSingleByte {
            var scalars = String.UnicodeScalarView()
            for byte in slice { scalars.append(Unicode.Scalar(byte)) }
            return String(scalars)
        }
        return String(decoding: slice, as: UTF8.self)
    }

    @inline(__always)
    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: ">")
    }

    // MARK: - The scan

    private mutating func run(maxDepth: Int) -> Result {
        var result = Result()
        var depth = 0
        while advanceToOpen() {
            let open = position
            let next = open + 1 < bytes.count ? bytes[open + 1] : 0
            if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") || next == UInt8(ascii: "/") {
                if hasPrefix("<!--", at: open) {
                    guard let end = end(of: "-->", from: open + 4) else { break }
                    advance(to: end)
                } else if hasPrefix("<![CDATA[", at: open) {
                    guard let end = end(of: "]]>", from: open + 9) else { break }
                    advance(to: end)
                } else if hasPrefix("<?", at: open) {
                    guard let end = end(of: "?>", from: open + 2) else { break }
                    advance(to: end)
                } else if hasPrefix("<!DOCTYPE", at: open) {
                    if let entity = scanDoctype() {
                        result.entityDeclaration = entity
                        return result
                    }
                } else {
                    // "<!" or "</"
                    if next == UInt8(ascii: "/") { depth -= 1 }
                    guard advancePastTag(from: open + 2) != nil else { break }
                }
            } else {
                var nameEnd = open + 1
                while nameEnd < bytes.count && !Self.isNameEnd(bytes[nameEnd]) { nameEnd += 1 }
                if depth + 1 > maxDepth {
                    result.tooDeep = NamedTag(name: text(from: open + 1, to: nameEnd), line: line, column: column)
                    return result
                }
                result.tags.append(
                    Tag(
                        nameStart: Int32(truncatingIfNeeded: open + 1), nameCount: Int32(truncatingIfNeeded: nameEnd - open - 1),
                        line: Int32(truncatingIfNeeded: line), column: Int32(truncatingIfNeeded: column)))
                guard let end = advancePastTag(from: nameEnd) else { break }
                if bytes[end - 1] != UInt8(ascii: "/") { depth += 1 }
            }
        }
        return result
    }

    /// Skips a DOCTYPE declaration starting at `position`. Returns the first entity declaration of
    /// its internal subset, if any.
    private mutating func scanDoctype() -> NamedTag? {
        var index = position + 9
        var quote: UInt8? = nil
        var inSubset = false
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if inSubset && hasPrefix("<!--", at: index) {
                guard let end = end(of: "-->", from: index + 4) else { break }
                index = end
                continue
            } else if inSubset && hasPrefix("<?", at: index) {
                guard let end = end(of: "?>", from: index + 2) else { break }
                index = end
                continue
            } else if inSubset && hasPrefix("<!ENTITY", at: index) {
                advance(to: index)
                var nameStart = index + 8
                while nameStart < bytes.count,
                    bytes[nameStart] == 0x20 || bytes[nameStart] == 0x09 || bytes[nameStart] == 0x0A
                        || bytes[nameStart] == 0x0D || bytes[nameStart] == UInt8(ascii: "%")
                {
                    nameStart += 1
                }
                var nameEnd = nameStart
                while nameEnd < bytes.count && !Self.isNameEnd(bytes[nameEnd]) && bytes[nameEnd] != UInt8(ascii: "\"")
                    && bytes[nameEnd] != UInt8(ascii: "'")
                {
                    nameEnd += 1
                }
                return NamedTag(name: text(from: nameStart, to: nameEnd), line: line, column: column)
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if byte == UInt8(ascii: ">") && !inSubset {
                advance(to: index + 1)
                return nil
            }
            index += 1
        }
        advance(to: bytes.count)
        return nil
    }
}
