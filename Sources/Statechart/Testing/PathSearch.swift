/// What ``PathSearch`` needs of a machine: start it, put it back in a state it was in, send
/// one of a fixed list of inputs, and tell what each macrostep did. The SCXML layer's subject
/// restores snapshots (its points hold the whole state: configuration, history and the
/// datamodel's variables); the typed one replays the path from a fresh machine, so the app's
/// own actions and context run exactly as they will in a test.
package protocol PathSearchSubject: AnyObject {
    /// A machine's state between macrosteps, as the search tells states apart: two macrosteps
    /// ending in equal points continue the same way.
    associatedtype Point: Hashable

    /// The chart the machine runs.
    var chart: CompiledChart { get }
    /// How many inputs the search may send: inputs are `0..<inputCount`.
    var inputCount: Int { get }
    /// Starts a fresh machine and reports start-up's macrostep.
    func start() throws -> PathSearchStep<Point>
    /// Puts the machine in `point`, which the inputs `path` reach from start-up.
    func reach(_ point: Point, by path: [Int]) throws
    /// False only when `input` certainly enables no transition now (then sending it changes
    /// nothing and the search skips it).
    func mightHandle(_ input: Int) -> Bool
    /// Sends `input` and reports its macrostep.
    func send(_ input: Int) throws -> PathSearchStep<Point>
}

/// One macrostep as the search sees it.
package struct PathSearchStep<Point: Hashable> {
    /// Where the machine is afterwards.
    package var point: Point
    /// States entered during it (document-order indices; repeats allowed).
    package var entered: [Int]
    /// Transitions taken during it (indices in the compiled chart).
    package var taken: [Int]
    /// The active atomic states a test should see afterwards, in document order.
    package var configuration: [Int]
    /// Every active state (any kind) once the macrostep and what it queued have run: where
    /// the search goes on from.
    package var active: [Int]
    /// Whether the machine halted (nothing can be sent afterwards).
    package var halted: Bool

    package init(point: Point, entered: [Int], taken: [Int], configuration: [Int], active: [Int], halted: Bool) {
        self.point = point
        self.entered = entered
        self.taken = taken
        self.configuration = configuration
        self.active = active
        self.halted = halted
    }
}

/// Breadth-first search over a machine's states with the real engine: from start-up, every
/// input in every point reached, each point expanded once. Because the search is breadth
/// first, the first time a state is entered or a transition taken is by a shortest input
/// sequence. It is exhaustive when the points are finite (a null-datamodel chart: the
/// configurations and history records) and no bound stopped it (``isComplete``).
package struct PathSearch {
    /// One macrostep the search ran: start-up (`from == -1`) or `input` sent in point `from`.
    struct Hit {
        var from: Int
        var input: Int
        var entered: [Int32]
        var taken: [Int32]
        var configuration: [Int32]
    }

    struct Node {
        var hit: Int
        var depth: Int
        var halted: Bool
    }

    private(set) var hits: [Hit] = []
    private var nodes: [Node] = []
    /// For each state index, the first hit that entered it, or -1.
    private(set) var firstEntry: [Int]
    /// For each transition index, the first hit that took it, or -1.
    private(set) var firstTaking: [Int]
    /// For each state index, whether it was active in a point the search sent every input in
    /// (so a transition of it that was never taken was tried there).
    private(set) var activeWhenExpanded: [Bool]
    /// Whether every point was expanded with every input (no bound stopped the search).
    private(set) var isComplete = true
    /// The points found.
    var pointCount: Int { nodes.count }

    /// Runs the search. `maximumLength` bounds the inputs of a path; `maximumPoints` the
    /// points kept (the search's memory): reaching either makes ``isComplete`` false.
    package init<Subject: PathSearchSubject>(_ subject: Subject, maximumLength: Int, maximumPoints: Int) throws {
        firstEntry = Array(repeating: -1, count: subject.chart.stateCount)
        firstTaking = Array(repeating: -1, count: subject.chart.transitionCount)
        activeWhenExpanded = Array(repeating: false, count: subject.chart.stateCount)
        var index: [Subject.Point: Int] = [:]
        var points: [Subject.Point] = []
        let start = try subject.start()
        _ = record(start, from: -1, input: -1, always: true)
        index[start.point] = 0
        points.append(start.point)
        nodes.append(Node(hit: 0, depth: 0, halted: start.halted))
        markExpanded(start, depth: 0, maximumLength: maximumLength)
        var next = 0
        while next < nodes.count {
            let node = nodes[next]
            defer { next += 1 }
            if node.halted { continue }
            if node.depth >= maximumLength {
                isComplete = false
                continue
            }
            let path = inputs(toHit: node.hit)
            var atPoint = false
            for input in 0..<subject.inputCount {
                if !atPoint {
                    try subject.reach(points[next], by: path)
                    atPoint = true
                }
                guard subject.mightHandle(input) else { continue }
                let step = try subject.send(input)
                atPoint = false
                if let known = index[step.point] {
                    _ = known
                    _ = record(step, from: next, input: input, always: false)
                    continue
                }
                if nodes.count >= maximumPoints {
                    isComplete = false
                    continue
                }
                let hit = record(step, from: next, input: input, always: true)
                index[step.point] = nodes.count
                points.append(step.point)
                nodes.append(Node(hit: hit, depth: node.depth + 1, halted: step.halted))
                markExpanded(step, depth: node.depth + 1, maximumLength: maximumLength)
            }
        }
    }

    /// Every point kept is expanded unless it halted or lies at the length bound: its active
    /// states count as tried.
    private mutating func markExpanded<Point>(_ step: PathSearchStep<Point>, depth: Int, maximumLength: Int) {
        guard !step.halted, depth < maximumLength else { return }
        for state in step.active { activeWhenExpanded[state] = true }
    }

    /// Keeps `step` when `always` or when it entered a state or took a transition for the
    /// first time; returns its hit index (or -1).
    private mutating func record<Point>(_ step: PathSearchStep<Point>, from: Int, input: Int, always: Bool) -> Int {
        let isNew = step.entered.contains { firstEntry[$0] < 0 } || step.taken.contains { firstTaking[$0] < 0 }
        guard always || isNew else { return -1 }
        let hit = hits.count
        hits.append(Hit(from: from, input: input, entered: step.entered.map { Int32($0) },
                        taken: step.taken.map { Int32($0) }, configuration: step.configuration.map { Int32($0) }))
        for state in step.entered where firstEntry[state] < 0 { firstEntry[state] = hit }
        for transition in step.taken where firstTaking[transition] < 0 { firstTaking[transition] = hit }
        return hit
    }

    /// The hits from start-up (excluded) to `hit` (included), in order.
    func chain(toHit hit: Int) -> [Int] {
        var result: [Int] = []
        var current = hit
        while hits[current].from >= 0 {
            result.append(current)
            current = nodes[hits[current].from].hit
        }
        return result.reversed()
    }

    /// The inputs that reach `hit` from start-up.
    func inputs(toHit hit: Int) -> [Int] {
        chain(toHit: hit).map { hits[$0].input }
    }
}
