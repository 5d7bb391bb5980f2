/// Where a definition came from, so compile errors can point at it (`file:line:column`).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path or name.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// The location `file:line:column`.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file name, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// An untyped statechart: the `<scxml>` root with its top-level states.
///
/// This is the form every front end produces (the typed DSL, the SCXML importer, code that
/// builds charts at run time) and the input of ``CompiledChart/init(_:)``.
///
/// ```swift
/// let chart = ChartDefinition(name: "turnstile", states: [
///     StateDefinition("locked", transitions: [TransitionDefinition(on: "coin", to: "unlocked")]),
///     StateDefinition("unlocked", transitions: [TransitionDefinition(on: "push", to: "locked")]),
/// ])
/// let machine = try Machine(CompiledChart(chart))
/// try machine.start()
/// try machine.send("coin")
/// machine.isActive("unlocked")   // true
/// ```
public struct ChartDefinition: Sendable {
    /// The chart's name (`<scxml name>`), used in diagnostics.
    public var name: String
    /// Ids of the initial states (`<scxml initial>`); empty means the first state in document order.
    public var initial: [String]
    /// Top-level states in document order.
    public var states: [StateDefinition]
    /// Where the `<scxml>` element is, for imported charts.
    public var location: SourceLocation?
    /// ``onStart``, boxed (see ``ActionBox``).
    package var startBoxes: [ActionBox]

    /// Content run when the machine starts, before the initial states are entered (the initial
    /// transition's content), e.g. to initialize a datamodel; its raised events are processed
    /// in the first macrostep.
    public var onStart: [Action] {
        get { startBoxes.map(\.action) }
        set { startBoxes = newValue.map { ActionBox($0) } }
    }

    /// A chart named `name` with top-level `states`.
    public init(name: String = "chart", initial: [String] = [], states: [StateDefinition],
                location: SourceLocation? = nil, onStart: [Action] = []) {
        self.name = name
        self.initial = initial
        self.states = states
        self.location = location
        self.startBoxes = onStart.map { ActionBox($0) }
    }
}

/// The kind of a history pseudo-state.
public enum HistoryType: String, Sendable, Codable {
    /// Remembers the active children of its parent.
    case shallow
    /// Remembers the active atomic descendants of its parent.
    case deep
}

/// One state of a chart: atomic or compound (by its children), parallel, final or history.
///
/// ```swift
/// StateDefinition("player", initial: ["stopped"], children: [
///     StateDefinition("stopped", transitions: [TransitionDefinition(on: "play", to: "playing")]),
///     StateDefinition("playing", onEntry: [{ _ in print("playing") }]),
///     StateDefinition(history: "resume", type: .deep, defaultTargets: ["stopped"]),
/// ])
/// ```
public struct StateDefinition: Sendable {
    /// What sort of state this is.
    public enum Kind: Sendable {
        /// `<state>`: atomic without children, compound with them.
        case state
        /// `<parallel>`: every child region is active at once.
        case parallel
        /// `<final>`: entering it completes its parent.
        case final
        /// `<history>`: a pseudo-state restoring its parent's last configuration.
        case history(HistoryType)
    }

    /// The state's unique id.
    public var id: String
    /// Atomic or compound (by its children), parallel, final or history.
    public var kind: Kind
    /// Ids of the default initial states (`initial` attribute). Empty: `initialTransition` or the first child.
    public var initial: [String]
    /// The `<initial>` element's transition (targets and content), or a history state's default transition.
    public var initialTransition: TransitionDefinition?
    /// Child states in document order.
    public var children: [StateDefinition]
    /// Outgoing transitions in document order (priority order).
    public var transitions: [TransitionDefinition]
    /// ``onEntry``, boxed (see ``ActionBox``).
    package var entryBoxes: [ActionBox]
    /// ``onExit``, boxed.
    package var exitBoxes: [ActionBox]
    /// Started at the end of the macrostep that entered the state, cancelled when it is exited.
    public var invocations: [Invocation]
    /// For final states: computes the data of the `done.state.<parent>` event.
    public var doneData: DoneData?
    /// Where the state was written, for error messages.
    public var location: SourceLocation?
}

extension StateDefinition {
    /// Executable content run on entry, in order.
    public var onEntry: [Action] {
        get { entryBoxes.map(\.action) }
        set { entryBoxes = newValue.map { ActionBox($0) } }
    }

    /// Executable content run on exit, in order.
    public var onExit: [Action] {
        get { exitBoxes.map(\.action) }
        set { exitBoxes = newValue.map { ActionBox($0) } }
    }

