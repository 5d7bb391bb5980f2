import Foundation

/// Why a document could not be loaded: parse errors, constraints, or content its datamodel
/// cannot run. Every diagnostic reads `file:line:column: error: message`.
public struct SCXMLLoadError: Error, Sendable, CustomStringConvertible, LocalizedError {
    public var diagnostics: [SCXMLDiagnostic]

    public init(diagnostics: [SCXMLDiagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    public var errorDescription: String? { description }
}
