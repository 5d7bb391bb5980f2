/// One thing wrong with a chart definition, naming the offending element.
///
/// `description` reads `file:line:column: error: message` for imported charts and
/// `chart/parent/state: error: message` for charts built in code.
public struct ChartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake this is, for programmatic handling.
    public enum Code: String, Sendable, Hashable {
        case emptyChart, duplicateID, emptyID, unknownTarget, invalidInitial, invalidTargets
        case misplacedHistory, invalidHistory, invalidFinal, invalidParallel, invalidDescriptor
        case tooDeep, tooLarge, internalInconsistency
    }

    public var code: Code
    /// Path of the offending element: chart name, then state ids (`"player/playing"`), and
    /// for transitions a suffix such as `" transition #2 (on 'play')"`.
    public var path: String
    public var location: SourceLocation?
    public var message: String

    public init(_ code: Code, path: String, location: SourceLocation? = nil, _ message: String) {
        self.code = code
        self.path = path
        self.location = location
        self.message = message
    }

    public var description: String {
        "\(location.map { $0.description } ?? path): error: \(message)"
    }
}

/// Thrown by ``CompiledChart/init(_:)``: every error found in the definition, in document order.
public struct ChartCompilationError: Error, Sendable, CustomStringConvertible {
    public var errors: [ChartError]

    public init(_ errors: [ChartError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
