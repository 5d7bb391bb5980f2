/// A block of executable content: an `<onentry>`, `<onexit>` or `<finalize>` element.
public struct SCXMLExecutableBlock: Sendable, Hashable {
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// Its executable content, in document order.
    public var actions: [SCXMLExecutable]

    /// Creates a block.
    public init(sourceLocation: SCXMLSourceLocation, actions: [SCXMLExecutable] = []) {
        self.sourceLocation = sourceLocation
        self.actions = actions
    }
}

/// One element of executable content.
public indirect enum SCXMLExecutable: Sendable, Hashable {
    /// `<raise>`
    case raise(SCXMLRaise)
    /// `<if>` with its `<elseif>` and `<else>` branches
    case `if`(SCXMLIf)
    /// `<foreach>`
    case foreach(SCXMLForeach)
    /// `<log>`
    case log(SCXMLLog)
    /// `<assign>`
    case assign(SCXMLAssign)
    /// `<script>`
    case script(SCXMLScript)
    /// `<send>`
    case send(SCXMLSend)
    /// `<cancel>`
    case cancel(SCXMLCancel)

    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation {
        switch self {
        case .raise(let node): return node.sourceLocation
        case .if(let node): return node.sourceLocation
        case .foreach(let node): return node.sourceLocation
        case .log(let node): return node.sourceLocation
        case .assign(let node): return node.sourceLocation
        case .script(let node): return node.sourceLocation
        case .send(let node): return node.sourceLocation
        case .cancel(let node): return node.sourceLocation
        }
    }

    /// The element's name: `"raise"`, `"if"`, `"foreach"`, `"log"`, `"assign"`, `"script"`, `"send"` or `"cancel"`.
    public var elementName: String {
        switch self {
        case .raise: return "raise"
        case .if: return "if"
        case .foreach: return "foreach"
        case .log: return "log"
        case .assign: return "assign"
        case .script: return "script"
        case .send: return "send"
        case .cancel: return "cancel"
        }
    }
}

/// `<raise event="...">`: puts an internal event on the internal queue.
public struct SCXMLRaise: Sendable, Hashable {
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The `event` attribute.
    public var event: String

    /// Creates a `<raise>` element.
    public init(sourceLocation: SCXMLSourceLocation, event: String) {
        self.sourceLocation = sourceLocation
        self.event = event
    }
}

/// `<if cond>`, its `<elseif cond>` and `<else>` children, as a list of branches.
public struct SCXMLIf: Sendable, Hashable {
    /// One branch: the `<if>` itself, an `<elseif>`, or the `<else>`.
    public struct Branch: Sendable, Hashable {
        /// Where the `<if>`, `<elseif>` or `<else>` element starts.
        public var sourceLocation: SCXMLSourceLocation
        /// The condition; `nil` only for the `<else>` branch, which is always last.
        public var cond: String?
        /// The executable content of the branch.
        public var actions: [SCXMLExecutable]

        /// Creates a branch.
        public init(sourceLocation: SCXMLSourceLocation, cond: String?, actions: [SCXMLExecutable] = []) {
            self.sourceLocation = sourceLocation
            self.cond = cond
            self.actions = actions
        }
    }

    /// Where the `<if>` element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The branches in document order: first the `<if>`'s own, then each `<elseif>`, then the `<else>`.
    public var branches: [Branch]

    /// Creates an `<if>` element.
    public init(sourceLocation: SCXMLSourceLocation, branches: [Branch]) {
        self.sourceLocation = sourceLocation
        self.branches = branches
    }
}

/// `<foreach array item index>`: runs its content once per item of a collection.
public struct SCXMLForeach: Sendable, Hashable {
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The `array` attribute: an expression giving the collection.
    public var array: String
    /// The `item` attribute: the variable that receives each item.
    public var item: String
    /// The `index` attribute: the variable that receives each index.
    public var index: String?
    /// The executable content run for each item.
    public var actions: [SCXMLExecutable]

