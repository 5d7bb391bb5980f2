/// A delayed transition (XState's `after`): taken when the enclosing state has stayed active
/// for `delay` on the machine's clock.
///
/// Entering the state schedules a delayed event; leaving it cancels that event, so the timer
/// restarts each time the state is entered. With a ``TestClock`` the delay passes when the
/// test advances the clock.
///
/// ```swift
/// StateNode(.green) {
///     After(.seconds(30), to: .yellow)
/// }
/// StateNode(.yellow) {
///     After(.seconds(3), to: .red)
/// }
/// ```
/// `ctx.event` is `nil` in its actions (the timer event is not one of your events).
public struct After<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// A transition to `targets` once the enclosing state has been active for `delay`.
    public init(_ delay: Duration, to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .after(delay), targets: targets, type: type, guardCondition: nil,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition to `targets` once the enclosing state has been active for `delay`, running `action`.
    public init(_ delay: Duration, to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .after(delay), targets: targets, type: type, guardCondition: nil,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A delayed transition: when the delay passes, taken only if `condition` holds.
    // Disfavoured so that a multi-statement trailing closure is an action, never a guard.
    @_disfavoredOverload
    public init(_ delay: Duration, to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .after(delay), targets: targets, type: type, guardCondition: condition,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A delayed transition: when the delay passes, taken only if `condition` holds, running `action`.
    public init(_ delay: Duration, to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .after(delay), targets: targets, type: type, guardCondition: condition,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }
}
