import Foundation

// libxml2 2.9 records only a line per node (and that line is where the start tag *ends*), so the
// positions of elements come from this lexical pre-scan of the source: it finds every start tag in
// document order, which is the order of the elements in the parsed tree. In well-formed XML a `<`
// can only open markup (it cannot occur in attribute values or text), so skipping comments, CDATA
// sections, processing instructions and the DOCTYPE is enough to see every start tag.
//
// The same scan enforces the nesting-depth limit and refuses entity declarations before libxml2
// ever sees the document.

/// The source text as UTF-8 (or single-byte) code units, ready for ``SourceScanner``.
struct SourceText {
    /// The bytes to scan.
    var bytes: [UInt8]
    /// Every byte is one character (a single-byte encoding such as ISO-8859-1).
    var isSingleByte: Bool

    /// Converts the raw document to bytes whose lines and columns match what libxml2 sees.
    init(data: Data) {
        let raw = [UInt8](data)
        func declaredEncoding() -> String? {
            // The encoding pseudo-attribute of an XML declaration at the very start.
            guard raw.starts(with: Array("<?xml".utf8)) else { return nil }
            let end = raw.firstIndex(of: UInt8(ascii: ">")) ?? min(raw.count, 200)
            let declaration = String(decoding: raw[..<end], as: UTF8.self)
            guard let range = declaration.range(of: "encoding") else { return nil }
            let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
            return String(rest.dropFirst().prefix { $0 != quote }).lowercased()
        }
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
    /// A start tag: its qualified name and the position of its `<`.
    struct Tag: Sendable {
        var name: String
        var line: Int
        var column: Int
    }

    /// What the scan found.
    struct Result: Sendable {
        /// Every start tag in document order (up to the first problem below).
        var tags: [Tag] = []
        /// The first start tag nested deeper than the limit.
        var tooDeep: Tag?
        /// The first `<!ENTITY` declaration: the entity's name and the declaration's position.
        var entityDeclaration: Tag?
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let isSingleByte: Bool
    private var position = 0
    private var line = 1
    private var column = 1

    private init(bytes: UnsafeBufferPointer<UInt8>, isSingleByte: Bool) {
        self.bytes = bytes
        self.isSingleByte = isSingleByte
    }

    /// Scans `source`, stopping at the first start tag deeper than `maxDepth` or the first entity declaration.
    static func scan(_ source: SourceText, maxDepth: Int) -> Result {
        source.bytes.withUnsafeBufferPointer { buffer in
            var scanner = SourceScanner(bytes: buffer, isSingleByte: source.isSingleByte)
            return scanner.run(maxDepth: maxDepth)
        }
    }

    // MARK: - Moving through the text

    /// Moves to `target`, keeping line and column up to date.
    private mutating func advance(to target: Int) {
        let end = min(target, bytes.count)
        while position < end {
            let byte = bytes[position]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if isSingleByte || byte & 0xC0 != 0x80 {
                column += 1
            }
            position += 1
        }
    }

    private func hasPrefix(_ text: StaticString, at index: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = text.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    private func find(_ byte: UInt8, from index: Int) -> Int? {
        var index = index
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
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

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: ">")
    }

    /// The index of the `>` closing a tag that starts at `index`, skipping quoted values.
    private func tagEnd(from index: Int) -> Int? {
        var quote: UInt8? = nil
        var index = index
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return nil
    }

    // MARK: - The scan

    private mutating func run(maxDepth: Int) -> Result {
        var result = Result()
        var depth = 0
        while let open = find(UInt8(ascii: "<"), from: position) {
            advance(to: open)
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
            } else if hasPrefix("<!", at: open) || hasPrefix("</", at: open) {
                if hasPrefix("</", at: open) { depth -= 1 }
                guard let end = tagEnd(from: open + 2) else { break }
                advance(to: end + 1)
            } else {
                var nameEnd = open + 1
                while nameEnd < bytes.count && !Self.isNameEnd(bytes[nameEnd]) { nameEnd += 1 }
                let tag = Tag(name: text(from: open + 1, to: nameEnd), line: line, column: column)
                if depth + 1 > maxDepth {
                    result.tooDeep = tag
                    return result
                }
                result.tags.append(tag)
                guard let end = tagEnd(from: nameEnd) else { break }
                if bytes[end - 1] != UInt8(ascii: "/") { depth += 1 }
                advance(to: end + 1)
            }
        }
        return result
    }

    /// Skips a DOCTYPE declaration starting at `position`. Returns the first entity declaration of
    /// its internal subset, if any.
    private mutating func scanDoctype() -> Tag? {
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
                return Tag(name: text(from: nameStart, to: nameEnd), line: line, column: column)
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
