// The lexical rules of SCXML's names, from its schema (scxml-datatypes.xsd): a state id is an
// XML ID (an NCName: XML 1.0's Name without ':'); an event name is tokens of name characters
// separated by single dots; an event descriptor is an event name optionally ending in `.*`,
// or `*` (also written `.*`). Pure functions, checked on every id and event of a document:
// ASCII text (nearly all) by bytes, the rest by Unicode scalar.

enum NameSyntax {
    /// Whether `id` is an XML ID (NCName): `door`, `s_1`, `W.1xx`, `état`; not `1`, `-a`, `a b`.
    static func isXMLID(_ id: String) -> Bool {
        if let ascii = asciiBytes(id, { bytes in
            guard let first = bytes.first, isASCIINameStart(first) else { return false }
            return bytes.dropFirst().allSatisfy { isASCIINameStart($0) || $0 == 0x2D || $0 == 0x2E || isASCIIDigit($0) }
        }) {
            return ascii
        }
        guard let first = id.unicodeScalars.first, isNameStart(first) else { return false }
        return id.unicodeScalars.dropFirst().allSatisfy(isNameCharacter)
    }

    /// Whether `name` is an event name: `door.open`, `reply.2xx`, `error.execution`; not `.a`,
    /// `a.`, `a..b`, `in valid`, `a.*`.
    static func isEventName(_ name: String) -> Bool {
        if let ascii = asciiBytes(name, { bytes in
            var previousWasDot = true   // a name cannot start with a dot
            for byte in bytes {
                if byte == 0x2E {
                    if previousWasDot { return false }
                    previousWasDot = true
                } else if isASCIINameStart(byte) || byte == 0x2D || byte == 0x3A || isASCIIDigit(byte) {
                    previousWasDot = false
                } else {
                    return false
                }
            }
            return !previousWasDot      // nor end with one (or be empty)
        }) {
            return ascii
        }
        let tokens = name.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false)
        return tokens.allSatisfy { token in !token.isEmpty && token.allSatisfy(isEventCharacter) }
    }

    /// Whether `descriptor` (one token of a transition's `event`) is an event descriptor: an
    /// event name, the same ending in `.*`, or `*` / `.*` (any event).
    static func isEventDescriptor(_ descriptor: String) -> Bool {
        if descriptor == "*" || descriptor == ".*" { return true }
        if descriptor.hasSuffix(".*") { return isEventName(String(descriptor.dropLast(2))) }
        return isEventName(descriptor)
    }

    /// `body` over the UTF-8 bytes of `text` when they are all ASCII; `nil` otherwise.
    private static func asciiBytes(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool? {
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } ? body(bytes) : nil }
    }

    private static func isASCIINameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F   // A-Z a-z _
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// XML 1.0 (fifth edition) NameStartChar without ':'.
    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: return true   // A-Z a-z _
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
             0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD,
             0x10000...0xEFFFF:
            return true
        default: return false
        }
    }

    /// XML 1.0 (fifth edition) NameChar without ':'.
    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true   // - . 0-9 · marks
        default: return isNameStart(scalar)
        }
    }

    /// A character of an event name's token (the schema's `\i|\d|-`): a name start character,
    /// ':', a digit or '-'.
    private static func isEventCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2D, 0x3A, 0x30...0x39: return true   // - : 0-9
        default: return isNameStart(scalar)
        }
    }
}
