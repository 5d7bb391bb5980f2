/// A history pseudo-state: a transition targeting it re-enters its parent where the parent
/// was last left, or, the first time, follows the default transition.
///
/// Shallow history remembers the parent's active child (entering that child by default);
/// deep history remembers the active atomic descendants.
///
/// ```swift
/// StateNode(.player) {
///     History(.resume, .deep, default: .stopped)
///     StateNode(.stopped) { On(.play, to: .playing) }
///     StateNode(.playing) { On(.pause, to: .paused) }
///     StateNode(.paused) { On(.play, to: .playing) }
///     On(.call, to: .onCall)
/// }
/// StateNode(.onCall) { On(.hangUp, to: .resume) }   // back to playing, paused or stopped
/// ```
/// The history state is named by a value of your state type but is never active itself.
public struct History<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// A history state named `id` whose default transition goes to `targets` and runs `action`.
    public init(_ id: State, _ type: HistoryType = .shallow, default targets: State...,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: TypedAction<State, Event>? = nil) {
        element = .state(StateSpec(id: id, kind: .history(type), initial: nil, content: [],
                                   historyDefault: targets, historyAction: action,
                                   location: SourceLocation(file: fileID, line: line, column: column)))
    }
}
