extension TypedChart {
    /// Generates test paths: sequences of `events` that, each from a fresh machine, together
    /// enter every state the chart can reach, or take every transition it can take, with the
    /// active atomic states expected after each event.
    ///
    /// ```swift
    /// let plan = try chart.testPlan(events: [.coin, .push])
    /// for path in plan.paths {
    ///     let machine = StateMachine(chart)
    ///     try machine.start()
    ///     for step in path.steps {
    ///         try machine.send(step.event)
    ///         #expect(machine.configuration == step.expected)
    ///     }
    /// }
    /// #expect(plan.unreached.isEmpty)
    /// ```
    ///
    /// The search runs the real machine that `makeMachine` makes (by default
    /// `StateMachine(self, clock: TestClock())`), so guards and actions run as they will in the
    /// test: breadth first from start-up, every event in every machine state found, each
    /// reached by replaying its path on a fresh machine. Machine states are told apart by
    /// their configuration, history records, queued events and context (when the context's
    /// type is `Hashable`); state kept outside the machine is not seen, so a guard reading it
    /// sees what the first path to that machine state left there.
    /// Delayed events are not fired (the test clock does not advance): send them as `events`
    /// if the test should take their transitions.
    ///
    /// - Parameters:
    ///   - events: the events the search sends, in this order of preference.
    ///   - goal: ``TestCoverageGoal/transitions`` (the default) or ``TestCoverageGoal/states``.
    ///   - state: one state to reach instead: the plan has one shortest path to it.
    ///   - maximumLength: the longest event sequence tried.
    ///   - maximumStates: the most distinct machine states the search keeps.
    ///   - makeMachine: makes each fresh machine the search runs (`nil`: a `StateMachine` of
    ///     this chart on a `TestClock`; a chart with a context must pass one, with its value).
    /// - Throws: what the machine throws while the search sends (a runaway macrostep, say).
    /// - Complexity: O(machine states × events × path length) sends.
    public func testPlan(events: [Event], covering goal: TestCoverageGoal = .transitions, reaching state: State? = nil,
                         maximumLength: Int = 32, maximumStates: Int = 10_000,
                         makeMachine: (() -> StateMachine<State, Event>)? = nil) throws -> TestPlan<Event, State> {
        let make = makeMachine ?? {
            guard let none = NoContext() as? Event.Context else {
                preconditionFailure("testPlan of a chart whose events declare a context: pass makeMachine, which gives the context its first value")
            }
            return StateMachine(self, clock: TestClock(), context: none)
        }
        let subject = TypedPathSubject(chart: self, events: events, make: make)
        let search = try PathSearch(subject, maximumLength: maximumLength, maximumPoints: maximumStates)
        let items = ChartItems(chart: compiled, diagram: ChartDiagram(definition))
        let target = state.flatMap { maps.index(of: $0) }
        return search.plan(items: items, goal: goal, target: target, maximumLength: maximumLength,
                           inputNames: events.map { TypedChartMaps<State, Event>.string(of: $0.name) },
                           event: { events[$0] }, state: { maps.state(at: $0) })
    }
}

extension TypedChart where Event: CaseIterable {
    /// ``testPlan(events:covering:reaching:maximumLength:maximumStates:makeMachine:)`` with
    /// every case of `Event`.
    ///
    /// ```swift
    /// let plan = try chart.testPlan()
    /// ```
    public func testPlan(covering goal: TestCoverageGoal = .transitions, reaching state: State? = nil,
                         maximumLength: Int = 32, maximumStates: Int = 10_000,
                         makeMachine: (() -> StateMachine<State, Event>)? = nil) throws -> TestPlan<Event, State> {
        try testPlan(events: Array(Event.allCases), covering: goal, reaching: state, maximumLength: maximumLength,
                     maximumStates: maximumStates, makeMachine: makeMachine)
    }
}

/// The path search's view of a typed chart: a fresh machine per reach, the path replayed, so
/// the context and the app's actions are those of a real run.
final class TypedPathSubject<State: Hashable & Sendable, Event: ChartEvent>: PathSearchSubject {
    /// A machine state: configuration, history, queued events, and the context when it is
    /// `Hashable`.
    struct Point: Hashable {
        var machine: MachineSearchKey
        var context: AnyHashable?
    }

    let typedChart: TypedChart<State, Event>
    let events: [Event]
    let make: () -> StateMachine<State, Event>
    private var machine: StateMachine<State, Event>?
    private var recorder: MacrostepRecorder?

    init(chart: TypedChart<State, Event>, events: [Event], make: @escaping () -> StateMachine<State, Event>) {
        self.typedChart = chart
        self.events = events
        self.make = make
    }

    var chart: CompiledChart { typedChart.compiled }
    var inputCount: Int { events.count }

    private func fresh() throws -> StateMachine<State, Event> {
        let machine = make()
        recorder = MacrostepRecorder(machine.machine)
        self.machine = machine
        try machine.start()
        return machine
    }

    private func outcome(_ machine: StateMachine<State, Event>) throws -> PathSearchStep<Point> {
        let (entered, taken) = recorder!.take()
        let key = try machine.machine.searchKey()
        let context = Event.Context.self == NoContext.self ? nil : machine.context as? AnyHashable
        return PathSearchStep(point: Point(machine: key, context: context), entered: entered, taken: taken,
                              configuration: machine.machine.atomicStateIndices, active: key.active, halted: key.halted)
    }

    func start() throws -> PathSearchStep<Point> {
        try outcome(try fresh())
    }

    func reach(_ point: Point, by path: [Int]) throws {
        let machine = try fresh()
        for input in path { try machine.send(events[input]) }
        _ = recorder!.take()
    }

    func mightHandle(_ input: Int) -> Bool {
        machine!.canHandle(events[input], evaluatingGuards: false)
    }


    func send(_ input: Int) throws -> PathSearchStep<Point> {
        try machine!.send(events[input])
        return try outcome(machine!)
    }
}
