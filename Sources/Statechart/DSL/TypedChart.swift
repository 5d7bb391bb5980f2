/// A statechart whose states and events are your own types, written with the ``ChartBuilder``
/// DSL, validated and compiled once, ready to run any number of ``StateMachine``s.
///
/// ```swift
/// enum TurnstileState: Hashable, Sendable { case locked, unlocked }
/// enum TurnstileEvent: ChartEvent { case coin, push }
///
/// let chart = try TypedChart<TurnstileState, TurnstileEvent>(name: "turnstile") {
///     StateNode(.locked) {
///         On(.coin, to: .unlocked)
///     }
///     StateNode(.unlocked) {
///         On(.push, to: .locked)
///     }
/// }
/// let machine = StateMachine(chart)
/// ```
///
/// A state's id in the compiled chart is `String(describing: state)`; an event's name is
/// `String(describing: event.name)`. The chart compiles to the same tables as an untyped
/// ``ChartDefinition`` (see ``definition`` and ``compiled``) and runs on the same core.
///
/// Illegal charts are rejected here: the initializer throws ``ChartCompilationError`` listing
/// every problem, each naming the offending state or transition and the file, line and column
/// of the DSL element (`Turnstile.swift:14:13: error: transition target 'opened' does not name
/// a state; known ids include 'locked', 'unlocked'`).
public final class TypedChart<State: Hashable & Sendable, Event: ChartEvent>: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; `maps` is filled during init
    // and only read afterwards.

    /// The chart's name, used in diagnostics.
    public let name: String
    /// The untyped definition the DSL produced.
    public let definition: ChartDefinition
    /// The compiled tables this chart's machines run.
    public let compiled: CompiledChart

    let maps: TypedChartMaps<State, Event>
    /// Registered events by their bytes, for the allocation-free send path.
    @usableFromInline let eventKeys: ByteKeyTable
    /// Whether the chart has an ``Invoke``: only then do its machines keep a table of tasks.
    let hasInvocations: Bool

    /// Builds, validates and compiles a chart.
    ///
    /// - Parameters:
    ///   - name: the chart's name in diagnostics.
    ///   - initial: the initial state; by default the first top-level state (or the target of
    ///     a top-level ``Initial``).
    ///   - content: top-level states; transitions written at the top level fire from any state.
    /// - Throws: ``ChartCompilationError`` with every problem found.
    public convenience init(name: String = "chart", initial: State? = nil,
                            @ChartBuilder<State, Event> _ content: () -> ChartContent<State, Event>) throws {
        try self.init(name: name, initial: initial, content: content())
    }

    init(name: String, initial: State?, content: ChartContent<State, Event>) throws {
        let maps = TypedChartMaps<State, Event>()
        var assembler = ChartAssembler(chartName: name, maps: maps)
        var definition = assembler.assemble(content.elements)
        if let initial { definition.initial = [maps.id(of: initial)] }
        var errors = assembler.errors
        var compiled: CompiledChart?
        do {
            compiled = try CompiledChart(definition)
        } catch let error as ChartCompilationError {
            errors += error.errors
        }
        if !errors.isEmpty || compiled == nil {
            // Transitions written at the top level are copied onto every top-level state, so
            // their errors repeat: report each once.
            var seen = Set<String>()
            throw ChartCompilationError(errors.filter { seen.insert($0.description).inserted })
        }
        maps.link(compiled!, registered: assembler.registered)
        self.name = name
        self.definition = definition
        self.compiled = compiled!
        self.maps = maps
        self.eventKeys = maps.eventKeys
        self.hasInvocations = assembler.invokeCount > 0
    }

    /// The state's id in the compiled chart (`String(describing: state)`).
    ///
    /// ```swift
    /// chart.id(of: .unlocked)     // "unlocked"
    /// ```
    public func id(of state: State) -> String { maps.id(of: state) }

    /// Every state of the chart in document order (history states included).
    public var states: [State] { maps.statesByIndex.compactMap { $0 } }

    /// The state whose id in the compiled chart is `id`, or `nil`.
    public func state(withID id: String) -> State? {
        compiled.index(of: id).flatMap(maps.state(at:))
    }
}
