import Statechart
import Synchronization

/// A deterministic generator (splitmix64): the same seed gives the same chart and events.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0 ..< n.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// The events of random charts: a payload-free enum, so typed sends take the byte-table path.
enum RandomEvent: String, ChartEvent, CaseIterable {
    case a, b, c, d
}

/// What every action of a random chart appends to, in the order the machine ran them.
final class ActionLog: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var count: Int { entries.withLock { $0.count } }
    /// The entries appended since `start`.
    func since(_ start: Int) -> [String] { entries.withLock { Array($0[start...]) } }
}

/// A random statechart: nested compound and parallel states, final states, shallow and deep
/// history, guarded and eventless transitions, done transitions, internal transitions, and
/// entry, exit and transition actions that log their order and sometimes raise or send events.
/// States are numbered; ``content(log:)`` writes it with the typed DSL, once per machine (each
/// machine gets the chart with its own log).
struct RandomChart: CustomStringConvertible {
    enum Kind: Equatable { case atomic, compound, parallel, final, history(deep: Bool) }

    enum Trigger { case event(RandomEvent), eventless, done }

    /// A guard's condition: a function of the configuration or of the actions run so far, so
    /// two machines that agree so far evaluate it alike.
    /// `window`: enabled while the log's length modulo 40 is below 20. Every transition logs,
    /// so eventless transitions guarded by it stop within 20 microsteps.
    enum Condition { case inState(Int), evenLog, oddLog, window }

    struct Transition {
        var trigger: Trigger
        var target: Int?
        var isInternal: Bool
        var condition: Condition?
        var raises: RandomEvent?
    }

    struct Node {
        var id: Int
        var kind: Kind
        var children: [Int] = []
        var initial: Int?
        var historyDefault: Int?
        var transitions: [Transition] = []
        var entryRaises: RandomEvent?
        var entrySends: RandomEvent?
    }

    private(set) var nodes: [Node] = []
    private(set) var topLevel: [Int] = []

    init(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let count = 2 + random.below(3)
        topLevel = (0..<count).map { _ in makeState(depth: 0, &random) }
        if random.chance(20) { topLevel.append(add(Node(id: nodes.count, kind: .final))) }
        let regular = nodes.filter { [.atomic, .compound, .parallel].contains($0.kind) }.map(\.id)
        let targets = nodes.map(\.id)
        for id in regular {
            for _ in 0..<random.below(4) { nodes[id].transitions.append(makeTransition(of: id, targets, &random)) }
            if random.chance(8) { nodes[id].entryRaises = RandomEvent.allCases[random.below(4)] }
            if random.chance(5) { nodes[id].entrySends = RandomEvent.allCases[random.below(4)] }
        }
    }

    private mutating func add(_ node: Node) -> Int {
        nodes.append(node)
        return node.id
    }

    private mutating func makeState(depth: Int, _ random: inout SeededRandom) -> Int {
        let roll = random.below(100)
        let kind: Kind = depth >= 3 || roll < 45 ? .atomic : roll < 80 ? .compound : .parallel
        let id = add(Node(id: nodes.count, kind: kind))
        guard kind != .atomic else { return id }
        var children = (0..<(2 + random.below(2))).map { _ in makeState(depth: depth + 1, &random) }
        if kind == .compound {
            if random.chance(30) { children.append(add(Node(id: nodes.count, kind: .final))) }
            if random.chance(30) {
                let history = add(Node(id: nodes.count, kind: .history(deep: random.chance(50)),
                                       historyDefault: children[random.below(children.count)]))
                children.append(history)
            }
            nodes[id].initial = random.chance(50) ? nil : children[random.below(children.count)]
            if let initial = nodes[id].initial, case .history = nodes[initial].kind { nodes[id].initial = nil }
        }
        nodes[id].children = children
        return id
    }

    private func makeTransition(of source: Int, _ targets: [Int], _ random: inout SeededRandom) -> Transition {
        let roll = random.below(100)
        let composite = nodes[source].kind != .atomic
        let trigger: Trigger = roll < 75 ? .event(RandomEvent.allCases[random.below(4)])
            : roll < 88 || !composite ? .eventless : .done
        var condition: Condition?
        switch random.below(4) {
        case 0: condition = .inState(targets[random.below(targets.count)])
        case 1: condition = random.chance(50) ? .evenLog : .oddLog
        default: condition = nil
        }
        // Eventless transitions mostly loop until the runaway bound; a runaway is something
        // both machines must report alike, but most seeds should do more: most are windowed.
        if case .eventless = trigger, condition == nil || random.chance(80) { condition = .window }
        return Transition(trigger: trigger, target: random.chance(85) ? targets[random.below(targets.count)] : nil,
                          isInternal: random.chance(20), condition: condition,
                          raises: random.chance(10) ? RandomEvent.allCases[random.below(4)] : nil)
    }

