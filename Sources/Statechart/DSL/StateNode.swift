/// A state: atomic when its body has no child states, compound when it has some.
///
/// The body holds the state's transitions, entry and exit actions, and child states. A
/// compound state starts in `initial`, else in the target of an ``Initial`` in its body, else
/// in its first child.
///
/// ```swift
/// StateNode(.connected, initial: .idle) {
///     OnEntry { _ in print("online") }
///     On(.disconnect, to: .offline)
///     StateNode(.idle) { On(.request, to: .busy) }
///     StateNode(.busy) { On(.response, to: .idle) }
/// }
/// ```
public struct StateNode<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// A state named `id`, with an optional initial child and a body.
    public init(_ id: State, initial: State? = nil,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                @ChartBuilder<State, Event> _ content: () -> ChartContent<State, Event> = { ChartContent() }) {
        element = .state(StateSpec(id: id, kind: .state, initial: initial, content: content().elements,
                                   location: SourceLocation(file: fileID, line: line, column: column)))
    }
}
