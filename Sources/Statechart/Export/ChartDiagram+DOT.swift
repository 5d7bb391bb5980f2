extension ChartDiagram {
    /// The diagram as a Graphviz DOT graph, for `dot -Tsvg`.
    ///
    /// A compound state is a cluster (`subgraph "cluster_ID"`, rounded) holding a small black
    /// point that marks its default entry; a parallel state is a cluster labelled
    /// `ID (parallel)` whose regions are dashed. Atomic states are rounded boxes, final states
    /// double-bordered, history states circles labelled `H` or `H*` with a dashed arrow to their
    /// default. Arrows carry `events [condition]`; a targetless transition is a dotted loop. An
    /// arrow to or from a cluster is clipped at the cluster's border (`lhead`, `ltail`), drawn
    /// to its entry point (or, for a parallel state, an invisible anchor).
    ///
    /// ```swift
    /// let text = ChartDiagram(ChartDefinition(name: "switch", states: [
    ///     StateDefinition("off", transitions: [TransitionDefinition(on: "flip", to: "on")]),
    ///     StateDefinition("on", transitions: [TransitionDefinition(on: "flip", to: "off")]),
    /// ])).dot()
    /// // digraph "switch" {
    /// //   compound=true;
    /// //   fontname="Helvetica";
    /// //   node [shape=box, style=rounded, fontname="Helvetica"];
    /// //   edge [fontname="Helvetica", fontsize=10];
    /// //   "#initial" [shape=point, width=0.15];
    /// //   "off";
    /// //   "on";
    /// //   "#initial" -> "off";
    /// //   "off" -> "on" [label="flip"];
    /// //   "on" -> "off" [label="flip"];
    /// // }
    /// ```
    /// Node names are the state ids; the entry points are `ID#initial`, the anchors `ID#anchor`
    /// and the chart's own entry `#initial`.
    ///
    /// - Complexity: O(states × depth + transitions × depth).
    public func dot() -> String { dot(decoration: DOTDecoration()) }

    /// ``dot()`` with extra attributes on some states and transitions: the same drawing, for
    /// tools that mark it (coverage colours what was never exercised; the trace viewer gives
    /// every state and transition a `class` it can highlight in the SVG).
    ///
    /// ```swift
    /// var decoration = ChartDiagram.DOTDecoration()
    /// decoration.states["on"] = ["color=red"]
    /// decoration.transitions[.init(source: "off", ordinal: 0)] = ["color=red", "fontcolor=red"]
    /// let text = diagram.dot(decoration: decoration)
    /// ```
    public func dot(decoration: DOTDecoration) -> String {
        var writer = DOTWriter(parents: parents(), decoration: decoration)
        writer.line(0, "digraph \(DOTWriter.quote(name)) {")
        writer.line(1, "compound=true;")
        writer.line(1, "fontname=\"Helvetica\";")
        writer.line(1, "node [shape=box, style=rounded, fontname=\"Helvetica\"];")
        writer.line(1, "edge [fontname=\"Helvetica\", fontsize=10];")
        writer.line(1, "\(DOTWriter.quote("#initial")) [shape=point, width=0.15];")
        for state in states { writer.declare(state, depth: 1, inParallel: false) }
        for target in Self.defaultTargets(initial: initial, children: states) {
            writer.edge(from: nil, tailNode: "#initial", to: target, attributes: [])
        }
        for state in states { writer.edges(of: state) }
        writer.line(0, "}")
        return writer.text
    }
}

extension ChartDiagram {
    /// Extra DOT attributes (`name=value` text, value quoted as DOT needs) for some states and
    /// transitions of a diagram; see ``dot(decoration:)``.
    public struct DOTDecoration: Sendable, Hashable {
        /// A transition: its source's id and its position among the source's transitions
        /// (a history state's default transition is its only one).
        public struct TransitionPosition: Sendable, Hashable {
            public var source: String
            public var ordinal: Int

            public init(source: String, ordinal: Int) {
                self.source = source
                self.ordinal = ordinal
            }
        }

        /// Attributes by state id (on the node, or on the cluster of a compound state).
        public var states: [String: [String]] = [:]
        /// Attributes by transition (on each of its arrows).
        public var transitions: [TransitionPosition: [String]] = [:]

        public init() {}
    }
}

/// Writes the DOT text of a ``ChartDiagram``: declarations (clusters nest as the states do),
/// then every arrow at the top level, so an arrow never moves a node into a cluster.
package struct DOTWriter {
    let parents: [String: String?]
    let decoration: ChartDiagram.DOTDecoration
    /// Ids of the states drawn as clusters, with the node arrows to them end at.
    private var endpoints: [String: String] = [:]
    private(set) var text = ""

    init(parents: [String: String?], decoration: ChartDiagram.DOTDecoration) {
        self.parents = parents
        self.decoration = decoration
    }

    /// `name;` or `name [attributes];` with the decoration's attributes of `state` added.
    private mutating func node(_ depth: Int, _ state: String, _ attributes: [String]) {
        let all = attributes + (decoration.states[state] ?? [])
        line(depth, all.isEmpty ? "\(Self.quote(state));" : "\(Self.quote(state)) [\(all.joined(separator: ", "))];")
    }

    mutating func line(_ depth: Int, _ content: String) {
        text += String(repeating: "  ", count: depth) + content + "\n"
    }

    /// A DOT string: `"` and `\` escaped (a backslash would otherwise start a label escape such
    /// as `\n`), line breaks as `\n`.
    package static func quote(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result + "\""
    }

    mutating func declare(_ state: ChartDiagram.State, depth: Int, inParallel: Bool) {
        switch state.kind {
        case .state where !state.children.isEmpty, .parallel where !state.children.isEmpty:
            let isParallel = state.kind == .parallel
            line(depth, "subgraph \(Self.quote("cluster_" + state.id)) {")
            line(depth + 1, "label=\(Self.quote(isParallel ? state.id + " (parallel)" : state.id));")
            line(depth + 1, inParallel ? "style=\"rounded,dashed\";" : "style=rounded;")
            for attribute in decoration.states[state.id] ?? [] { line(depth + 1, attribute + ";") }
            if isParallel {
                endpoints[state.id] = state.id + "#anchor"
                line(depth + 1, "\(Self.quote(state.id + "#anchor")) [shape=point, style=invis, width=0.01];")
            } else {
                endpoints[state.id] = state.id + "#initial"
                line(depth + 1, "\(Self.quote(state.id + "#initial")) [shape=point, width=0.12];")
            }
            for child in state.children { declare(child, depth: depth + 1, inParallel: isParallel) }
            line(depth, "}")
        case .history(let type):
            node(depth, state.id, ["shape=circle", "label=\(Self.quote(type == .deep ? "H*" : "H"))"])
        case .final:
            node(depth, state.id, inParallel ? ["peripheries=2", "style=\"rounded,dashed\""] : ["peripheries=2"])
        case .state, .parallel:
            node(depth, state.id, inParallel ? ["style=\"rounded,dashed\""] : [])
        }
    }

    mutating func edges(of state: ChartDiagram.State) {
        if state.kind == .state, !state.children.isEmpty {
            for target in ChartDiagram.defaultTargets(initial: state.initial, children: state.children) {
                edge(from: nil, tailNode: state.id + "#initial", to: target, attributes: [])
            }
        }
        let isHistory: Bool
        if case .history = state.kind { isHistory = true } else { isHistory = false }
        for (ordinal, transition) in state.transitions.enumerated() {
            var attributes: [String] = []
            if !transition.label.isEmpty { attributes.append("label=\(Self.quote(transition.label))") }
            if isHistory { attributes.append("style=dashed") }
            attributes += decoration.transitions[.init(source: state.id, ordinal: ordinal)] ?? []
            if transition.targets.isEmpty {
                let node = endpoints[state.id] ?? state.id
                line(1, "\(Self.quote(node)) -> \(Self.quote(node)) [\((attributes + ["style=dotted"]).joined(separator: ", "))];")
            }
            for target in transition.targets {
                edge(from: state.id, tailNode: endpoints[state.id] ?? state.id, to: target, attributes: attributes)
            }
        }
        for child in state.children { edges(of: child) }
    }

    /// An arrow from `tailNode` (the node of state `source`, if it is one) to state `target`,
    /// clipped at a cluster's border unless the other end lies inside that cluster (Graphviz
    /// ignores such a clip and warns).
    mutating func edge(from source: String?, tailNode: String, to target: String, attributes: [String]) {
        var attributes = attributes
        let head = endpoints[target] ?? target
        if endpoints[target] != nil, !isDescendant(source, of: target) {
            attributes.append("lhead=\(Self.quote("cluster_" + target))")
        }
        if let source, endpoints[source] != nil, !isDescendant(target, of: source) {
            attributes.append("ltail=\(Self.quote("cluster_" + source))")
        }
        let list = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
        line(1, "\(Self.quote(tailNode)) -> \(Self.quote(head))\(list);")
    }

    /// Whether `id` is `ancestor` or lies inside it. The chart's own entry (`nil`) lies
    /// inside nothing.
    func isDescendant(_ id: String?, of ancestor: String) -> Bool {
        var current = id
        while let state = current {
            if state == ancestor { return true }
            current = parents[state] ?? nil
        }
        return false
    }
}
