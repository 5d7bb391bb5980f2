/// The body of a typed chart or state: states, transitions and actions, as the ``ChartBuilder``
/// collects them.
///
/// Write reusable fragments as functions returning `ChartContent`:
///
/// ```swift
/// @ChartBuilder<AppState, AppEvent>
/// func logoutHandling() -> ChartContent<AppState, AppEvent> {
///     On(.logout, to: .loggedOut)
///     On(.sessionExpired, to: .loggedOut)
/// }
/// ```
public struct ChartContent<State: Hashable & Sendable, Event: ChartEvent> {
    var elements: [ChartElement<State, Event>]

    init(_ elements: [ChartElement<State, Event>]) {
        self.elements = elements
    }

    /// An empty body.
    public init() {
        elements = []
    }
}

/// An action of a typed chart: entry, exit, transition or initial content.
///
/// ```swift
/// let greet: TypedAction<AppState, AppEvent> = { ctx in print("entered on \(String(describing: ctx.event))") }
/// ```
public typealias TypedAction<State: Hashable & Sendable, Event: ChartEvent> =
    @Sendable (StateMachine<State, Event>.Context) -> Void

/// A guard of a typed chart: whether a transition is enabled for the current event.
///
/// ```swift
/// let hasCredit: TypedGuard<VendingState, VendingEvent> = { _ in wallet.credit > 0 }
/// ```
public typealias TypedGuard<State: Hashable & Sendable, Event: ChartEvent> =
    @Sendable (StateMachine<State, Event>.Context) -> Bool

/// One piece of a chart body (internal form of the DSL).
enum ChartElement<State: Hashable & Sendable, Event: ChartEvent> {
    case state(StateSpec<State, Event>)
    case transition(TransitionSpec<State, Event>)
    case entry(TypedAction<State, Event>, SourceLocation)
    case exit(TypedAction<State, Event>, SourceLocation)
    case initial([State], TypedAction<State, Event>?, SourceLocation)
    case invoke(InvokeSpec<State, Event>)
}

/// A state as written in the DSL.
struct StateSpec<State: Hashable & Sendable, Event: ChartEvent> {
    var id: State
    var kind: StateDefinition.Kind
    var initial: State?
    var content: [ChartElement<State, Event>]
    /// History states: the default transition's targets and content.
    var historyDefault: [State] = []
    var historyAction: TypedAction<State, Event>?
    /// Final states: the data of the parent's done event.
    var doneData: (@Sendable (StateMachine<State, Event>.Context) -> (any Sendable)?)?
    var location: SourceLocation
}

/// What triggers a transition written in the DSL.
enum TransitionTrigger<State: Hashable & Sendable, Event: ChartEvent> {
    case names([Event.Name])
    case descriptor(String)
    case eventless
    /// `done.state.<id>` of the given state, or of the enclosing one when `nil`.
    case done(State?)
    case after(Duration)
}

/// A transition as written in the DSL.
struct TransitionSpec<State: Hashable & Sendable, Event: ChartEvent> {
    var trigger: TransitionTrigger<State, Event>
    var targets: [State]
    var type: TransitionType
    var guardCondition: TypedGuard<State, Event>?
    var action: TypedAction<State, Event>?
    var location: SourceLocation
}
