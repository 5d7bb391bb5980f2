// Whitespace tests on document text, by bytes when the text is ASCII (nearly always: ids,
// names, indentation), else by Character, so the results are exactly `Character.isWhitespace`'s.

extension StringProtocol {
    /// Whether every character is whitespace (`allSatisfy(\.isWhitespace)`); true for "".
    var isBlank: Bool {
        var ascii = true
        for byte in utf8 {
            if byte >= 0x80 { ascii = false; break }
            if !isASCIIWhitespace(byte) { return false }
        }
        return ascii || allSatisfy(\.isWhitespace)
    }

    /// Whether some character is whitespace (`contains(where: \.isWhitespace)`).
    var containsWhitespace: Bool {
        for byte in utf8 {
            if byte >= 0x80 { return contains(where: \.isWhitespace) }
            if isASCIIWhitespace(byte) { return true }
        }
        return false
    }
}

/// Tab, line feed, vertical tab, form feed, carriage return and space: the ASCII characters
/// `Character.isWhitespace` accepts.
@inline(__always)
func isASCIIWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
