/// Collects the body of a ``TypedChart`` or a state: ``StateNode``, ``Parallel``, ``Final``,
/// ``History``, ``On``, ``Always``, ``OnDone``, ``After``, ``OnEntry``, ``OnExit``,
/// ``Initial`` and ``Invoke``, with `if`, `switch` and `for` to build parts of a chart conditionally.
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
    /// The body the builder produces.
    public typealias Content = ChartContent<State, Event>

    /// A state in the body.
    public static func buildExpression(_ node: StateNode<State, Event>) -> Content { Content([node.element]) }
    /// A parallel state in the body.
    public static func buildExpression(_ node: Parallel<State, Event>) -> Content { Content([node.element]) }
    /// A final state in the body.
    public static func buildExpression(_ node: Final<State, Event>) -> Content { Content([node.element]) }
    /// A history state in the body.
    public static func buildExpression(_ node: History<State, Event>) -> Content { Content([node.element]) }
    /// A transition on events.
    public static func buildExpression(_ transition: On<State, Event>) -> Content { Content([transition.element]) }
    /// An eventless transition.
    public static func buildExpression(_ transition: Always<State, Event>) -> Content { Content([transition.element]) }
    /// A transition on a done event.
    public static func buildExpression(_ transition: OnDone<State, Event>) -> Content { Content([transition.element]) }
    /// A delayed transition.
    public static func buildExpression(_ transition: After<State, Event>) -> Content { Content([transition.element]) }
    /// An entry action.
    public static func buildExpression(_ action: OnEntry<State, Event>) -> Content { Content([action.element]) }
    /// An exit action.
    public static func buildExpression(_ action: OnExit<State, Event>) -> Content { Content([action.element]) }
    /// The initial transition.
    public static func buildExpression(_ initial: Initial<State, Event>) -> Content { Content([initial.element]) }
    /// Work the state runs while active.
    public static func buildExpression(_ invoke: Invoke<State, Event>) -> Content { Content([invoke.element]) }
    /// A fragment built elsewhere (a function marked `@ChartBuilder`).
    public static func buildExpression(_ content: Content) -> Content { content }

    /// The elements of a body, in order.
    public static func buildBlock(_ parts: Content...) -> Content { Content(parts.flatMap(\.elements)) }
    /// An `if` without `else`.
    public static func buildOptional(_ part: Content?) -> Content { part ?? Content([]) }
    /// The first branch of an `if`-`else` or `switch`.
    public static func buildEither(first part: Content) -> Content { part }
    /// The second branch of an `if`-`else` or `switch`.
    public static func buildEither(second part: Content) -> Content { part }
    /// A `for` loop.
    public static func buildArray(_ parts: [Content]) -> Content { Content(parts.flatMap(\.elements)) }
    /// An `if #available` block.
    public static func buildLimitedAvailability(_ part: Content) -> Content { part }
}
