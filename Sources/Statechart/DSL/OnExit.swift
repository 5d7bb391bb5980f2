/// An exit action: runs each time the enclosing state is exited, after its children's exit
/// actions and before its parent's. Several run in the order written.
///
/// ```swift
/// StateNode(.playing) {
///     OnExit { _ in speaker.stop() }
///     OnExit { ctx in ctx.cancel(sendID: "tick") }
/// }
/// ```
public struct OnExit<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// Runs `action` when the enclosing state is exited.
    public init(fileID: String = #fileID, line: Int = #line, column: Int = #column,
                _ action: @escaping TypedAction<State, Event>) {
        element = .exit(action, SourceLocation(file: fileID, line: line, column: column))
    }
}
