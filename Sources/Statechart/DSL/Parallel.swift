/// A parallel state: every child state (a *region*) is active at once, and an event is
/// offered to all of them.
///
/// ```swift
/// Parallel(.call) {
///     StateNode(.audio) {
///         StateNode(.unmuted) { On(.mute, to: .muted) }
///         StateNode(.muted) { On(.unmute, to: .unmuted) }
///     }
///     StateNode(.video) {
///         StateNode(.cameraOn) { On(.cameraToggle, to: .cameraOff) }
///         StateNode(.cameraOff) { On(.cameraToggle, to: .cameraOn) }
///     }
///     On(.hangUp, to: .ended)
/// }
/// ```
/// The parallel state is *done* (``OnDone``) when every region has reached a final state.
public struct Parallel<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// A parallel state named `id` whose child states are its regions.
    public init(_ id: State, fileID: String = #fileID, line: Int = #line, column: Int = #column,
                @ChartBuilder<State, Event> _ content: () -> ChartContent<State, Event>) {
        element = .state(StateSpec(id: id, kind: .parallel, initial: nil, content: content().elements,
                                   location: SourceLocation(file: fileID, line: line, column: column)))
    }
}