    /// The chart in the typed DSL, its actions appending to `log`.
    func content(log: ActionLog) -> ChartContent<Int, RandomEvent> {
        states(topLevel, log)
    }

    @ChartBuilder<Int, RandomEvent>
    private func states(_ ids: [Int], _ log: ActionLog) -> ChartContent<Int, RandomEvent> {
        for id in ids { state(nodes[id], log) }
    }

    @ChartBuilder<Int, RandomEvent>
    private func state(_ node: Node, _ log: ActionLog) -> ChartContent<Int, RandomEvent> {
        switch node.kind {
        case .final:
            Final(node.id)
        case .history(let deep):
            History(node.id, deep ? .deep : .shallow, default: node.historyDefault!)
        case .parallel:
            Parallel(node.id) { body(node, log) }
        case .atomic, .compound:
            StateNode(node.id, initial: node.initial) { body(node, log) }
        }
    }

    @ChartBuilder<Int, RandomEvent>
    private func body(_ node: Node, _ log: ActionLog) -> ChartContent<Int, RandomEvent> {
        let id = node.id, raises = node.entryRaises, sends = node.entrySends
        OnEntry { ctx in
            log.append("enter \(id)")
            if let raises { ctx.raise(raises) }
            if let sends { ctx.send(sends) }
        }
        OnExit { _ in log.append("exit \(id)") }
        for (index, transition) in node.transitions.enumerated() {
            self.transition(transition, name: "\(id).\(index)", log)
        }
        states(node.children, log)
    }

    @ChartBuilder<Int, RandomEvent>
    private func transition(_ t: Transition, name: String, _ log: ActionLog) -> ChartContent<Int, RandomEvent> {
        let type: TransitionType = t.isInternal ? .internal : .external
        let raises = t.raises
        let action: TypedAction<Int, RandomEvent> = { ctx in
            log.append("transition \(name)")
            if let raises { ctx.raise(raises) }
        }
        let condition = t.condition.map { Self.guardClosure($0, log) }
        switch (t.trigger, t.target, condition) {
        case (.event(let e), let target?, let condition?): On(e, to: target, type: type, guard: condition, action: action)
        case (.event(let e), let target?, nil): On(e, to: target, type: type, action: action)
        case (.event(let e), nil, let condition?): On(e, type: type, guard: condition, action: action)
        case (.event(let e), nil, nil): On(e, type: type, action: action)
        case (.eventless, let target?, let condition): Always(to: target, type: type, guard: condition ?? { _ in true }, action: action)
        case (.eventless, nil, let condition): Always(type: type, guard: condition ?? { _ in true }, action: action)
        case (.done, let target?, let condition): OnDone(to: target, type: type, guard: condition ?? { _ in true }, action: action)
        case (.done, nil, let condition): OnDone(type: type, guard: condition ?? { _ in true }, action: action)
        }
    }

    private static func guardClosure(_ condition: Condition, _ log: ActionLog) -> TypedGuard<Int, RandomEvent> {
        switch condition {
        case .inState(let state): return { ctx in ctx.isActive(state) }
        case .evenLog: return { _ in log.count % 2 == 0 }
        case .oddLog: return { _ in log.count % 2 == 1 }
        case .window: return { _ in log.count % 40 < 20 }
        }
    }

    /// The chart's shape, printed when a seed fails.
    var description: String {
        func line(_ id: Int, _ indent: String) -> [String] {
            let node = nodes[id]
            var text = "\(indent)\(id) \(node.kind)"
            if let initial = node.initial { text += " initial=\(initial)" }
            if let d = node.historyDefault { text += " default=\(d)" }
            for t in node.transitions {
                text += " [\(t.trigger) -> \(t.target.map(String.init) ?? "none")\(t.isInternal ? " internal" : "")"
                    + "\(t.condition.map { " if \($0)" } ?? "")\(t.raises.map { " raise \($0)" } ?? "")]"
            }
            return [text] + node.children.flatMap { line($0, indent + "  ") }
        }
        return topLevel.flatMap { line($0, "") }.joined(separator: "\n")
    }
}
