import Statechart

extension ChartDiagram {
    /// The diagram of an SCXML document: its states, and its transitions labelled with their
    /// events and `cond` text. Executable content, data and invocations are not drawn.
    ///
    /// ```swift
    /// let document = try SCXMLParser.parse(contentsOf: URL(fileURLWithPath: "traffic-light.scxml"))
    /// let dot = ChartDiagram(document).dot()
    /// ```
    public init(_ document: SCXMLDocument) {
        func makeTransition(_ transition: SCXMLTransition) -> Transition {
            Transition(events: transition.events, condition: transition.cond, targets: transition.targets)
        }
        func makeState(_ state: SCXMLState) -> State {
            let kind: Kind
            switch state.kind {
            case .state: kind = .state
            case .parallel: kind = .parallel
            case .final: kind = .final
            case .history: kind = .history(state.historyType == .deep ? .deep : .shallow)
            }
            let initial = state.initial.isEmpty ? state.initialElement?.transition.targets ?? [] : state.initial
            return State(id: state.id, kind: kind, initial: initial, children: state.children.map(makeState),
                         transitions: state.transitions.map(makeTransition))
        }
        self.init(name: document.name ?? "scxml", initial: document.initial, states: document.states.map(makeState))
    }
}

extension SCXMLDocument {
    /// The document's states and transitions as a Graphviz DOT graph; see
    /// `ChartDiagram.dot()` (Statechart).
    ///
    /// ```swift
    /// try document.dot().write(toFile: "chart.dot", atomically: true, encoding: .utf8)
    /// // dot -Tsvg chart.dot -o chart.svg
    /// ```
    public func dot() -> String { ChartDiagram(self).dot() }

    /// The document's states and transitions as a Mermaid state diagram; see
    /// `ChartDiagram.mermaid()` (Statechart).
    public func mermaid() -> String { ChartDiagram(self).mermaid() }
}
