import CStateCore

/// Turns a ``ChartDefinition`` into CStateCore tables: flattens the tree in document order,
/// resolves ids, interns events, precomputes transition domains, and validates everything the
/// SCXML document constraints require, collecting all errors before throwing.
struct ChartCompiler {
    /// A state flattened in document order (index 0 is the `<scxml>` root). Its path, used in
    /// error messages only, is built from the parents when one is reported.
    ///
    /// A node refers to its definition in the chart being compiled rather than holding a copy
    /// (a copy retains and releases every array, string and closure of the state): the
    /// definitions live, unchanged, for the whole compilation (``compile(_:)`` holds them).
    struct Node {
        /// The definition, in the storage of its parent's `children` (the root's is ``compile(_:)``'s).
        let state: UnsafePointer<StateDefinition>
        var parent: Int
        var depth: Int
        var lastDescendant: Int
        var kind: sc_state_kind

        /// The state's definition, read in place.
        var definition: StateDefinition { unsafeAddress { state } }
    }

    /// A transition with resolved ids, before layout: its targets and descriptors are ranges of
    /// ``targetPool`` and ``descriptorPool``.
    struct PendingTransition {
        var source: Int
        var targetStart: Int
        var targetCount: Int
        var descriptorStart: Int
        var descriptorCount: Int
        var guardID: UInt32
        var actionID: UInt32
        var isInternal: Bool
    }

    private(set) var nodes: [Node] = []
    private(set) var errors: [ChartError] = []
    /// State ids (the root's excluded) by index.
    private(set) var index: [String: Int] = [:]
    /// The targets of every pending transition, in order.
    private(set) var targetPool: [sc_id] = []
    /// The descriptors of every pending transition, in order.
    private(set) var descriptorPool: [sc_id] = []
    /// Event and target lists already resolved, by their storage: front ends that share one
    /// array between transitions (an SCXML document naming the same event or target again)
    /// resolve it once.
    private var descriptorMemo = StorageMemo<String>()
    /// The number of transitions in the definition (default-entry ones excluded).
    private(set) var transitionCount = 0
    private var targetMemo = StorageMemo<String>()
    var events = EventTable()
    var guards: [GuardBox] = []
    var actions: [[ActionBox]] = []
    var invocations: [Int: [Invocation]] = [:]
    var doneData: [Int: DoneData] = [:]

    static let maximumDepth = Int(UInt16.max)
    /// The chart's start-up content, run as the root's initial transition content.
    var startActions: [ActionBox] = []

    // MARK: - Flattening

    /// Flattens the tree under `root` (the chart's root state, whose children are the chart's
    /// top-level states); `root` and every definition under it must outlive the compiler.
    mutating func flatten(_ root: UnsafePointer<StateDefinition>, onStart: [ActionBox]) {
        let states = root.pointee.children
        let count = Self.count(states)
        nodes.reserveCapacity(count + 1)
        index.reserveCapacity(count)
        nodes.append(Node(state: root, parent: -1, depth: 0, lastDescendant: 0, kind: SC_COMPOUND))
        startActions = onStart
        if states.isEmpty {
            fail(.emptyChart, 0, "a chart needs at least one state")
        }
        states.withUnsafeBufferPointer { states in
            for index in states.indices { add(states.baseAddress! + index, parent: 0) }
        }
        nodes[0].lastDescendant = nodes.count - 1
        // Target lists are shared by the transitions naming the same states: about one per state.
        targetMemo = StorageMemo(capacity: nodes.count)
    }

    private static func count(_ states: [StateDefinition]) -> Int {
        // By index: `for state in states` would copy every state (retaining all its parts).
        var total = states.count
        for index in states.indices where !states[index].children.isEmpty { total += count(states[index].children) }
        return total
    }

    /// The path of a state for error messages: the chart's name, then the ids down to the state.
    func path(of state: Int) -> String {
        guard state > 0 else { return nodes[0].definition.id }
        let id = nodes[state].definition.id
        return path(of: nodes[state].parent) + "/" + (id.isEmpty ? "#\(state)" : id)
    }

