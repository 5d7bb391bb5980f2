/// Collects the body of a ``TypedChart`` or a state: ``StateNode``, ``Parallel``, ``Final``,
/// ``History``, ``On``, ``Always``, ``OnDone``, ``After``, ``OnEntry``, ``OnExit`` and
/// ``Initial``, with `if`, `switch` and `for` to build parts of a chart conditionally.
///
/// ```swift
/// let chart = try TypedChart<PlayerState, PlayerEvent> {
///     StateNode(.stopped) { On(.play, to: .playing) }
///     StateNode(.playing) {
///         OnEntry { _ in speaker.start() }
///         On(.stop, to: .stopped)
///         if allowsPause { On(.pause, to: .paused) }
///     }
///     StateNode(.paused) { On(.play, to: .playing) }
/// }
/// ```
@resultBuilder
public enum ChartBuilder<State: Hashable & Sendable, Event: ChartEvent> {
    public typealias Content = ChartContent<State, Event>

    public static func buildExpression(_ node: StateNode<State, Event>) -> Content { Content([node.element]) }
    public static func buildExpression(_ node: Parallel<State, Event>) -> Content { Content([node.element]) }
    public static func buildExpression(_ node: Final<State, Event>) -> Content { Content([node.element]) }
    public static func buildExpression(_ node: History<State, Event>) -> Content { Content([node.element]) }
    public static func buildExpression(_ transition: On<State, Event>) -> Content { Content([transition.element]) }
    public static func buildExpression(_ transition: Always<State, Event>) -> Content { Content([transition.element]) }
    public static func buildExpression(_ transition: OnDone<State, Event>) -> Content { Content([transition.element]) }
    public static func buildExpression(_ transition: After<State, Event>) -> Content { Content([transition.element]) }
    public static func buildExpression(_ action: OnEntry<State, Event>) -> Content { Content([action.element]) }
    public static func buildExpression(_ action: OnExit<State, Event>) -> Content { Content([action.element]) }
    public static func buildExpression(_ initial: Initial<State, Event>) -> Content { Content([initial.element]) }
    public static func buildExpression(_ content: Content) -> Content { content }

    public static func buildBlock(_ parts: Content...) -> Content { Content(parts.flatMap(\.elements)) }
    public static func buildOptional(_ part: Content?) -> Content { part ?? Content([]) }
    public static func buildEither(first part: Content) -> Content { part }
    public static func buildEither(second part: Content) -> Content { part }
    public static func buildArray(_ parts: [Content]) -> Content { Content(parts.flatMap(\.elements)) }
    public static func buildLimitedAvailability(_ part: Content) -> Content { part }
}
