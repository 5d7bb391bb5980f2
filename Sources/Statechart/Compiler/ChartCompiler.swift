import CStateCore

/// Turns a ``ChartDefinition`` into CStateCore tables: flattens the tree in document order,
/// resolves ids, interns events, precomputes transition domains, and validates everything the
/// SCXML document constraints require, collecting all errors before throwing.
struct ChartCompiler {
    /// A state flattened in document order (index 0 is the `<scxml>` root).
    struct Node {
        var definition: StateDefinition
        var parent: Int
        var depth: Int
        var lastDescendant: Int
        var kind: sc_state_kind
        var path: String
    }

    /// A transition with resolved ids, before layout.
    struct PendingTransition {
        var source: Int
        var targets: [Int]
        var descriptors: [UInt32]
        var guardID: UInt32
        var actionID: UInt32
        var isInternal: Bool
    }

    private(set) var nodes: [Node] = []
    private(set) var errors: [ChartError] = []
    private var index: [String: Int] = [:]
    var events = EventTable()
    var guards: [Guard] = []
    var actions: [[Action]] = []
    var invocations: [Int: [Invocation]] = [:]
    var doneData: [Int: DoneData] = [:]

    static let maximumDepth = Int(UInt16.max)
    /// The chart's start-up content, run as the root's initial transition content.
    var startActions: [Action] = []

    // MARK: - Flattening

    mutating func flatten(_ chart: ChartDefinition) {
        let root = StateDefinition(chart.name, initial: chart.initial, children: chart.states,
                                   location: chart.location)
        nodes.append(Node(definition: root, parent: -1, depth: 0, lastDescendant: 0,
                          kind: SC_COMPOUND, path: chart.name))
        startActions = chart.onStart
        if chart.states.isEmpty {
            fail(.emptyChart, 0, "a chart needs at least one state")
        }
        for child in chart.states { add(child, parent: 0) }
        nodes[0].lastDescendant = nodes.count - 1
    }

    private mutating func add(_ definition: StateDefinition, parent: Int) {
        let me = nodes.count
        let path = nodes[parent].path + "/" + (definition.id.isEmpty ? "#\(me)" : definition.id)
        var kind: sc_state_kind
        switch definition.kind {
        case .state:
            kind = definition.children.isEmpty ? SC_ATOMIC : SC_COMPOUND
        case .parallel:
            kind = SC_PARALLEL
        case .final:
            kind = SC_FINAL
        case .history(let type):
            kind = type == .deep ? SC_HISTORY_DEEP : SC_HISTORY_SHALLOW
        }
        var stripped = definition
        stripped.children = []
        nodes.append(Node(definition: stripped, parent: parent, depth: nodes[parent].depth + 1,
                          lastDescendant: me, kind: kind, path: path))
        if definition.id.isEmpty {
            fail(.emptyID, me, "state has an empty id; give every state a unique, non-empty id")
        } else if let first = index[definition.id] {
            let other = nodes[first].definition.location.map { " (first defined at \($0))" } ?? ""
            fail(.duplicateID, me, "duplicate state id '\(definition.id)'\(other); state ids must be unique")
        } else {
            index[definition.id] = me
        }
        if nodes[me].depth > Self.maximumDepth {
            fail(.tooDeep, me, "states are nested more than \(Self.maximumDepth) levels deep")
            return
        }
        for child in definition.children { add(child, parent: me) }
        nodes[me].lastDescendant = nodes.count - 1
    }

    // MARK: - Queries on the flattened tree

    func isDescendant(_ d: Int, of s: Int) -> Bool { d > s && d <= nodes[s].lastDescendant }

    func isHistory(_ s: Int) -> Bool { nodes[s].kind == SC_HISTORY_SHALLOW || nodes[s].kind == SC_HISTORY_DEEP }

    func children(of s: Int) -> [Int] {
        var result: [Int] = []
        var c = s + 1
        while c <= nodes[s].lastDescendant {
            result.append(c)
            c = nodes[c].lastDescendant + 1
        }
        return result
    }

    /// The nearest proper ancestor that is compound (or the root).
    func compoundAncestor(of s: Int) -> Int {
        var a = nodes[s].parent
        while a > 0 && nodes[a].kind != SC_COMPOUND { a = nodes[a].parent }
        return max(a, 0)
    }

    /// getTransitionDomain: the source for an internal transition whose targets all lie in a
    /// compound source, else the least common compound ancestor of source and targets.
    func domain(source: Int, targets: [Int], isInternal: Bool) -> Int? {
        if targets.isEmpty { return nil }
        if source == 0 { return 0 }
        if isInternal && nodes[source].kind == SC_COMPOUND && targets.allSatisfy({ isDescendant($0, of: source) }) {
            return source
        }
        var lcca = compoundAncestor(of: source)
        while lcca != 0 && !targets.allSatisfy({ isDescendant($0, of: lcca) }) {
            lcca = compoundAncestor(of: lcca)
        }
        return lcca
    }