    /// Creates a `<foreach>` element.
    public init(
        sourceLocation: SCXMLSourceLocation, array: String, item: String, index: String? = nil,
        actions: [SCXMLExecutable] = []
    ) {
        self.sourceLocation = sourceLocation
        self.array = array
        self.item = item
        self.index = index
        self.actions = actions
    }
}

/// `<log label expr>`.
public struct SCXMLLog: Sendable, Hashable {
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The `label` attribute.
    public var label: String?
    /// The `expr` attribute.
    public var expr: String?

    /// Creates a `<log>` element.
    public init(sourceLocation: SCXMLSourceLocation, label: String? = nil, expr: String? = nil) {
        self.sourceLocation = sourceLocation
        self.label = label
        self.expr = expr
    }
}

/// `<assign location expr>` or `<assign location>` with inline content.
public struct SCXMLAssign: Sendable, Hashable {
    /// The value to assign.
    public enum Value: Sendable, Hashable {
        /// The `expr` attribute.
        case expression(String)
        /// Inline children.
        case inline(SCXMLInlineContent)
    }

    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The `location` attribute: the location expression to assign to.
    public var location: String
    /// The value, or `nil` when neither `expr` nor content is given.
    public var value: Value?

    /// Creates an `<assign>` element.
    public init(sourceLocation: SCXMLSourceLocation, location: String, value: Value? = nil) {
        self.sourceLocation = sourceLocation
        self.location = location
        self.value = value
    }
}

/// `<script src>` or `<script>` with inline code.
public struct SCXMLScript: Sendable, Hashable {
    /// Where the code comes from.
    public enum Source: Sendable, Hashable {
        /// The `src` attribute: a URI to load the code from (at load time).
        case src(String)
        /// The element's text (possibly empty).
        case inline(String)
    }

    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The code.
    public var source: Source

    /// Creates a `<script>` element.
    public init(sourceLocation: SCXMLSourceLocation, source: Source) {
        self.sourceLocation = sourceLocation
        self.source = source
    }
}

/// `<send>`: sends an event to the session itself or to another target.
public struct SCXMLSend: Sendable, Hashable {
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// `event` or `eventexpr`.
    public var event: SCXMLValueSource?
    /// `target` or `targetexpr`.
    public var target: SCXMLValueSource?
    /// `type` or `typeexpr`.
    public var type: SCXMLValueSource?
    /// `id` or `idlocation`.
    public var id: SCXMLIDSource?
    /// `delay` or `delayexpr`. A literal delay is valid CSS2 time syntax (see ``SCXMLTime/parseDelay(_:)``).
    public var delay: SCXMLValueSource?
    /// The names of the `namelist` attribute (split at whitespace).
    public var namelist: [String]
    /// The `<param>` children, in document order.
    public var params: [SCXMLParam]
    /// The `<content>` child.
    public var content: SCXMLContent?

    /// Creates a `<send>` element.
    public init(
        sourceLocation: SCXMLSourceLocation, event: SCXMLValueSource? = nil, target: SCXMLValueSource? = nil,
        type: SCXMLValueSource? = nil, id: SCXMLIDSource? = nil, delay: SCXMLValueSource? = nil,
        namelist: [String] = [], params: [SCXMLParam] = [], content: SCXMLContent? = nil
    ) {
        self.sourceLocation = sourceLocation
        self.event = event
        self.target = target
        self.type = type
        self.id = id
        self.delay = delay
        self.namelist = namelist
        self.params = params
        self.content = content
    }
}

/// `<cancel sendid>` or `<cancel sendidexpr>`: cancels a delayed `<send>`.
public struct SCXMLCancel: Sendable, Hashable {
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// `sendid` or `sendidexpr`.
    public var sendID: SCXMLValueSource

    /// Creates a `<cancel>` element.
    public init(sourceLocation: SCXMLSourceLocation, sendID: SCXMLValueSource) {
        self.sourceLocation = sourceLocation
        self.sendID = sendID
    }
}
