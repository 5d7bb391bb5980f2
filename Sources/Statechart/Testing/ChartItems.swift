import CStateCore

/// The parts of a chart a test can exercise: every state but the root and history states
/// (which are never active), and every `<transition>` of a state, by their indices in the
/// compiled chart, with the text that names them in reports. Default-entry transitions (a
/// state's `initial`, a history state's default) are not counted: they run whenever their
/// state is entered by default, and observers do not report them.
package struct ChartItems: Sendable {
    /// What the report says of one transition.
    package struct TransitionInfo: Sendable {
        /// The source state's id.
        package var source: String
        /// Its position among the source's transitions in document order (the diagram's).
        package var ordinal: Int
        /// Event descriptors; empty when eventless.
        package var events: [String]
        /// The condition's text, if it has one.
        package var condition: String?
        /// Target ids; empty when targetless.
        package var targets: [String]

        /// `source -events [condition]-> targets`, as ``TransitionRecord`` writes a transition
        /// (`ε` for eventless, `(targetless)`).
        package var description: String {
            let label = (events.isEmpty ? ["ε"] : events) + (condition.map { ["[\($0)]"] } ?? [])
            return "\(source) -\(label.joined(separator: " "))-> \(targets.isEmpty ? "(targetless)" : targets.joined(separator: " "))"
        }
    }

    package let chart: CompiledChart
    /// Coverable state indices in document order.
    package let states: [Int]
    /// Coverable transition indices, in document order of their source.
    package let transitions: [Int]
    /// Each coverable transition's description, by compiled index.
    package let info: [Int: TransitionInfo]
    /// The coverable transitions of each source state, by its id, in document order.
    package let transitionsBySource: [String: [Int]]

    /// The items of `chart`, named as `diagram` (made from the same definition or document)
    /// draws them.
    package init(chart: CompiledChart, diagram: ChartDiagram) {
        self.chart = chart
        let tables = chart.tables.pointee
        var byID: [String: ChartDiagram.State] = [:]
        func collect(_ state: ChartDiagram.State) {
            byID[state.id] = state
            state.children.forEach(collect)
        }
        diagram.states.forEach(collect)
        var states: [Int] = []
        var transitions: [Int] = []
        var info: [Int: TransitionInfo] = [:]
        for index in 1..<chart.stateCount {
            let state = tables.states[index]
            let id = chart.stateIDs[index]
            let drawn = byID[id]?.transitions ?? []
            let isHistory = chart.kinds[index] == SC_HISTORY_SHALLOW || chart.kinds[index] == SC_HISTORY_DEEP
            if isHistory { continue }
            let own = (0..<Int(state.transition_count)).map { Int(state.first_transition) + $0 }
            states.append(index)
            for (ordinal, transition) in own.enumerated() {
                transitions.append(transition)
                let shown = ordinal < drawn.count ? drawn[ordinal] : nil
                info[transition] = TransitionInfo(
                    source: id, ordinal: ordinal, events: shown?.events ?? [],
                    condition: shown?.condition ?? (tables.transitions[transition].guard == SC_NONE ? nil : "guard"),
                    targets: chart.targetsOfTransition(transition))
            }
        }
        self.states = states
        self.transitions = transitions
        self.info = info
        transitionsBySource = Dictionary(grouping: transitions) { chart.sourceOfTransition($0) }
    }

    /// SCXML's name matching: descriptor `a.b` matches events `a.b` and `a.b.c`; `*` every
    /// event; `a.*` as `a`.
    package static func descriptor(_ descriptor: String, matches event: String) -> Bool {
        let d = descriptor.hasSuffix(".*") ? String(descriptor.dropLast(2)) : descriptor
        return d == "*" || event == d || event.hasPrefix(d + ".")
    }

    /// The description of transition `index`.
    package func describe(transition index: Int) -> String {
        info[index]?.description ?? "\(chart.sourceOfTransition(index)) -> \(chart.targetsOfTransition(index).joined(separator: " "))"
    }

    /// The parent index of state `index` (`nil` for the root).
    package func parent(of index: Int) -> Int? {
        let parent = chart.tables.pointee.states[index].parent
        return parent == SC_NONE ? nil : Int(parent)
    }

    /// `index` and its ancestors up to the root (excluded).
    package func withAncestors(_ index: Int) -> [Int] {
        var result: [Int] = []
        var state: Int? = index
        while let current = state, current != 0 {
            result.append(current)
            state = parent(of: current)
        }
        return result
    }
}
