/// A transition on one or more events.
///
/// Written in a state, it leaves that state (or one of its descendants) for the targets.
/// Without a target it is *targetless*: its action runs and no state is exited or entered.
/// `type: .internal` keeps the source active when every target is its descendant. Written
/// at the top level of a chart, it fires from any state. Transitions are tried in document
/// order, the innermost state's first; the first whose guard holds is taken.
///
/// ```swift
/// StateNode(.locked) {
///     On(.coin, to: .unlocked) { _ in turnstile.unlock() }
///     On(.push) { _ in alarm.beep() }                                     // targetless
///     On(.coin, .token, to: .unlocked, guard: { _ in !broken })           // several events
/// }
/// On(descriptor: "error.*", to: .failed)                                   // any state, error.anything
/// ```
public struct On<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// A transition on `event` (and `more` events) to `targets`.
    public init(_ event: Event.Name, _ more: Event.Name..., to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .names([event] + more), targets: targets, type: type, guardCondition: nil,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition on `event` (and `more` events) to `targets`, running `action` when taken.
    public init(_ event: Event.Name, _ more: Event.Name..., to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .names([event] + more), targets: targets, type: type, guardCondition: nil,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition on `event` (and `more` events), taken only when `condition` holds.
    // Disfavoured so that a multi-statement trailing closure is an action, never a guard.
    @_disfavoredOverload
    public init(_ event: Event.Name, _ more: Event.Name..., to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .names([event] + more), targets: targets, type: type, guardCondition: condition,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition on `event` (and `more` events), taken only when `condition` holds, running
    /// `action` when taken.
    public init(_ event: Event.Name, _ more: Event.Name..., to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .names([event] + more), targets: targets, type: type, guardCondition: condition,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition on an SCXML event descriptor: `"name"` (which also matches
    /// `"name.anything"`), `"name.*"`, `"*"` (every event), or several separated by spaces.
    ///
    /// ```swift
    /// On(descriptor: "*", to: .confused)
    /// ```
    public init(descriptor: String, to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .descriptor(descriptor), targets: targets, type: type, guardCondition: nil,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition on an SCXML event descriptor, running `action` when taken.
    public init(descriptor: String, to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .descriptor(descriptor), targets: targets, type: type, guardCondition: nil,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition on an SCXML event descriptor, taken only when `condition` holds.
    // Disfavoured so that a multi-statement trailing closure is an action, never a guard.
    @_disfavoredOverload
    public init(descriptor: String, to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .descriptor(descriptor), targets: targets, type: type, guardCondition: condition,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition on an SCXML event descriptor, taken only when `condition` holds, running
    /// `action` when taken.
    public init(descriptor: String, to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .descriptor(descriptor), targets: targets, type: type, guardCondition: condition,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }
}
