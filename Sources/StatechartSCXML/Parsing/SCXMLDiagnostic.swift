import Foundation

/// One problem found while parsing or validating an SCXML document.
///
/// Its ``description`` has the form compilers use, `file:line:column: error: message`, so editors and
/// terminals can jump to it.
public struct SCXMLDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is: the `<` of the offending element, or the position libxml2 reported.
    public var location: SCXMLSourceLocation
    /// The local name of the element the problem is about (`"transition"`, `"send"`, ...), or `""`
    /// when it concerns the document as a whole (malformed XML, size limit).
    public var element: String
    /// What is wrong and, where possible, what would be right.
    public var message: String

    /// Creates a diagnostic.
    public init(location: SCXMLSourceLocation, element: String, message: String) {
        self.location = location
        self.element = element
        self.message = message
    }

    /// `file:line:column: error: message`.
    public var description: String {
        "\(location.file):\(location.line):\(location.column): error: \(message)"
    }
}

/// The error ``SCXMLParser`` throws: every problem found in the document, in source order.
public struct SCXMLParseError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The problems, sorted by location. Never empty.
    public var diagnostics: [SCXMLDiagnostic]

    /// Creates an error from its diagnostics.
    public init(diagnostics: [SCXMLDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