    /// Appends the state at `pointer` and its descendants (read in place, never copied).
    private mutating func add(_ pointer: UnsafePointer<StateDefinition>, parent: Int) {
        let me = nodes.count
        var kind: sc_state_kind
        switch pointer.pointee.kind {
        case .state:
            kind = pointer.pointee.children.isEmpty ? SC_ATOMIC : SC_COMPOUND
        case .parallel:
            kind = SC_PARALLEL
        case .final:
            kind = SC_FINAL
        case .history(let type):
            kind = type == .deep ? SC_HISTORY_DEEP : SC_HISTORY_SHALLOW
        }
        nodes.append(Node(state: pointer, parent: parent, depth: nodes[parent].depth + 1,
                          lastDescendant: me, kind: kind))
        transitionCount += pointer.pointee.transitions.count
        let id = pointer.pointee.id
        if id.isEmpty {
            fail(.emptyID, me, "state has an empty id; give every state a unique, non-empty id")
        } else if let first = index.updateValue(me, forKey: id) {
            // One hash per id: stored at once, and the first state put back on a duplicate.
            index[id] = first
            let other = nodes[first].definition.location.map { " (first defined at \($0))" } ?? ""
            fail(.duplicateID, me, "duplicate state id '\(id)'\(other); state ids must be unique")
        }
        if nodes[me].depth > Self.maximumDepth {
            fail(.tooDeep, me, "states are nested more than \(Self.maximumDepth) levels deep")
            return
        }
        let children = pointer.pointee.children
        if !children.isEmpty {
            children.withUnsafeBufferPointer { children in
                for index in children.indices { add(children.baseAddress! + index, parent: me) }
            }
        }
        nodes[me].lastDescendant = nodes.count - 1
    }

    // MARK: - Queries on the flattened tree

    func isDescendant(_ d: Int, of s: Int) -> Bool { d > s && d <= nodes[s].lastDescendant }

    func isHistory(_ s: Int) -> Bool { nodes[s].kind == SC_HISTORY_SHALLOW || nodes[s].kind == SC_HISTORY_DEEP }

    /// Whether some child of `s` is a history state.
    func hasHistoryChild(_ s: Int) -> Bool {
        var c = s + 1
        while c <= nodes[s].lastDescendant {
            if isHistory(c) { return true }
            c = nodes[c].lastDescendant + 1
        }
        return false
    }

    /// The first child of `s` that is not a history state.
    func firstStateChild(_ s: Int) -> Int? {
        var c = s + 1
        while c <= nodes[s].lastDescendant {
            if !isHistory(c) { return c }
            c = nodes[c].lastDescendant + 1
        }
        return nil
    }

    /// The nearest proper ancestor that is compound (or the root).
    func compoundAncestor(of s: Int) -> Int {
        var a = nodes[s].parent
        while a > 0 && nodes[a].kind != SC_COMPOUND { a = nodes[a].parent }
        return max(a, 0)
    }

    /// getTransitionDomain: the source for an internal transition whose targets all lie in a
    /// compound source, else the least common compound ancestor of source and targets.
    func domain(_ t: PendingTransition) -> Int? {
        if t.targetCount == 0 { return nil }
        if t.source == 0 { return 0 }
        let targets = targetPool[t.targetStart..<(t.targetStart + t.targetCount)]
        if t.isInternal && nodes[t.source].kind == SC_COMPOUND && targets.allSatisfy({ isDescendant(Int($0), of: t.source) }) {
            return t.source
        }
        var lcca = compoundAncestor(of: t.source)
        while lcca != 0 && !targets.allSatisfy({ isDescendant(Int($0), of: lcca) }) {
            lcca = compoundAncestor(of: lcca)
        }
        return lcca
    }

    /// Whether a target of `t` is a history state.
    func targetsHistory(_ t: PendingTransition) -> Bool {
        targetPool[t.targetStart..<(t.targetStart + t.targetCount)].contains { isHistory(Int($0)) }
    }

