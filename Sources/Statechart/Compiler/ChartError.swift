/// One thing wrong with a chart definition, naming the offending element.
///
/// `description` reads `file:line:column: error: message` for imported charts and
/// `chart/parent/state: error: message` for charts built in code.
public struct ChartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake this is, for programmatic handling.
    public enum Code: String, Sendable, Hashable {
        /// The chart has no state.
        case emptyChart
        /// Two states share an id.
        case duplicateID
        /// A state has an empty id.
        case emptyID
        /// A transition, initial or history default names no state.
        case unknownTarget
        /// An initial state is missing, misplaced, or conflicts with another.
        case invalidInitial
        /// A transition's targets cannot be active together.
        case invalidTargets
        /// A history state is not a child of a compound or parallel state.
        case misplacedHistory
        /// A history state has no valid default transition, or has content it cannot have.
        case invalidHistory
        /// A final state has children or transitions.
        case invalidFinal
        /// A parallel state has an initial state or no child.
        case invalidParallel
        /// An event descriptor or event name is malformed.
        case invalidDescriptor
        /// States are nested too deeply.
        case tooDeep
        /// Never reported: the core's ids are 32-bit, so no chart that fits in memory exceeds
        /// them. Kept so code that names it still compiles.
        @available(*, deprecated, message: "never reported")
        case tooLarge
        /// An entry or exit action written outside every state (at the top level of a typed
        /// chart): the chart itself is never entered or exited.
        case actionOutsideState
        /// The compiler produced tables the core rejects (a bug; please report it).
        case internalInconsistency
    }

    /// What kind of mistake this is.
    public var code: Code
    /// Path of the offending element: chart name, then state ids (`"player/playing"`), and
    /// for transitions a suffix such as `" transition #2 (on 'play')"`.
    public var path: String
    /// Where the offending element was written (SCXML file or DSL call), when known.
    public var location: SourceLocation?
    /// What was wrong and what would be right.
    public var message: String

    /// An error of kind `code` about the element at `path`.
    public init(_ code: Code, path: String, location: SourceLocation? = nil, _ message: String) {
        self.code = code
        self.path = path
        self.location = location
        self.message = message
    }

    /// `location: error: message`, or `path: error: message` when the location is unknown.
    public var description: String {
        "\(location.map { $0.description } ?? path): error: \(message)"
    }
}

/// Thrown by ``CompiledChart/init(_:)``: every error found in the definition, in document order.
public struct ChartCompilationError: Error, Sendable, CustomStringConvertible {
    /// The problems, in document order.
    public var errors: [ChartError]

    /// An error listing `errors`.
    public init(_ errors: [ChartError]) { self.errors = errors }

    /// One line per problem.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
