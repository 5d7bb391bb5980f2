/// An eventless transition (XState's `always`): taken as soon as the machine is in its state
/// and the guard holds, within the same macrostep, before the next event is looked at.
///
/// ```swift
/// StateNode(.checking) {
///     Always(to: .adult, guard: { _ in age >= 18 })
///     Always(to: .minor)
/// }
/// ```
/// An unguarded eventless transition that does not leave its state would loop forever; the
/// machine stops such a macrostep with ``MachineError/runaway(steps:configuration:)``.
public struct Always<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// An unguarded eventless transition to `targets`.
    public init(to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .eventless, targets: targets, type: type, guardCondition: nil,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// An unguarded eventless transition to `targets`, running `action` when taken.
    public init(to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .eventless, targets: targets, type: type, guardCondition: nil,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// An eventless transition to `targets`, taken when `condition` holds.
    // Disfavoured so that a multi-statement trailing closure is an action, never a guard.
    @_disfavoredOverload
    public init(to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .eventless, targets: targets, type: type, guardCondition: condition,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// An eventless transition to `targets`, taken when `condition` holds, running `action`.
    public init(to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .eventless, targets: targets, type: type, guardCondition: condition,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }
}
