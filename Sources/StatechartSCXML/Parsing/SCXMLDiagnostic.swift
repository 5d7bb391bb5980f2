import Foundation

/// One problem found while parsing or validating an SCXML document.
///
/// Its ``description`` has the form compilers use, `file:line:column: error: message` (or
/// `warning:`), so editors and terminals can jump to it.
///
/// ```swift
/// let machine = try SCXMLMachine(contentsOf: url)
/// for warning in machine.warnings { print(warning) }   // chart.scxml:7:5: warning: ...
/// ```
public struct SCXMLDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is: an error refuses the document; a warning marks something
    /// the document gets wrong but that has one obvious meaning, which the loader gives it
    /// (docs/COMPATIBILITY.md lists each), unless it loads strictly.
    public struct Severity: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Hashable { case error, warning }
        private let kind: Kind

        /// The document is refused.
        public static let error = Severity(kind: .error)
        /// The document is accepted with the meaning the message states; a strict load refuses it.
        public static let warning = Severity(kind: .warning)

        /// `error` or `warning`, as printed.
        public var description: String {
            switch kind {
            case .error: "error"
            case .warning: "warning"
            }
        }
    }

    /// Where the problem is: the `<` of the offending element, or the position libxml2 reported.
    public var location: SCXMLSourceLocation
    /// The local name of the element the problem is about (`"transition"`, `"send"`, ...), or `""`
    /// when it concerns the document as a whole (malformed XML, size limit).
    public var element: String
    /// What is wrong and, where possible, what would be right.
    public var message: String
    /// ``Severity/error`` unless stated otherwise.
    public var severity: Severity

    /// Creates a diagnostic.
    public init(location: SCXMLSourceLocation, element: String, message: String, severity: Severity = .error) {
        self.location = location
        self.element = element
        self.message = message
        self.severity = severity
    }

    /// `file:line:column: error: message` (or `warning:`).
    public var description: String {
        "\(location.file):\(location.line):\(location.column): \(severity): \(message)"
    }

    /// Whether this is an error (not a warning).
    public var isError: Bool { severity == .error }

    /// The same diagnostic as an error: what a strict load makes of a warning.
    public var asError: SCXMLDiagnostic {
        var copy = self
        copy.severity = .error
        return copy
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
