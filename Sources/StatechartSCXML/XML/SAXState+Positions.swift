import CLibXML2
import Foundation

// Where each start tag is: counted from the document's bytes while libxml2 reads them, or
// given afterwards from SourceScanner's tags when that is not certain.

extension SAXState {
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
    mutating func locate(_ context: xmlParserCtxtPtr, prefix: UnsafePointer<xmlChar>?, local: UnsafePointer<xmlChar>) -> Bool {
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
        (line, column) = counter.position(of: open, in: base)
        scanned = open
        return true
    }
}
