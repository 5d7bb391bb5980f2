/// What a set of test paths must exercise: every reachable state, or every reachable
/// transition (and with them every reachable state).
public enum TestCoverageGoal: String, Sendable, CaseIterable {
    /// Enter every state that can be entered.
    case states
    /// Take every transition that can be taken, and enter every state that can be entered.
    case transitions
}

/// One test case generated from a chart: the events to send after start-up and, after each,
/// the active atomic states the machine must be in.
///
/// ```swift
/// for path in plan.paths {
///     let machine = StateMachine(chart)
///     try machine.start()
///     #expect(machine.configuration == path.start)
///     for step in path.steps {
///         try machine.send(step.event)
///         #expect(machine.configuration == step.expected)
///     }
/// }
/// ```
public struct TestPath<Event, State> {
    /// One event and the configuration after its macrostep.
    public struct Step {
        /// The event to send.
        public var event: Event
        /// The active atomic states afterwards, in document order.
        public var expected: [State]
    }

    /// The active atomic states after start-up, in document order.
    public var start: [State]
    /// The events in order, each with the configuration after it.
    public var steps: [Step]
    /// What the path was chosen to reach: state ids and transitions
    /// (`source -event [condition]-> targets`) no shorter chosen path covers.
    public var goals: [String]
}

extension TestPath: Sendable where Event: Sendable, State: Sendable {}
extension TestPath.Step: Sendable where Event: Sendable, State: Sendable {}
extension TestPath: Equatable where Event: Equatable, State: Equatable {}
extension TestPath.Step: Equatable where Event: Equatable, State: Equatable {}

/// A state or transition no generated path reaches, and why.
public struct UnreachedItem: Sendable, Hashable, CustomStringConvertible {
    /// What was not reached.
    public enum Kind: String, Sendable, Hashable {
        case state
        case transition
    }

    /// A state or a transition.
    public var kind: Kind
    /// The state's id, or the transition as `source -event [condition]-> targets`.
    public var name: String
    /// Why: a source never active, a parent never entered, a condition that never holds when
    /// the transition could be taken, a transition always preempted by another, or the
    /// search's bound.
    public var reason: String

    /// `state 'off': ...` or `transition red -tick [In('x')]-> green: ...`.
    public var description: String {
        kind == .state ? "state '\(name)': \(reason)" : "transition \(name): \(reason)"
    }
}

/// The test paths generated from a chart: paths that together reach every reachable state
/// (or take every reachable transition), and what no path reaches.
///
/// ```swift
/// let plan = try chart.testPlan(events: [.coin, .push])
/// #expect(plan.unreached.isEmpty)
/// ```
public struct TestPlan<Event, State> {
    /// What the paths cover.
    public var goal: TestCoverageGoal
    /// The paths, longest first; every one starts from a fresh machine.
    public var paths: [TestPath<Event, State>]
    /// What no path reaches, with the reason, in document order (states first).
    public var unreached: [UnreachedItem]
    /// Whether the search saw every state the machine can be in with these events, so that
    /// ``unreached`` lists what cannot be reached at all. False when a bound stopped it (the
    /// path length, or the number of distinct machine states); then ``unreached`` lists what
    /// the bounded search did not reach.
    public var isExhaustive: Bool
}

extension TestPlan: Sendable where Event: Sendable, State: Sendable {}
