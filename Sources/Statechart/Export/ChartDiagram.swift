/// The shape of a chart without its behaviour: states, how they nest, which are initial, and the
/// transitions with the events and conditions that label them. It is what the DOT and Mermaid
/// writers draw (``dot()``, ``mermaid()``), made from a ``ChartDefinition`` (a typed DSL chart's
/// ``TypedChart/definition`` included) or, in StatechartSCXML, from an `SCXMLDocument`.
///
/// ```swift
/// let chart = ChartDefinition(name: "turnstile", states: [
///     StateDefinition("locked", transitions: [TransitionDefinition(on: "coin", to: "unlocked")]),
///     StateDefinition("unlocked", transitions: [TransitionDefinition(on: "push", to: "locked")]),
/// ])
/// let diagram = ChartDiagram(chart)
/// print(diagram.dot())        // digraph "turnstile" { ... }, for `dot -Tsvg`
/// print(diagram.mermaid())    // stateDiagram-v2 ...
/// ```
public struct ChartDiagram: Sendable, Hashable {
    /// What a state is drawn as.
    public enum Kind: Sendable, Hashable {
        /// `<state>`: a box when atomic, a cluster when it has children.
        case state
        /// `<parallel>`: a cluster whose child regions are drawn dashed (DOT) or separated by
        /// `--` (Mermaid).
        case parallel
        /// `<final>`: a double-bordered box (DOT), a transition to `[*]` (Mermaid).
        case final
        /// `<history>`: a circle labelled `H` (shallow) or `H*` (deep); its default transition
        /// is drawn dashed.
        case history(HistoryType)
    }

    /// One state and its children.
    public struct State: Sendable, Hashable {
        /// The state's id.
        public var id: String
        /// What it is drawn as.
        public var kind: Kind
        /// The ids its default entry goes to (`initial` attribute or `<initial>` transition);
        /// empty means the first child state in document order.
        public var initial: [String]
        /// Child states in document order.
        public var children: [State]
        /// Outgoing transitions in document order; for a history state, its default transition.
        public var transitions: [Transition]

        /// A state with every part given.
        public init(id: String, kind: Kind = .state, initial: [String] = [], children: [State] = [],
                    transitions: [Transition] = []) {
            self.id = id
            self.kind = kind
            self.initial = initial
            self.children = children
            self.transitions = transitions
        }
    }

    /// One transition as a labelled arrow.
    public struct Transition: Sendable, Hashable {
        /// Event descriptors; empty for an eventless transition.
        public var events: [String]
        /// The condition's text, drawn in brackets after the events (`coin [credit > 0]`);
        /// `nil` when the transition has none. A Swift guard, which has no text, is `"guard"`.
        public var condition: String?
        /// Target ids; empty for a targetless transition (drawn as a dotted loop).
        public var targets: [String]

        /// A transition with every part given.
        public init(events: [String] = [], condition: String? = nil, targets: [String] = []) {
            self.events = events
            self.condition = condition
            self.targets = targets
        }

        /// `events [condition]`, the text on the arrow.
        public var label: String {
            let condition = self.condition.map { "[\($0)]" }
            return (events + (condition.map { [$0] } ?? [])).joined(separator: " ")
        }
    }

    /// The chart's name: the graph's name.
    public var name: String
    /// The ids the chart starts in; empty means the first top-level state.
    public var initial: [String]
    /// Top-level states in document order.
    public var states: [State]

    /// A diagram with every part given.
    public init(name: String, initial: [String] = [], states: [State]) {
        self.name = name
        self.initial = initial
        self.states = states
    }
}

extension ChartDiagram {
    /// The diagram of a chart definition. Guards and actions are Swift closures: a guarded
    /// transition is labelled `[guard]`; actions are not drawn.
    ///
    /// ```swift
    /// let machine = try StateMachine<Phase, Heat> { ... }
    /// let text = ChartDiagram(machine.chart.definition).dot()
    /// ```
    public init(_ definition: ChartDefinition) {
        func transition(_ definition: TransitionDefinition) -> Transition {
            Transition(events: definition.events, condition: definition.guardBox == nil ? nil : "guard",
                       targets: definition.targets)
        }
        func state(_ definition: StateDefinition) -> State {
            let kind: Kind
            var transitions = definition.transitions.map(transition)
            var initial = definition.initial
            switch definition.kind {
            case .state: kind = .state
            case .parallel: kind = .parallel
            case .final: kind = .final
            case .history(let type):
                kind = .history(type)
                transitions = definition.initialTransition.map { [transition($0)] } ?? []
            }
            if case .state = definition.kind, initial.isEmpty, let initialTransition = definition.initialTransition {
                initial = initialTransition.targets
            }
            return State(id: definition.id, kind: kind, initial: initial, children: definition.children.map(state),
                         transitions: transitions)
        }
        self.init(name: definition.name, initial: definition.initial, states: definition.states.map(state))
    }

    /// The states a default entry of `children` (with `initial` ids) draws an arrow to: the
    /// initial ids, or the first child that is not a history state.
    static func defaultTargets(initial: [String], children: [State]) -> [String] {
        if !initial.isEmpty { return initial }
        for child in children {
            if case .history = child.kind { continue }
            return [child.id]
        }
        return []
    }

    /// Each state's parent id (`nil` for top-level states), for placing arrows.
    func parents() -> [String: String?] {
        var parents: [String: String?] = [:]
        func visit(_ states: [State], parent: String?) {
            for state in states {
                parents[state.id] = parent
                visit(state.children, parent: state.id)
            }
        }
        visit(states, parent: nil)
        return parents
    }
}

extension ChartDefinition {
    /// The chart as a Graphviz DOT graph; see ``ChartDiagram/dot()``.
    ///
    /// ```swift
    /// try chart.dot().write(toFile: "chart.dot", atomically: true, encoding: .utf8)
    /// // dot -Tsvg chart.dot -o chart.svg
    /// ```
    public func dot() -> String { ChartDiagram(self).dot() }

    /// The chart as a Mermaid state diagram; see ``ChartDiagram/mermaid()``.
    public func mermaid() -> String { ChartDiagram(self).mermaid() }
}
