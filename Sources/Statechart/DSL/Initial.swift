/// The initial transition of the enclosing compound state (SCXML `<initial>`): the state(s)
/// it starts in, and content that runs after the state's entry actions and before the
/// children are entered.
///
/// Use it for content, or for several initial states in different regions of a parallel
/// descendant. At the top level of a chart it names the chart's initial states, and its
/// action runs when the machine starts, before any state is entered.
///
/// ```swift
/// StateNode(.app) {
///     Initial(.splash) { _ in analytics.log("launch") }
///     StateNode(.splash) { On(.loaded, to: .home) }
///     StateNode(.home)
/// }
/// ```
public struct Initial<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// Starts the enclosing state in `targets`, running `action` on the way.
    public init(_ targets: State..., fileID: String = #fileID, line: Int = #line, column: Int = #column,
                action: TypedAction<State, Event>? = nil) {
        element = .initial(targets, action, SourceLocation(file: fileID, line: line, column: column))
    }
}
