import Foundation

// Attribute values that held references, decoded as libxml2's tree builder would.

extension SAXState {
    /// A value libxml2 copied because it held references: every `&` it kept starts `&#38;`
    /// (an escaped ampersand); any other reference names an undeclared entity and is dropped.
    mutating func appendDecodedValue(_ raw: UnsafeBufferPointer<UInt8>, element: XMLTree.Index) {
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
}
