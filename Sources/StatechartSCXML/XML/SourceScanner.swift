import Foundation

// libxml2 2.9 records only a line per node (and that line is where the start tag *ends*), so the
// positions of elements come from the source itself. This lexical scan finds every start tag in
// document order, which is the order of the elements in the parsed tree. In well-formed XML a `<`
// can only open markup (it cannot occur in attribute values or text), so skipping comments, CDATA
// sections, processing instructions and the DOCTYPE is enough to see every start tag. The same
// scan enforces the nesting-depth limit and refuses entity declarations.
//
// It is not a pre-scan: for a plain UTF-8 document without a DOCTYPE that libxml2 parses without
// error inside the depth limit, LibXML2Reader finds the same positions while libxml2 reads (and
// this scan would refuse nothing), so the scan runs only afterwards, as the fallback for the other
// documents, and then decides as it always did: its verdicts on entities and depth come before
// libxml2's errors. Both count lines and columns with one LineCounter, so they agree.

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
    /// Where the scan is.
    private var position = 0
    /// Lines and columns, counted as the reader counts them.
    private var counter: LineCounter

    private init(bytes: UnsafeBufferPointer<UInt8>, isSingleByte: Bool) {
        self.bytes = bytes
        self.isSingleByte = isSingleByte
        counter = LineCounter(isSingleByte: isSingleByte)
    }

    /// Scans `source`, stopping at the first start tag deeper than `maxDepth` or the first entity declaration.
    static func scan(_ source: SourceText, maxDepth: Int) -> Result {
        source.bytes.withUnsafeBufferPointer { buffer in
            var scanner = SourceScanner(bytes: buffer, isSingleByte: source.isSingleByte)
            return scanner.run(maxDepth: maxDepth)
        }
    }

    // MARK: - Moving through the text

    /// The line and column of the byte at `index` (asked for in document order).
    private mutating func location(of index: Int) -> (line: Int32, column: Int32) {
        guard let base = bytes.baseAddress else { return (1, 1) }
        return counter.position(of: index, in: base)
    }

    /// Moves to `target` (at most the end).
    private mutating func advance(to target: Int) {
        position = max(position, min(target, bytes.count))
    }

    /// Moves to the next `<`, or to the end; returns whether there is one.
    private mutating func advanceToOpen() -> Bool {
        guard let open = find(UInt8(ascii: "<"), from: position) else {
            position = bytes.count
            return false
        }
        position = open
        return true
    }

    /// Moves past the `>` closing a tag (from `index`, inside the tag), skipping quoted values;
    /// returns the index of the `>`, or `nil` (having moved to the end) when there is none.
    private mutating func advancePastTag(from index: Int) -> Int? {
        var index = max(index, position)
        var quote: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: ">") {
                position = index + 1
                return index
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            }
            index += 1
        }
        position = bytes.count
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
                let (line, column) = location(of: open)
                if depth + 1 > maxDepth {
                    result.tooDeep = NamedTag(name: text(from: open + 1, to: nameEnd), line: Int(line), column: Int(column))
                    return result
                }
                result.tags.append(
                    Tag(
                        nameStart: Int32(truncatingIfNeeded: open + 1), nameCount: Int32(truncatingIfNeeded: nameEnd - open - 1),
                        line: line, column: column))
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
                let (line, column) = location(of: index)
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
                return NamedTag(name: text(from: nameStart, to: nameEnd), line: Int(line), column: Int(column))
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
