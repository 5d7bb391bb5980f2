/// A parsed and statically validated SCXML 1.0 document: the `<scxml>` root and everything in it.
///
/// ```swift
/// let document = try SCXMLParser.parse(contentsOf: url)
/// for state in document.allStates { print(state.id, state.kind, state.sourceLocation) }
/// ```
public struct SCXMLDocument: Sendable, Hashable {
    /// The SCXML namespace, `http://www.w3.org/2005/07/scxml`.
    public static let namespace = "http://www.w3.org/2005/07/scxml"

    /// Where the `<scxml>` element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The `name` attribute.
    public var name: String?
    /// The `version` attribute (always `"1.0"` in a valid document).
    public var version: String
    /// The ids in the `initial` attribute; empty when it is absent (the first child state is initial).
    public var initial: [String]
    /// The `datamodel` attribute (`"null"`, `"ecmascript"`, ...), or `nil` when absent
    /// (the platform-specific default).
    public var datamodel: String?
    /// The `binding` attribute; `.early` when absent.
    public var binding: SCXMLBinding
    /// The top-level `<datamodel>` element, if any.
    public var datamodelElement: SCXMLDataModel?
    /// The top-level `<script>`, run once when the document is loaded.
    public var script: SCXMLScript?
    /// The top-level `<state>`, `<parallel>` and `<final>` children, in document order.
    public var states: [SCXMLState]
    /// What the document gets wrong but loads anyway, with the meaning it was given (a
    /// `<history>` without a default transition, ...; docs/COMPATIBILITY.md), in document order.
    /// Empty for a document parsed strictly: there these are errors.
    public var warnings: [SCXMLDiagnostic] = []
    /// The examples of events the document gives for test paths (`<test:event>` elements in
    /// ``SCXMLEventExample/namespace``), in document order; not those of documents nested in
    /// `<invoke><content>`.
    public var eventExamples: [SCXMLEventExample] = []
    /// How deep the document's elements nest (the root is 1), as the parser found it; 0 when
    /// unknown (a document built in code). Passes over the model recurse this deep.
    package var nestingDepth = 0

    /// Creates a document.
    public init(
        sourceLocation: SCXMLSourceLocation, name: String? = nil, version: String = "1.0",
        initial: [String] = [], datamodel: String? = nil, binding: SCXMLBinding = .early,
        datamodelElement: SCXMLDataModel? = nil, script: SCXMLScript? = nil, states: [SCXMLState] = []
    ) {
        self.sourceLocation = sourceLocation
        self.name = name
        self.version = version
        self.initial = initial
        self.datamodel = datamodel
        self.binding = binding
        self.datamodelElement = datamodelElement
        self.script = script
        self.states = states
    }

    /// Every state of the document (all kinds, history included) in document order, parents before
    /// their children. States of documents nested in `<invoke><content>` are not included.
    public var allStates: [SCXMLState] {
        var result: [SCXMLState] = []
        func visit(_ states: [SCXMLState]) {
            for state in states {
                result.append(state)
                visit(state.children)
            }
        }
        visit(states)
        return result
    }

    /// The state with the given id (user-written or generated), searching depth-first in document order.
    public func state(withID id: String) -> SCXMLState? {
        func find(_ states: [SCXMLState]) -> SCXMLState? {
            for state in states {
                if state.id == id { return state }
                if let found = find(state.children) { return found }
            }
            return nil
        }
        return find(states)
    }
}

/// When the datamodel's `<data>` elements are initialized (`binding` attribute of `<scxml>`).
public enum SCXMLBinding: String, Sendable, Hashable, CaseIterable {
    /// All data is created and initialized when the document starts (the default).
    case early
    /// Each state's data is initialized when the state is first entered.
    case late
}
