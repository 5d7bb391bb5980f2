/// A transition on a state's done event (`done.state.<id>`): raised when a compound state's
/// final child is entered, or when every region of a parallel state is in a final state.
///
/// ```swift
/// Parallel(.setup) {
///     StateNode(.download) { StateNode(.fetching) { On(.fetched, to: .fetched) }; Final(.fetched) }
///     StateNode(.account) { StateNode(.signingIn) { On(.signedIn, to: .ready) }; Final(.ready) }
///     OnDone(to: .main)              // both regions finished
/// }
/// ```
/// `ctx.event` is `nil` in its actions (the done event is not one of your events); the done
/// data is `ctx.untyped.event?.payload`.
public struct OnDone<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// A transition on the done event of `state` (the enclosing state when `nil`).
    public init(of state: State? = nil, to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .done(state), targets: targets, type: type, guardCondition: nil,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition on the done event of `state` (the enclosing state when `nil`), running `action`.
    public init(of state: State? = nil, to targets: State..., type: TransitionType = .external,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .done(state), targets: targets, type: type, guardCondition: nil,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A transition on the done event of `state` (the enclosing state when `nil`), taken only
    /// when `condition` holds.
    // Disfavoured so that a multi-statement trailing closure is an action, never a guard.
    @_disfavoredOverload
    public init(of state: State? = nil, to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        element = .transition(TransitionSpec(
            trigger: .done(state), targets: targets, type: type, guardCondition: condition,
            action: nil, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// A guarded transition on the done event of `state` (the enclosing state when `nil`),
    /// running `action`.
    public init(of state: State? = nil, to targets: State..., type: TransitionType = .external,
                guard condition: @escaping TypedGuard<State, Event>,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: @escaping TypedAction<State, Event>) {
        element = .transition(TransitionSpec(
            trigger: .done(state), targets: targets, type: type, guardCondition: condition,
            action: action, location: SourceLocation(file: fileID, line: line, column: column)))
    }
}
