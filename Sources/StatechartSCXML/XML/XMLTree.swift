// The parsed XML, held in flat arrays so that libxml2 stays inside the reader (LibXML2Reader,
// SAXState) and the SCXML builder works on plain values without one allocation per node: a record
// per node, names interned once per document, and text and attribute values as byte ranges of one
// buffer (turned into strings only when the builder asks for them).

/// A parsed XML document: the root element and everything in it. Immutable once parsed (a class,
/// so that readers share its arrays without retaining them on every access).
final class XMLTree {
    /// A node's position in ``nodes``.
    typealias Index = Int32

    enum Kind: UInt8, Sendable {
        case element, text, cdata, comment, processingInstruction
    }

    /// One node. Names are indices into ``strings`` (-1 when absent); text, comments and
    /// processing-instruction data are byte ranges of ``bytes``.
    struct Node: Sendable {
        var kind: Kind
        /// A text or CDATA node whose bytes are all ASCII whitespace (the indentation between
        /// elements), known from when it was read: tested without reading the text again.
        var isASCIIBlank = false
        /// An element's local name, a processing instruction's target.
        var name: Int32 = -1
        var prefix: Int32 = -1
        var namespace: Int32 = -1
        var parent: Index = -1
        var firstChild: Index = -1
        var lastChild: Index = -1
        var nextSibling: Index = -1
        var firstAttribute: Int32 = 0
        var attributeCount: Int32 = 0
        var firstDeclaration: Int32 = 0
        var declarationCount: Int32 = 0
        var textStart: Int32 = 0
        var textCount: Int32 = 0
        var line: Int32 = 0
        var column: Int32 = 0

        init(kind: Kind) { self.kind = kind }
    }

    /// An attribute (namespace declarations are not attributes here).
    struct Attribute: Sendable {
        var name: Int32
        var prefix: Int32
        var namespace: Int32
        var valueStart: Int32
        var valueCount: Int32
    }

    /// A namespace declaration (`xmlns="..."` when `prefix` is -1, `xmlns:p="..."` otherwise).
    struct Declaration: Sendable {
        var prefix: Int32
        var uri: Int32
    }

    /// The tree while it is being built. Its buffers are handed to the tree (or deallocated with
    /// ``deallocate()`` when no tree is made).
    struct Parts {
        var nodes: GrowableBuffer<Node>
        var attributes: GrowableBuffer<Attribute>
        var declarations = GrowableBuffer<Declaration>(capacity: 4)
        var strings: [String] = []
        var bytes: GrowableBuffer<UInt8>
        var scxmlNamespace: Int32 = -2

        /// Buffers sized for a document of `size` bytes.
        init(documentSize size: Int) {
            nodes = GrowableBuffer(capacity: max(size / 24, 16))
            attributes = GrowableBuffer(capacity: max(size / 40, 16))
            bytes = GrowableBuffer(capacity: max(size / 4, 64))
        }

        func deallocate() {
            nodes.deallocate()
            attributes.deallocate()
            declarations.deallocate()
            bytes.deallocate()
        }
    }

    /// Read access to the tree, valid while the tree lives: plain pointers, so readers copy it
    /// freely and reach any node without retaining anything.
    let view: XMLTreeView

    private let nodes: UnsafeMutableBufferPointer<Node>
    private let attributes: UnsafeMutableBufferPointer<Attribute>
    private let declarations: UnsafeMutableBufferPointer<Declaration>
    private let strings: UnsafeMutableBufferPointer<String>
    private let nameCodes: UnsafeMutableBufferPointer<SCXMLName>
    private let bytes: UnsafeMutableBufferPointer<UInt8>

    /// A tree owning the buffers of `parts`.
    init(_ parts: Parts) {
        func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
            _ = buffer.initialize(from: array)
            return UnsafeMutableBufferPointer(rebasing: buffer[0..<array.count])
        }
        nodes = parts.nodes.buffer
        attributes = parts.attributes.buffer
        declarations = parts.declarations.buffer
        strings = copy(parts.strings)
        nameCodes = copy(parts.strings.map(SCXMLName.init))
        bytes = parts.bytes.buffer
        view = XMLTreeView(
            nodes: UnsafeBufferPointer(nodes), attributes: UnsafeBufferPointer(attributes),
            declarations: UnsafeBufferPointer(declarations), strings: UnsafeBufferPointer(strings),
            nameCodes: UnsafeBufferPointer(nameCodes), bytes: UnsafeBufferPointer(bytes),
            scxmlNamespace: parts.scxmlNamespace)
    }

    deinit {
        _ = strings.deinitialize()
        strings.baseAddress?.deallocate()
        nameCodes.baseAddress?.deallocate()
        nodes.baseAddress?.deallocate()
        attributes.baseAddress?.deallocate()
        declarations.baseAddress?.deallocate()
        bytes.baseAddress?.deallocate()
    }
}
