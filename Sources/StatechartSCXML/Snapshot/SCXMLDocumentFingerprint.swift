/// Identifies a document for ``SCXMLSnapshot``: a hash of its canonical text
/// (``SCXMLDocument/scxml()``, which leaves out layout, comments and source positions), so the
/// same document loaded from another file or reformatted still matches, and any change to its
/// states, transitions, content or data does not.
///
/// ```swift
/// let fingerprint = SCXMLDocumentFingerprint(machine.document)
/// print(fingerprint.hash)          // "fnv1a64:5d1c..."
/// ```
///
/// The hash is 64-bit FNV-1a: it detects a different document by mistake, not a forgery.
public struct SCXMLDocumentFingerprint: Codable, Sendable, Hashable {
    /// The document's `name` attribute, if any (informational, for error messages).
    public var name: String?
    /// `fnv1a64:` and sixteen hex digits.
    public var hash: String

    /// The fingerprint of `document`.
    ///
    /// - Complexity: O(size of the document), writing it as text once.
    public init(_ document: SCXMLDocument) {
        name = document.name
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in document.scxml().utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        let digits = String(value, radix: 16)
        hash = "fnv1a64:" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
