/// A final state: entering it completes its parent, which raises the parent's done event
/// (handled with ``OnDone``). A final state at the top level of the chart halts the machine.
///
/// ```swift
/// StateNode(.checkout) {
///     StateNode(.paying) { On(.paid, to: .receipt) }
///     Final(.receipt, doneData: { _ in orderNumber })
///     OnDone(to: .thankYou)     // "done.state.checkout"
/// }
/// ```
/// The body may hold ``OnEntry`` and ``OnExit``; a final state has no children or transitions.
public struct Final<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// A final state named `id`; `doneData` computes the payload of the parent's done event.
    public init(_ id: State,
                doneData: (@Sendable (StateMachine<State, Event>.Context) -> (any Sendable)?)? = nil,
                fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        self.init(id, doneData: doneData, fileID: fileID, line: line, column: column) { ChartContent() }
    }

    /// A final state named `id` whose body holds ``OnEntry`` and ``OnExit`` actions;
    /// `doneData` computes the payload of the parent's done event.
    public init(_ id: State,
                doneData: (@Sendable (StateMachine<State, Event>.Context) -> (any Sendable)?)? = nil,
                fileID: String = #fileID, line: Int = #line, column: Int = #column,
                @ChartBuilder<State, Event> _ content: () -> ChartContent<State, Event>) {
        element = .state(StateSpec(id: id, kind: .final, initial: nil, content: content().elements,
                                   doneData: doneData,
                                   location: SourceLocation(file: fileID, line: line, column: column)))
    }
}