    /// The first pair of the targets `targetPool[start..<start + count]` that cannot be active
    /// together (``TargetSetRule``, which the SCXML validator applies too).
    func conflictingTargets(_ start: Int, _ count: Int) -> (Int, Int)? {
        guard count > 1 else { return nil }
        let targets = targetPool[start..<(start + count)].map { Int($0) }
        return TargetSetRule.firstConflict(
            in: targets, parent: { nodes[$0].parent }, lastDescendant: { nodes[$0].lastDescendant },
            isParallel: { nodes[$0].kind == SC_PARALLEL }
        ).map { ($0.first, $0.second) }
    }

    // MARK: - Errors

    mutating func fail(_ code: ChartError.Code, _ state: Int, _ message: String,
                       suffix: String = "", location: SourceLocation? = nil) {
        errors.append(ChartError(code, path: path(of: state) + suffix,
                                 location: location ?? nodes[state].definition.location, message))
    }

    func describe(_ s: Int) -> String { s == 0 ? "the chart root" : "'\(nodes[s].definition.id)'" }

    func knownIDsHint() -> String {
        let ids = nodes.dropFirst().prefix(6).map { "'\($0.definition.id)'" }
        return ids.isEmpty ? "" : "; known ids include \(ids.joined(separator: ", "))"
    }

    // MARK: - Resolution

    /// Appends the states `ids` names to ``targetPool`` and returns where they start, or `nil`
    /// (after reporting each unknown id, and leaving the pool as it was).
    mutating func resolve(_ ids: [String], from state: Int, what: String, suffix: @autoclosure () -> String,
                          location: SourceLocation?) -> Int? {
        let start = targetPool.count
        var ok = true
        for id in ids {
            if let target = index[id] {
                targetPool.append(sc_id(target))
            } else {
                fail(.unknownTarget, state, "\(what) '\(id)' does not name a state\(knownIDsHint())",
                     suffix: suffix(), location: location)
                ok = false
            }
        }
        if !ok { targetPool.removeSubrange(start...) }
        return ok ? start : nil
    }

    mutating func actionID(_ list: [ActionBox]) -> UInt32 {
        if list.isEmpty { return UInt32(SC_NONE) }
        actions.append(list)
        return UInt32(actions.count - 1)
    }

    mutating func guardID(_ condition: GuardBox?) -> UInt32 {
        guard let condition else { return UInt32(SC_NONE) }
        guards.append(condition)
        return UInt32(guards.count - 1)
    }

    static func describe(_ t: TransitionDefinition, number: Int) -> String {
        let on = t.events.isEmpty ? "eventless" : "on '\(t.events.joined(separator: " "))'"
        return " transition #\(number) (\(on))"
    }