    func lowestCommonAncestor(_ a: Int, _ b: Int) -> Int {
        var a = a, b = b
        while nodes[a].depth > nodes[b].depth { a = nodes[a].parent }
        while nodes[b].depth > nodes[a].depth { b = nodes[b].parent }
        while a != b { a = nodes[a].parent; b = nodes[b].parent }
        return a
    }

    /// Several targets form a legal configuration only when no target contains another and each
    /// pair meets at a parallel state (they lie in different regions).
    func conflictingTargets(_ targets: [Int]) -> (Int, Int)? {
        for i in targets.indices {
            for j in targets.indices where j > i {
                let a = targets[i], b = targets[j]
                if a == b || isDescendant(a, of: b) || isDescendant(b, of: a) { return (a, b) }
                if nodes[lowestCommonAncestor(a, b)].kind != SC_PARALLEL { return (a, b) }
            }
        }
        return nil
    }

    // MARK: - Errors

    mutating func fail(_ code: ChartError.Code, _ state: Int, _ message: String,
                       suffix: String = "", location: SourceLocation? = nil) {
        errors.append(ChartError(code, path: nodes[state].path + suffix,
                                 location: location ?? nodes[state].definition.location, message))
    }

    func describe(_ s: Int) -> String { s == 0 ? "the chart root" : "'\(nodes[s].definition.id)'" }

    func knownIDsHint() -> String {
        let ids = nodes.dropFirst().prefix(6).map { "'\($0.definition.id)'" }
        return ids.isEmpty ? "" : "; known ids include \(ids.joined(separator: ", "))"
    }

    // MARK: - Resolution

    mutating func resolve(_ ids: [String], from state: Int, what: String, suffix: @autoclosure () -> String,
                          location: SourceLocation?) -> [Int]? {
        var result: [Int] = []
        var ok = true
        for id in ids {
            if let target = index[id] {
                result.append(target)
            } else {
                fail(.unknownTarget, state, "\(what) '\(id)' does not name a state\(knownIDsHint())",
                     suffix: suffix(), location: location)
                ok = false
            }
        }
        return ok ? result : nil
    }

    mutating func actionID(_ list: [Action]) -> UInt32 {
        if list.isEmpty { return UInt32(SC_NONE) }
        actions.append(list)
        return UInt32(actions.count - 1)
    }

    mutating func guardID(_ condition: Guard?) -> UInt32 {
        guard let condition else { return UInt32(SC_NONE) }
        guards.append(condition)
        return UInt32(guards.count - 1)
    }

    static func describe(_ t: TransitionDefinition, number: Int) -> String {
        let on = t.events.isEmpty ? "eventless" : "on '\(t.events.joined(separator: " "))'"
        return " transition #\(number) (\(on))"
    }

    /// The descriptors written in `events`: each entry may hold several, separated by whitespace.
    static func descriptorTexts(_ events: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(events.count)
        for text in events {
            // Names are nearly always ASCII without whitespace: keep them whole, no Character walk.
            if text.utf8.allSatisfy({ $0 < 0x80 && !EventTable.isASCIIWhitespace($0) }) {
                if !text.isEmpty { result.append(text) }
            } else {
                result += text.split(whereSeparator: \.isWhitespace).map(String.init)
            }
        }
        return result
    }

    /// Resolves and checks one `<transition>` of state `source`.
    mutating func transition(_ t: TransitionDefinition, source: Int, number: Int) -> PendingTransition? {
        // Built only for an error message: most charts have none.
        let suffix = { Self.describe(t, number: number) }
        var descriptors: [UInt32] = []
        descriptors.reserveCapacity(t.events.count)
        for text in Self.descriptorTexts(t.events) {
            if let d = events.descriptor(text) {
                descriptors.append(d)
            } else {
                fail(.invalidDescriptor, source,
                     "'\(text)' is not an event descriptor; use a dot-separated name, 'name.*' or '*'",
                     suffix: suffix(), location: t.location)
            }
        }
        guard let targets = resolve(t.targets, from: source, what: "transition target", suffix: suffix(),
                                    location: t.location) else { return nil }
        if targets.count > 1, let (a, b) = conflictingTargets(targets) {
            fail(.invalidTargets, source,
                 "targets \(describe(a)) and \(describe(b)) cannot be active together; several targets must lie in different regions of a parallel state",
                 suffix: suffix(), location: t.location)
            return nil
        }
        return PendingTransition(source: source, targets: targets, descriptors: descriptors,
                                 guardID: guardID(t.guardCondition), actionID: actionID(t.actions),
                                 isInternal: t.type == .internal)
    }