    /// A state with every part given explicitly.
    public init(_ id: String, kind: Kind = .state, initial: [String] = [],
                initialTransition: TransitionDefinition? = nil, children: [StateDefinition] = [],
                transitions: [TransitionDefinition] = [], onEntry: [Action] = [], onExit: [Action] = [],
                invocations: [Invocation] = [], doneData: DoneData? = nil, location: SourceLocation? = nil) {
        // The memberwise initializer (synthesized because no initializer is declared in the
        // type's body): an initializer assigning the properties one by one makes the optimizer
        // build the value twice, retaining every array and closure for a copy and releasing
        // them again, on every state of a loaded chart.
        self.init(id: id, kind: kind, initial: initial, initialTransition: initialTransition, children: children,
                  transitions: transitions, entryBoxes: onEntry.map { ActionBox($0) },
                  exitBoxes: onExit.map { ActionBox($0) }, invocations: invocations,
                  doneData: doneData, location: location)
    }

    /// A `<parallel>` state.
    public static func parallel(_ id: String, children: [StateDefinition], transitions: [TransitionDefinition] = [],
                                onEntry: [Action] = [], onExit: [Action] = []) -> StateDefinition {
        StateDefinition(id, kind: .parallel, children: children, transitions: transitions,
                        onEntry: onEntry, onExit: onExit)
    }

    /// A `<final>` state.
    public static func final(_ id: String, onEntry: [Action] = [], onExit: [Action] = [],
                             doneData: DoneData? = nil) -> StateDefinition {
        StateDefinition(id, kind: .final, onEntry: onEntry, onExit: onExit, doneData: doneData)
    }

    /// A `<history>` pseudo-state whose default transition goes to `defaultTargets`.
    public init(history id: String, type: HistoryType = .shallow, defaultTargets: [String],
                actions: [Action] = []) {
        self.init(id, kind: .history(type),
                  initialTransition: TransitionDefinition(to: defaultTargets, actions: actions))
    }
}

/// Whether a transition whose targets lie inside its compound source exits the source.
public enum TransitionType: String, Sendable, Codable {
    /// Exits and re-enters the source (the default).
    case external
    /// Stays in the source when every target is its descendant.
    case `internal`
}

/// A transition: event descriptors, an optional guard, targets and executable content.
///
/// Descriptors follow SCXML: `"error"` matches `error` and `error.send.failed`, `"error.*"`
/// is the same as `"error"`, `"*"` matches every event. No descriptor makes the transition
/// eventless; no target makes it targetless (it runs its actions without leaving the state).
///
/// ```swift
/// TransitionDefinition(on: "coin", guard: { _ in credit > 0 }, to: "unlocked")
/// TransitionDefinition(on: ["error", "cancel"], to: "idle")
/// TransitionDefinition(guard: { $0.isActive("ready") }, to: "go")     // eventless
/// ```
public struct TransitionDefinition: Sendable {
    /// Event descriptors; empty for an eventless transition.
    public var events: [String]
    /// ``guardCondition``, boxed (see ``GuardBox``).
    package var guardBox: GuardBox?
    /// Target state ids; empty for a targetless transition.
    public var targets: [String]
    /// External (the default) or internal.
    public var type: TransitionType
    /// ``actions``, boxed (see ``ActionBox``).
    package var actionBoxes: [ActionBox]
    /// Where the transition was written, for error messages.
    public var location: SourceLocation?
}

extension TransitionDefinition {
    /// The condition; `nil` means always enabled.
    public var guardCondition: Guard? {
        get { guardBox?.condition }
        set { guardBox = newValue.map { GuardBox($0) } }
    }

    /// Executable content run when the transition is taken.
    public var actions: [Action] {
        get { actionBoxes.map(\.action) }
        set { actionBoxes = newValue.map { ActionBox($0) } }
    }

    /// A transition with every part given explicitly.
    public init(on events: [String] = [], guard guardCondition: Guard? = nil, to targets: [String] = [],
                type: TransitionType = .external, actions: [Action] = [], location: SourceLocation? = nil) {
        self.init(on: events, guardBox: guardCondition.map { GuardBox($0) }, to: targets, type: type,
                  actionBoxes: actions.map { ActionBox($0) }, location: location)
    }

    /// A transition whose guard and actions are already boxed, where their closures were made.
    package init(on events: [String] = [], guardBox: GuardBox?, to targets: [String] = [],
                 type: TransitionType = .external, actionBoxes: [ActionBox], location: SourceLocation? = nil) {
        // The memberwise initializer, as in StateDefinition: no copy of the transition is made.
        self.init(events: events, guardBox: guardBox, targets: targets, type: type, actionBoxes: actionBoxes,
                  location: location)
    }

    /// A transition on one descriptor (which may itself list several, space-separated) to one target.
    public init(on event: String, guard guardCondition: Guard? = nil, to target: String? = nil,
                type: TransitionType = .external, actions: [Action] = []) {
        self.init(on: event.split(separator: " ").map(String.init), guard: guardCondition,
                  to: target.map { [$0] } ?? [], type: type, actions: actions)
    }
}