    /// Names are nearly always ASCII without whitespace: one descriptor, no Character walk.
    @inline(__always)
    static func isSingleDescriptor(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && !EventTable.isASCIIWhitespace($0) }
    }

    /// Appends the descriptor of `text` to ``descriptorPool``, or reports it.
    private mutating func appendDescriptor(_ text: String, source: Int,
                                           transition t: UnsafePointer<TransitionDefinition>, number: Int) -> Bool {
        if let d = events.descriptor(text) {
            descriptorPool.append(d)
            return true
        }
        fail(.invalidDescriptor, source,
             "'\(text)' is not an event descriptor; use a dot-separated name, 'name.*' or '*'",
             suffix: Self.describe(t.pointee, number: number), location: t.pointee.location)
        return false
    }

    /// Resolves and checks one `<transition>` of state `source`.
    /// (`t` is read in place: a transition is not copied to be resolved.)
    mutating func transition(_ t: UnsafePointer<TransitionDefinition>, source: Int, number: Int) -> PendingTransition? {
        let descriptorStart = descriptorPool.count
        let events = t.pointee.events
        if let known = descriptorMemo.find(events) {
            for i in known { descriptorPool.append(descriptorPool[i]) }
        } else {
            var ok = true
            for text in events {
                if Self.isSingleDescriptor(text) {
                    if !text.isEmpty { ok = appendDescriptor(text, source: source, transition: t, number: number) && ok }
                } else {
                    for part in text.split(whereSeparator: \.isWhitespace) {
                        ok = appendDescriptor(String(part), source: source, transition: t, number: number) && ok
                    }
                }
            }
            if ok { descriptorMemo.insert(events, descriptorStart..<descriptorPool.count) }
        }
        let descriptorCount = descriptorPool.count - descriptorStart
        let targetStart: Int
        let targets = t.pointee.targets
        if let known = targetMemo.find(targets) {
            targetStart = targetPool.count
            for i in known { targetPool.append(targetPool[i]) }
        } else {
            // The suffix is built only for an error message: most charts have none.
            guard let start = resolve(targets, from: source, what: "transition target",
                                      suffix: Self.describe(t.pointee, number: number), location: t.pointee.location)
            else { return nil }
            targetStart = start
            if targetPool.count - start > 1, let (a, b) = conflictingTargets(start, targetPool.count - start) {
                fail(.invalidTargets, source,
                     "targets \(describe(a)) and \(describe(b)) cannot be active together; several targets must lie in different regions of a parallel state",
                     suffix: Self.describe(t.pointee, number: number), location: t.pointee.location)
                targetPool.removeSubrange(start...)
                return nil
            }
            targetMemo.insert(targets, start..<targetPool.count)
        }
        return PendingTransition(source: source, targetStart: targetStart, targetCount: targetPool.count - targetStart,
                                 descriptorStart: descriptorStart, descriptorCount: descriptorCount,
                                 guardID: guardID(t.pointee.guardBox), actionID: actionID(t.pointee.actionBoxes),
                                 isInternal: t.pointee.type == .internal)
    }

    /// The default-entry transition of a compound state (or the root): `<initial>`, the
    /// `initial` attribute, or the first child in document order.
    mutating func initialTransition(of s: Int) -> PendingTransition? {
        let definition = nodes[s].state   // read in place
        let start: Int
        var action = UInt32(SC_NONE)
        let what = s == 0 ? "initial state" : "initial state of \(describe(s))"
        if let initial = definition.pointee.initialTransition {
            if !definition.pointee.initial.isEmpty {
                fail(.invalidInitial, s, "\(describe(s)) has both an 'initial' attribute and an <initial> element; keep one")
            }
            if !initial.events.isEmpty || initial.guardBox != nil {
                fail(.invalidInitial, s, "the <initial> transition of \(describe(s)) must have no event and no condition",
                     location: initial.location)
            }
            guard let resolved = resolve(initial.targets, from: s, what: what, suffix: " <initial>",
                                         location: initial.location) else { return nil }
            start = resolved
            action = actionID(initial.actionBoxes)
        } else if !definition.pointee.initial.isEmpty {
            guard let resolved = resolve(definition.pointee.initial, from: s, what: what, suffix: "",
                                         location: nil) else { return nil }
            start = resolved
        } else {
            guard let first = firstStateChild(s) else { return nil }
            start = targetPool.count
            targetPool.append(sc_id(first))
        }
        if s == 0 { action = actionID(startActions) }
        let count = targetPool.count - start
        let rejected: Bool
        if count == 0 {
            fail(.invalidInitial, s, "the <initial> transition of \(describe(s)) needs a target")
            rejected = true
        } else if let target = targetPool[start...].first(where: { !isDescendant(Int($0), of: s) }) {
            fail(.invalidInitial, s, "\(what) \(describe(Int(target))) is not a descendant of \(describe(s)); initial states must lie inside the state")
            rejected = true
        } else if let (a, b) = conflictingTargets(start, count) {
            fail(.invalidInitial, s, "initial states \(describe(a)) and \(describe(b)) cannot be active together; several initial states must lie in different regions of a parallel state")
            rejected = true
        } else {
            rejected = false
        }
        if rejected {
            targetPool.removeSubrange(start...)
            return nil
        }
        return PendingTransition(source: s, targetStart: start, targetCount: count, descriptorStart: descriptorPool.count,
                                 descriptorCount: 0, guardID: UInt32(SC_NONE), actionID: action, isInternal: false)
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
        if !initial.events.isEmpty || initial.guardBox != nil {
            fail(.invalidHistory, h, "the default transition of history state '\(node.definition.id)' must have no event and no condition")
        }
        guard let start = resolve(initial.targets, from: h, what: "history default target", suffix: "",
                                  location: initial.location) else { return nil }
        if let target = targetPool[start...].first(where: { !isDescendant(Int($0), of: parent) || isHistory(Int($0)) }) {
            fail(.invalidHistory, h, "history default target \(describe(Int(target))) must be a state inside \(describe(parent)) other than a history state")
            targetPool.removeSubrange(start...)
            return nil
        }
        return PendingTransition(source: h, targetStart: start, targetCount: targetPool.count - start,
                                 descriptorStart: descriptorPool.count, descriptorCount: 0, guardID: UInt32(SC_NONE),
                                 actionID: actionID(initial.actionBoxes), isInternal: false)
    }

    /// Structural rules per kind: finals and histories have no children or transitions,
    /// parallel states take no initial, compound states need a non-history child.
    mutating func checkShape(_ s: Int) {
        let node = nodes[s]
        let definition = node.state   // read in place
        let hasChildren = node.lastDescendant > s
        switch node.kind {
        case SC_FINAL:
            if hasChildren { fail(.invalidFinal, s, "final state '\(definition.pointee.id)' cannot contain states") }
            if !definition.pointee.transitions.isEmpty {
                fail(.invalidFinal, s, "final state '\(definition.pointee.id)' cannot have transitions")
            }
        case SC_HISTORY_SHALLOW, SC_HISTORY_DEEP:
            if hasChildren { fail(.invalidHistory, s, "history state '\(definition.pointee.id)' cannot contain states") }
            if !definition.pointee.transitions.isEmpty || !definition.pointee.entryBoxes.isEmpty || !definition.pointee.exitBoxes.isEmpty {
                fail(.invalidHistory, s, "history state '\(definition.pointee.id)' can only have a default transition")
            }
        case SC_PARALLEL:
            if !definition.pointee.initial.isEmpty || definition.pointee.initialTransition != nil {
                fail(.invalidParallel, s, "parallel state '\(definition.pointee.id)' cannot have an initial state; all its children are entered")
            }
            if firstStateChild(s) == nil {
                fail(.invalidParallel, s, "parallel state '\(definition.pointee.id)' needs at least one child state")
            }
        case SC_COMPOUND where s != 0:
            if firstStateChild(s) == nil {
                fail(.misplacedHistory, s, "state '\(definition.pointee.id)' has only history children; add a child state for the history to remember")
            }
        case SC_ATOMIC:
            if !definition.pointee.initial.isEmpty || definition.pointee.initialTransition != nil {
                fail(.invalidInitial, s, "atomic state '\(definition.pointee.id)' has an initial state but no children")
            }
        default:
            break
        }
    }
}

