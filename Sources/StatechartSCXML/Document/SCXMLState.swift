/// A `<state>`, `<parallel>`, `<final>` or `<history>` element.
///
/// One struct covers all four kinds; the properties that do not apply to a kind stay empty
/// (for example a `<final>` never has transitions, and only `<history>` has a ``historyType``).
public struct SCXMLState: Sendable, Hashable {
    /// The element the state comes from.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `<state>`: atomic when it has no child states, compound otherwise.
        case state
        /// `<parallel>`: all children are active together.
        case parallel
        /// `<final>`: an atomic state that completes its parent.
        case final
        /// `<history>`: a pseudo-state that restores a recorded configuration of its parent.
        case history
    }

    // (`id` is declared before `kind` so that the synthesized memberwise initializer, which the
    // public one calls, has labels of its own.)
    /// The `id` attribute, or a generated id (such as `__state3`) when the element has none.
    /// Generated ids start with `__`, never collide with ids in the document, and depend only on
    /// the document's structure (the number is the state's position in document order).
    public var id: String
    /// The element kind.
    public var kind: Kind
    /// `true` when ``id`` was generated because the element has no `id` attribute.
    public var isGeneratedID: Bool
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The ids in the `initial` attribute of a `<state>`; empty when absent.
    public var initial: [String]
    /// The `<initial>` child of a compound `<state>`, if any.
    public var initialElement: SCXMLInitial?
    /// For `<history>`: its `type` (shallow when absent). `nil` for the other kinds.
    public var historyType: SCXMLHistoryType?
    /// The `<transition>` children, in document order. For `<history>`, the single transition that
    /// gives the default history configuration.
    public var transitions: [SCXMLTransition]
    /// The `<onentry>` handlers, each a separate block, in document order.
    public var onEntry: [SCXMLExecutableBlock]
    /// The `<onexit>` handlers, each a separate block, in document order.
    public var onExit: [SCXMLExecutableBlock]
    /// Child states (`<state>`, `<parallel>`, `<final>`, `<history>`) in document order.
    public var children: [SCXMLState]
    /// The state's `<datamodel>` element, if any.
    public var datamodelElement: SCXMLDataModel?
    /// The `<invoke>` children, in document order.
    public var invokes: [SCXMLInvoke]
    /// For `<final>`: its `<donedata>`, if any.
    public var doneData: SCXMLDoneData?

    /// The child states that are real states, that is, every child except `<history>` pseudo-states.
    public var childStates: [SCXMLState] { children.filter { $0.kind != .history } }

    /// `true` for a `<state>` or `<final>` without child states.
    public var isAtomic: Bool { (kind == .state || kind == .final) && childStates.isEmpty }

    /// `true` for a `<state>` with child states.
    public var isCompound: Bool { kind == .state && !childStates.isEmpty }
}

extension SCXMLState {
    /// Creates a state.
    public init(
        kind: Kind, id: String, isGeneratedID: Bool = false, sourceLocation: SCXMLSourceLocation,
        initial: [String] = [], initialElement: SCXMLInitial? = nil, historyType: SCXMLHistoryType? = nil,
        transitions: [SCXMLTransition] = [], onEntry: [SCXMLExecutableBlock] = [],
        onExit: [SCXMLExecutableBlock] = [], children: [SCXMLState] = [],
        datamodelElement: SCXMLDataModel? = nil, invokes: [SCXMLInvoke] = [], doneData: SCXMLDoneData? = nil
    ) {
        // The synthesized memberwise initializer: one assigning the properties one by one makes
        // the optimizer build the state twice, retaining every part for a copy and releasing the
        // other, for every state of a parsed document.
        self.init(
            id: id, kind: kind, isGeneratedID: isGeneratedID, sourceLocation: sourceLocation, initial: initial,
            initialElement: initialElement, historyType: historyType, transitions: transitions, onEntry: onEntry,
            onExit: onExit, children: children, datamodelElement: datamodelElement, invokes: invokes,
            doneData: doneData)
    }
}

/// The `type` of a `<history>` pseudo-state.
public enum SCXMLHistoryType: String, Sendable, Hashable, CaseIterable {
    /// Records the immediately active children of the parent (the default).
    case shallow
    /// Records the active atomic descendants of the parent.
    case deep
}

/// An `<initial>` element: the default initial transition of a compound state.
public struct SCXMLInitial: Sendable, Hashable {
    /// Where the `<initial>` element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// Its single transition (no event or condition; the targets are descendants of the parent).
    public var transition: SCXMLTransition

    /// Creates an `<initial>` element.
    public init(sourceLocation: SCXMLSourceLocation, transition: SCXMLTransition) {
        self.sourceLocation = sourceLocation
        self.transition = transition
    }
}

/// A `<transition>` element.
public struct SCXMLTransition: Sendable, Hashable {
    // (`events` is declared before `sourceLocation` so that the synthesized memberwise
    // initializer, which the public one calls, has labels of its own.)
    /// The event descriptors of the `event` attribute (split at whitespace); empty for an eventless transition.
    public var events: [String]
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation
    /// The `cond` attribute.
    public var cond: String?
    /// The state ids of the `target` attribute (split at whitespace); empty for a targetless transition.
    public var targets: [String]
    /// The `type` attribute; `.external` when absent.
    public var type: SCXMLTransitionType
    /// The executable content, run when the transition is taken.
    public var actions: [SCXMLExecutable]

}

extension SCXMLTransition {
    /// Creates a transition.
    public init(
        sourceLocation: SCXMLSourceLocation, events: [String] = [], cond: String? = nil,
        targets: [String] = [], type: SCXMLTransitionType = .external, actions: [SCXMLExecutable] = []
    ) {
        // The synthesized memberwise initializer, as in SCXMLState: no copy is made.
        self.init(events: events, sourceLocation: sourceLocation, cond: cond, targets: targets, type: type,
                  actions: actions)
    }
}

/// The `type` of a `<transition>`.
public enum SCXMLTransitionType: String, Sendable, Hashable, CaseIterable {
    /// Exits the source state when the targets are its descendants (the default).
    case external
    /// Does not exit the source state when the targets are its descendants.
    case `internal`
}
