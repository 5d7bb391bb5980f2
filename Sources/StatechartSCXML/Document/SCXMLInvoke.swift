/// An `<invoke>` element: an external service run while its parent state is active.
public struct SCXMLInvoke: Sendable, Hashable {
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// `type` or `typeexpr`; `nil` means the SCXML type.
    public var type: SCXMLValueSource?
    /// `src` or `srcexpr`.
    public var src: SCXMLValueSource?
    /// `id` or `idlocation`.
    public var id: SCXMLIDSource?
    /// The names of the `namelist` attribute (split at whitespace).
    public var namelist: [String]
    /// The `autoforward` attribute; `false` when absent.
    public var autoforward: Bool
    /// The `<param>` children, in document order.
    public var params: [SCXMLParam]
    /// The `<content>` child. For an inline `<scxml>` its value is
    /// `.inline(.document(nestedDocument, markup:))`.
    public var content: SCXMLContent?
    /// The `<finalize>` child, run on each event the invoked service returns.
    public var finalize: SCXMLExecutableBlock?

    /// Creates an `<invoke>` element.
    public init(
        sourceLocation: SCXMLSourceLocation, type: SCXMLValueSource? = nil, src: SCXMLValueSource? = nil,
        id: SCXMLIDSource? = nil, namelist: [String] = [], autoforward: Bool = false,
        params: [SCXMLParam] = [], content: SCXMLContent? = nil, finalize: SCXMLExecutableBlock? = nil
    ) {
        self.sourceLocation = sourceLocation
        self.type = type
        self.src = src
        self.id = id
        self.namelist = namelist
        self.autoforward = autoforward
        self.params = params
        self.content = content
        self.finalize = finalize
    }
}