/// Results computed for an array, found again by the array's storage. The memo keeps every
/// array it was given, so a storage address it knows cannot be freed and reused by another
/// array while it lives: the address alone identifies the array (arrays sharing a storage are
/// equal).
struct StorageMemo<Element> {
    /// Entries by their array's storage address (`HashIndex`, the address being its own hash).
    private var index: HashIndex
    private var ranges: [Range<Int>] = []
    /// The arrays, kept alive (see above); never read.
    private var arrays: [[Element]] = []

    /// A memo with room for `capacity` arrays before its index grows.
    init(capacity: Int = 8) {
        index = HashIndex(capacity: capacity)
    }

    @inline(__always)
    private static func key(_ array: [Element]) -> UInt64? {
        guard !array.isEmpty else { return nil }
        return array.withUnsafeBufferPointer { UInt64(UInt(bitPattern: $0.baseAddress)) }
    }

    /// The range stored for `array`, if any.
    func find(_ array: [Element]) -> Range<Int>? {
        guard let key = Self.key(array), let entry = index.find(key, where: { _ in true }) else { return nil }
        return ranges[entry]
    }

    /// Stores `range` for `array` (replacing an entry for the same storage).
    mutating func insert(_ array: [Element], _ range: Range<Int>) {
        guard let key = Self.key(array) else { return }
        if let entry = index.find(key, where: { _ in true }) {
            ranges[entry] = range
        } else {
            index.insert(key, entry: ranges.count)
            ranges.append(range)
            arrays.append(array)
        }
    }
}
