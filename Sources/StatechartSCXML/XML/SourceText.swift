import Foundation

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
