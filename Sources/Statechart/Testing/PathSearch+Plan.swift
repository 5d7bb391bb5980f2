extension PathSearch {
    /// The plan for `goal` (or, with `target`, one shortest path entering that state index):
    /// the search's shortest path to each item, longest first, skipping items a path already
    /// chosen covers. `event` turns an input into the caller's event, `state` a state index
    /// into its state value; `inputNames` are the inputs' event names, for the reasons, and
    /// `inputDetails` (when given) how each input was sent (`with {"amount":120}`, `without
    /// data`), for a condition that never held.
    package func plan<Event, State>(
        items: ChartItems, goal: TestCoverageGoal, target: Int? = nil, maximumLength: Int,
        inputNames: [String], inputDetails: [String]? = nil, event: (Int) -> Event, state: (Int) -> State?
    ) -> TestPlan<Event, State> {
        var stateDone = Array(repeating: false, count: firstEntry.count)
        var transitionDone = Array(repeating: false, count: firstTaking.count)
        var targets: [(hit: Int, name: String, isState: Bool, index: Int)] = []
        if let target {
            if firstEntry[target] >= 0 { targets.append((firstEntry[target], items.chart.stateIDs[target], true, target)) }
        } else {
            for s in items.states where firstEntry[s] >= 0 { targets.append((firstEntry[s], items.chart.stateIDs[s], true, s)) }
            if goal == .transitions {
                for t in items.transitions where firstTaking[t] >= 0 {
                    targets.append((firstTaking[t], items.describe(transition: t), false, t))
                }
            }
        }
        // Longest first, so a long path covers what shorter ones on its way would have.
        let lengths = targets.map { chain(toHit: $0.hit).count }
        let order = targets.indices.sorted { lengths[$0] != lengths[$1] ? lengths[$0] > lengths[$1] : $0 < $1 }
        var chosen: [(hit: Int, goals: [String])] = []
        for i in order {
            let item = targets[i]
            let done = item.isState ? stateDone[item.index] : transitionDone[item.index]
            if done {
                continue
            }
            let hits = [0] + chain(toHit: item.hit)
            for h in hits {
                for s in self.hits[h].entered { stateDone[Int(s)] = true }
                for t in self.hits[h].taken { transitionDone[Int(t)] = true }
            }
            chosen.append((item.hit, [item.name]))
        }
        // A goal reached on the way by a later-chosen path is still listed by the path that
        // was chosen for it; name the goals each path reaches first in the order above.
        let paths = chosen.map { choice -> TestPath<Event, State> in
            func states(_ configuration: [Int32]) -> [State] { configuration.compactMap { state(Int($0)) } }
            let steps = chain(toHit: choice.hit).map { h in
                TestPath<Event, State>.Step(event: event(self.hits[h].input), expected: states(self.hits[h].configuration))
            }
            return TestPath(start: states(self.hits[0].configuration), steps: steps, goals: choice.goals)
        }
        var unreached: [UnreachedItem] = []
        let explain = UnreachedReasons(search: self, items: items, maximumLength: maximumLength, inputNames: inputNames,
                                       inputDetails: inputDetails)
        if let target {
            if firstEntry[target] < 0 {
                unreached.append(UnreachedItem(kind: .state, name: items.chart.stateIDs[target], reason: explain.state(target)))
            }
        } else {
            for s in items.states where firstEntry[s] < 0 {
                unreached.append(UnreachedItem(kind: .state, name: items.chart.stateIDs[s], reason: explain.state(s)))
            }
            if goal == .transitions {
                for t in items.transitions where firstTaking[t] < 0 {
                    unreached.append(UnreachedItem(kind: .transition, name: items.describe(transition: t),
                                                   reason: explain.transition(t)))
                }
            }
        }
        return TestPlan(goal: goal, paths: paths, unreached: unreached, isExhaustive: isComplete)
    }
}

/// Why the search never entered a state or took a transition, from the chart's structure and
/// what the search did reach.
struct UnreachedReasons {
    let search: PathSearch
    let items: ChartItems
    let maximumLength: Int
    let inputNames: [String]
    let inputDetails: [String]?
    /// For each state, the transitions whose targets are it or lie inside it.
    private let into: [[Int]]

    init(search: PathSearch, items: ChartItems, maximumLength: Int, inputNames: [String], inputDetails: [String]?) {
        self.search = search
        self.items = items
        self.maximumLength = maximumLength
        self.inputNames = inputNames
        self.inputDetails = inputDetails
        var into = Array(repeating: [Int](), count: items.chart.stateCount)
        for t in items.transitions {
            var states = Set<Int>()
            for target in items.chart.targetsOfTransition(t) {
                if let index = items.chart.index(of: target) { states.formUnion(items.withAncestors(index)) }
            }
            for s in states.sorted() { into[s].append(t) }
        }
        self.into = into
    }

    private var bound: String? {
        search.isComplete ? nil
            : "not reached by any sequence of up to \(maximumLength) events the search tried (the search was bounded, so it may still be reachable)"
    }

    func state(_ s: Int) -> String {
        if let bound { return bound }
        let id = items.chart.stateIDs[s]
        if let parent = items.parent(of: s), parent != 0, search.firstEntry[parent] < 0 {
            return "its parent '\(items.chart.stateIDs[parent])' is never entered"
        }
        let into = self.into[s]
        if into.isEmpty {
            return "no transition enters '\(id)' or a state inside it, and no default entry leads to it"
        }
        return "no transition into it is ever taken: "
            + into.map { "\(items.describe(transition: $0)) (\(transition($0)))" }.joined(separator: "; ")
    }

    /// Why transition `t` was never taken. A bounded search explains a transition on an event
    /// by the chart only when its source was active in a point the search sent every event
    /// in; otherwise the bound is the reason.
    func transition(_ t: Int) -> String {
        let source = items.chart.index(of: items.chart.sourceOfTransition(t)) ?? 0
        let info = items.info[t]
        let events = info?.events ?? []
        if search.firstEntry[source] < 0 {
            return bound ?? "its source '\(items.chart.stateIDs[source])' is never active"
        }
        if !events.isEmpty && !search.activeWhenExpanded[source] {
            return bound ?? "its source '\(items.chart.stateIDs[source])' is never active when the search sends an event (it is left before: by eventless transitions, or by events the chart sends itself or receives from sessions it invoked)"
        }
        let matching = inputNames.indices.filter { input in
            events.contains { ChartItems.descriptor($0, matches: inputNames[input]) }
        }
        if !events.isEmpty && matching.isEmpty {
            return "no event the search sends matches '\(events.joined(separator: " "))', and the chart raises none that is taken there"
        }
        if let condition = info?.condition {
            let within = search.isComplete ? "" : " in any machine state the search reached within its bound of \(maximumLength) events"
            var sent = ""
            if let inputDetails, !matching.isEmpty {
                var names: [String] = []
                var details: [String: [String]] = [:]
                for input in matching {
                    if details[inputNames[input]] == nil { names.append(inputNames[input]) }
                    details[inputNames[input], default: []].append(inputDetails[input])
                }
                sent = ", with " + names.map { "'\($0)' sent " + details[$0]!.joined(separator: " or ") }.joined(separator: ", ")
            }
            return "its condition [\(condition)] never holds when it could be taken\(within)\(sent)"
        }
        let within = search.isComplete ? "" : " (within the search's bound of \(maximumLength) events)"
        return "always preempted: whenever it could be taken, a transition of a state inside its source, or an earlier one in document order, is taken instead\(within)"
    }
}