    /// The default-entry transition of a compound state (or the root): `<initial>`, the
    /// `initial` attribute, or the first child in document order.
    mutating func initialTransition(of s: Int) -> PendingTransition? {
        let definition = nodes[s].definition
        let stateChildren = children(of: s).filter { !isHistory($0) }
        var targets: [Int]
        var action = UInt32(SC_NONE)
        let what = s == 0 ? "initial state" : "initial state of \(describe(s))"
        if let initial = definition.initialTransition {
            if !definition.initial.isEmpty {
                fail(.invalidInitial, s, "\(describe(s)) has both an 'initial' attribute and an <initial> element; keep one")
            }
            if !initial.events.isEmpty || initial.guardCondition != nil {
                fail(.invalidInitial, s, "the <initial> transition of \(describe(s)) must have no event and no condition",
                     location: initial.location)
            }
            guard let resolved = resolve(initial.targets, from: s, what: what, suffix: " <initial>",
                                         location: initial.location) else { return nil }
            targets = resolved
            action = actionID(initial.actions)
        } else if !definition.initial.isEmpty {
            guard let resolved = resolve(definition.initial, from: s, what: what, suffix: "",
                                         location: nil) else { return nil }
            targets = resolved
        } else {
            guard let first = stateChildren.first else { return nil }
            targets = [first]
        }
        if s == 0 { action = actionID(startActions) }
        if targets.isEmpty {
            fail(.invalidInitial, s, "the <initial> transition of \(describe(s)) needs a target")
            return nil
        }
        for target in targets where !isDescendant(target, of: s) {
            fail(.invalidInitial, s, "\(what) \(describe(target)) is not a descendant of \(describe(s)); initial states must lie inside the state")
            return nil
        }
        if let (a, b) = conflictingTargets(targets) {
            fail(.invalidInitial, s, "initial states \(describe(a)) and \(describe(b)) cannot be active together; several initial states must lie in different regions of a parallel state")
            return nil
        }
        return PendingTransition(source: s, targets: targets, descriptors: [], guardID: UInt32(SC_NONE),
                                 actionID: action, isInternal: false)
    }

    /// A history state's default transition, with the placement rules of SCXML 3.10.
    mutating func historyTransition(of h: Int) -> PendingTransition? {
        let node = nodes[h]
        let parent = node.parent
        if parent == 0 || (nodes[parent].kind != SC_COMPOUND && nodes[parent].kind != SC_PARALLEL) {
            fail(.misplacedHistory, h, "history state '\(node.definition.id)' must be a child of a compound or parallel state, not of \(parent == 0 ? "the chart root" : describe(parent))")
            return nil
        }
        guard let initial = node.definition.initialTransition, !initial.targets.isEmpty else {
            fail(.invalidHistory, h, "history state '\(node.definition.id)' needs a default transition with a target")
            return nil
        }
        if !initial.events.isEmpty || initial.guardCondition != nil {
            fail(.invalidHistory, h, "the default transition of history state '\(node.definition.id)' must have no event and no condition")
        }
        guard let targets = resolve(initial.targets, from: h, what: "history default target", suffix: "",
                                    location: initial.location) else { return nil }
        for target in targets where !isDescendant(target, of: parent) || isHistory(target) {
            fail(.invalidHistory, h, "history default target \(describe(target)) must be a state inside \(describe(parent)) other than a history state")
            return nil
        }
        return PendingTransition(source: h, targets: targets, descriptors: [], guardID: UInt32(SC_NONE),
                                 actionID: actionID(initial.actions), isInternal: false)
    }

    /// Structural rules per kind: finals and histories have no children or transitions,
    /// parallel states take no initial, compound states need a non-history child.
    mutating func checkShape(_ s: Int) {
        let node = nodes[s]
        let definition = node.definition
        let hasChildren = node.lastDescendant > s
        switch node.kind {
        case SC_FINAL:
            if hasChildren { fail(.invalidFinal, s, "final state '\(definition.id)' cannot contain states") }
            if !definition.transitions.isEmpty {
                fail(.invalidFinal, s, "final state '\(definition.id)' cannot have transitions")
            }
        case SC_HISTORY_SHALLOW, SC_HISTORY_DEEP:
            if hasChildren { fail(.invalidHistory, s, "history state '\(definition.id)' cannot contain states") }
            if !definition.transitions.isEmpty || !definition.onEntry.isEmpty || !definition.onExit.isEmpty {
                fail(.invalidHistory, s, "history state '\(definition.id)' can only have a default transition")
            }
        case SC_PARALLEL:
            if !definition.initial.isEmpty || definition.initialTransition != nil {
                fail(.invalidParallel, s, "parallel state '\(definition.id)' cannot have an initial state; all its children are entered")
            }
            if children(of: s).allSatisfy(isHistory) {
                fail(.invalidParallel, s, "parallel state '\(definition.id)' needs at least one child state")
            }
        case SC_COMPOUND where s != 0:
            if children(of: s).allSatisfy(isHistory) {
                fail(.misplacedHistory, s, "state '\(definition.id)' has only history children; add a child state for the history to remember")
            }
        case SC_ATOMIC:
            if !definition.initial.isEmpty || definition.initialTransition != nil {
                fail(.invalidInitial, s, "atomic state '\(definition.id)' has an initial state but no children")
            }
        default:
            break
        }
    }
}
