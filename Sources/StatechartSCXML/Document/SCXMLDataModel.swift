/// A `<datamodel>` element.
public struct SCXMLDataModel: Sendable, Hashable {
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// Its `<data>` children, in document order.
    public var data: [SCXMLData]

    /// Creates a `<datamodel>` element.
    public init(sourceLocation: SCXMLSourceLocation, data: [SCXMLData] = []) {
        self.sourceLocation = sourceLocation
        self.data = data
    }
}

/// A `<data>` element: one variable of the datamodel.
public struct SCXMLData: Sendable, Hashable {
    /// Where the initial value comes from; at most one of these is allowed.
    public enum Value: Sendable, Hashable {
        /// The `expr` attribute: an expression to evaluate.
        case expression(String)
        /// The `src` attribute: a URI to load the value from.
        case src(String)
        /// Inline content: text or XML children.
        case inline(SCXMLInlineContent)
    }

    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The `id` attribute: the variable name.
    public var id: String
    /// The initial value, or `nil` when the variable starts unset.
    public var value: Value?

    /// Creates a `<data>` element.
    public init(sourceLocation: SCXMLSourceLocation, id: String, value: Value? = nil) {
        self.sourceLocation = sourceLocation
        self.id = id
        self.value = value
    }
}

/// Inline children of `<data>`, `<assign>` or `<content>`, kept as written.
public indirect enum SCXMLInlineContent: Sendable, Hashable {
    /// Character data only (CDATA sections included, entities decoded, whitespace kept).
    case text(String)
    /// The children contain elements: the children serialized as XML text, with the namespace
    /// declarations in scope added to each top-level element so the fragment parses on its own.
    case markup(String)
    /// The `<content>` of an `<invoke>` holds one `<scxml>` element: the nested document, parsed and
    /// validated with its own id scope, and its markup as in ``markup(_:)``.
    case document(SCXMLDocument, markup: String)

    /// The text, or the markup of ``markup(_:)`` and ``document(_:markup:)``.
    public var rawText: String {
        switch self {
        case .text(let text): return text
        case .markup(let markup): return markup
        case .document(_, let markup): return markup
        }
    }
}

/// A `<content>` element of `<send>`, `<invoke>` or `<donedata>`.
public struct SCXMLContent: Sendable, Hashable {
    /// The value of the content.
    public enum Value: Sendable, Hashable {
        /// The `expr` attribute.
        case expression(String)
        /// Inline children.
        case inline(SCXMLInlineContent)
    }

    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The value, or `nil` for an empty `<content/>`.
    public var value: Value?

    /// Creates a `<content>` element.
    public init(sourceLocation: SCXMLSourceLocation, value: Value? = nil) {
        self.sourceLocation = sourceLocation
        self.value = value
    }
}

/// A `<param>` element of `<send>`, `<invoke>` or `<donedata>`.
public struct SCXMLParam: Sendable, Hashable {
    /// Where the value comes from.
    public enum Value: Sendable, Hashable {
        /// The `expr` attribute: a value expression.
        case expression(String)
        /// The `location` attribute: a location expression in the datamodel.
        case location(String)
    }

    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The `name` attribute: the key.
    public var name: String
    /// The value, or `nil` when neither `expr` nor `location` is given.
    public var value: Value?

    /// Creates a `<param>` element.
    public init(sourceLocation: SCXMLSourceLocation, name: String, value: Value? = nil) {
        self.sourceLocation = sourceLocation
        self.name = name
        self.value = value
    }
}

/// A `<donedata>` element of a `<final>` state: the data of its `done.state.*` event.
public struct SCXMLDoneData: Sendable, Hashable {
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The `<content>` child (never together with params).
    public var content: SCXMLContent?
    /// The `<param>` children, in document order.
    public var params: [SCXMLParam]

    /// Creates a `<donedata>` element.
    public init(sourceLocation: SCXMLSourceLocation, content: SCXMLContent? = nil, params: [SCXMLParam] = []) {
        self.sourceLocation = sourceLocation
        self.content = content
        self.params = params
    }
}

/// An attribute pair of which one may be given: a literal value, or an expression that computes it
/// (`event`/`eventexpr`, `target`/`targetexpr`, `type`/`typeexpr`, `delay`/`delayexpr`,
/// `src`/`srcexpr`, `sendid`/`sendidexpr`).
public enum SCXMLValueSource: Sendable, Hashable {
    /// The plain attribute, such as `event="done"`.
    case literal(String)
    /// The `...expr` attribute, such as `eventexpr="'do' + 'ne'"`.
    case expression(String)
}

/// The `id`/`idlocation` pair of `<send>` and `<invoke>`. These ids name sends and invocations, not
/// states, and live in their own namespace.
public enum SCXMLIDSource: Sendable, Hashable {
    /// The `id` attribute.
    case literal(String)
    /// The `idlocation` attribute: where the processor stores the id it generates.
    case location(String)
}
