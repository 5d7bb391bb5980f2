/// An entry action: runs each time the enclosing state is entered, after its parent's entry
/// actions and before its children's. Several run in the order written.
///
/// ```swift
/// StateNode(.playing) {
///     OnEntry { _ in speaker.start() }
///     OnEntry { ctx in ctx.send(.tick, after: .seconds(1), id: "tick") }
/// }
/// ```
public struct OnEntry<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// Runs `action` when the enclosing state is entered.
    public init(fileID: String = #fileID, line: Int = #line, column: Int = #column,
                _ action: @escaping TypedAction<State, Event>) {
        element = .entry(action, SourceLocation(file: fileID, line: line, column: column))
    }
}
