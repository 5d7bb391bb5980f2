/// Turns the DSL's elements into an untyped ``ChartDefinition``: state values become ids,
/// event names become descriptors, typed actions are wrapped to receive a typed context, and
/// DSL-only constructs are expanded (``After`` into a delayed event scheduled on entry and
/// cancelled on exit; top-level transitions into a copy on every top-level state).
///
/// Mistakes only the DSL can make (an entry action at the top level, two ``Initial``s in a
/// state) are collected as ``ChartError``s with the source location of the offending element;
/// everything else is left to ``CompiledChart``'s validation.
struct ChartAssembler<State: Hashable & Sendable, Event: ChartEvent> {
    typealias Context = StateMachine<State, Event>.Context

    let chartName: String
    let maps: TypedChartMaps<State, Event>
    private(set) var errors: [ChartError] = []
    /// Event names mentioned by transitions, in order of appearance.
    private(set) var registered: [Event.Name] = []
    private var registeredStrings: [String: Event.Name] = [:]
    private var afterCount = 0
    /// How many `Invoke`s the chart has (machines of a chart without any keep no task table).
    private(set) var invokeCount = 0

    init(chartName: String, maps: TypedChartMaps<State, Event>) {
        self.chartName = chartName
        self.maps = maps
    }

    /// The chart definition for a top-level body.
    mutating func assemble(_ content: [ChartElement<State, Event>]) -> ChartDefinition {
        var states: [StateDefinition] = []
        var anyState: [TransitionSpec<State, Event>] = []
        var initial: [String] = []
        var onStart: [ActionBox] = []
        for element in content {
            switch element {
            case .state(let spec):
                states.append(state(spec, path: chartName))
            case .transition(let spec):
                anyState.append(spec)
            case .invoke(let spec):
                fail(.actionOutsideState, chartName, spec.location,
                     "Invoke must be inside a state: it runs while that state is active")
            case .entry(_, let location), .exit(_, let location):
                fail(.actionOutsideState, chartName, location,
                     "entry and exit actions must be inside a state; the chart itself is never entered or exited")
            case .initial(let targets, let action, let location):
                if !initial.isEmpty {
                    fail(.invalidInitial, chartName, location, "the chart has more than one Initial; keep one")
                }
                initial = targets.map(id)
                onStart = wrap(action)
            }
        }
        // A transition written at the top level fires from any state: a copy on each top-level
        // state behaves as one on an enclosing state would, lowest in priority.
        for spec in anyState {
            if case .done(nil) = spec.trigger {
                fail(.invalidTargets, chartName, spec.location,
                     "OnDone at the top level needs 'of:' to name the state whose completion it handles")
                continue
            }
            if case .after = spec.trigger {
                fail(.invalidTargets, chartName, spec.location, "After must be inside a state: it starts when the state is entered")
                continue
            }
            for i in states.indices {
                switch states[i].kind {
                case .final, .history: continue
                default: break
                }
                if let t = transition(spec, enclosing: states[i].id, path: chartName) { states[i].transitions.append(t) }
            }
        }
        var chart = ChartDefinition(name: chartName, initial: initial, states: states)
        chart.startBoxes = onStart
        return chart
    }

    // MARK: - Elements

    private mutating func state(_ spec: StateSpec<State, Event>, path: String) -> StateDefinition {
        let id = self.id(spec.id)
        let myPath = path + "/" + id
        var definition = StateDefinition(id, kind: spec.kind, location: spec.location)
        if let initial = spec.initial { definition.initial = [self.id(initial)] }
        if case .history = spec.kind {
            definition.initialTransition = TransitionDefinition(
                guardBox: nil, to: spec.historyDefault.map(self.id), actionBoxes: wrap(spec.historyAction),
                location: spec.location)
        }
        if let doneData = spec.doneData {
            let maps = self.maps
            definition.doneData = { ctx in doneData(Context(untyped: ctx, maps: maps)) }
        }
        for element in spec.content {
            switch element {
            case .state(let child):
                definition.children.append(state(child, path: myPath))
            case .transition(let t):
                if case .after(let delay) = t.trigger {
                    addAfter(t, delay: delay, to: &definition, path: myPath)
                } else if let transition = transition(t, enclosing: id, path: myPath) {
                    definition.transitions.append(transition)
                }
            case .invoke(let invoke):
                addInvoke(invoke, to: &definition)
            case .entry(let action, _):
                definition.entryBoxes += wrap(action)
            case .exit(let action, _):
                definition.exitBoxes += wrap(action)
            case .initial(let targets, let action, let location):
                if definition.initialTransition != nil {
                    fail(.invalidInitial, myPath, location, "state '\(id)' has more than one Initial; keep one")
                }
                definition.initialTransition = TransitionDefinition(guardBox: nil, to: targets.map(self.id),
                                                                    actionBoxes: wrap(action), location: location)
            }
        }
        return definition
    }

    private mutating func transition(_ spec: TransitionSpec<State, Event>, enclosing: String,
                                     path: String) -> TransitionDefinition? {
        var events: [String]
        switch spec.trigger {
        case .names(let names):
            events = []
            for name in names { events.append(register(name)) }
        case .descriptor(let descriptor):
            events = descriptor.split(whereSeparator: \.isWhitespace).map(String.init)
            if events.isEmpty {
                fail(.invalidDescriptor, path, spec.location, "the descriptor is empty; use a name, 'name.*' or '*'")
                return nil
            }
        case .eventless:
            events = []
        case .done(let state):
            events = ["done.state." + (state.map(id) ?? enclosing)]
        case .after:
            preconditionFailure("After is expanded by addAfter")
        }
        return TransitionDefinition(on: events, guardBox: wrap(spec.guardCondition), to: spec.targets.map(id),
                                    type: spec.type, actionBoxes: wrap(spec.action), location: spec.location)
    }

    /// `After(delay)`: schedule a private event on entry, cancel it on exit, transition on it.
    private mutating func addAfter(_ spec: TransitionSpec<State, Event>, delay: Duration,
                                   to definition: inout StateDefinition, path: String) {
        afterCount += 1
        let name = "statechart.after.\(afterCount)"
        definition.entryBoxes.append(ActionBox { ctx in ctx.send(Statechart.Event(name), after: delay, id: name) })
        definition.exitBoxes.insert(ActionBox { ctx in ctx.cancel(sendID: name) }, at: 0)
        definition.transitions.append(TransitionDefinition(
            on: [name], guardBox: wrap(spec.guardCondition), to: spec.targets.map(id), type: spec.type,
            actionBoxes: wrap(spec.action), location: spec.location))
    }

    /// `Invoke`: an invocation whose task sends its results as a private event carrying the
    /// generation it was started under, and a targetless transition on that event which raises
    /// the result only while that generation is current (see `InvocationRuns`).
    private mutating func addInvoke(_ spec: InvokeSpec<State, Event>, to definition: inout StateDefinition) {
        invokeCount += 1
        let number = invokeCount
        let name = "statechart.invoke.\(number)"
        let run = spec.run
        let start: Action = { ctx in
            guard let machine = ctx.machine, let owner = machine.typedOwner as? StateMachine<State, Event>,
                  let runs = owner.invocationRuns else { return }
            let generation = runs.begin(number)
            // The start runs in the macrostep's last callbacks, with the machine held.
            let invocation = InvocationContext(clock: machine.clock, context: owner.contextHeld)
            // The task holds the machine until it ends; the owner's `InvocationRuns` cancels it
            // when the state is exited or the typed machine is released.
            let task = Task {
                await run(invocation) { event in
                    // A cancelled task's results are dropped here; one that passes this check
                    // while the state is being exited is dropped by the transition below.
                    guard !Task.isCancelled else { return }
                    machine.deliverInvocationResult(
                        Statechart.Event(name, payload: InvocationDelivery(generation: generation, event: event)))
                }
            }
            runs.attach(task, to: number, generation: generation)
        }
        let cancel: Action = { ctx in
            (ctx.machine?.typedOwner as? StateMachine<State, Event>)?.invocationRuns?.cancel(number)
        }
        definition.invocations.append(Invocation(id: name, start: start, cancel: cancel))
        let maps = self.maps
        let raiseResult: Action = { ctx in
            guard let delivery = ctx.event?.payload as? InvocationDelivery<Event>,
                  let owner = ctx.machine?.typedOwner as? StateMachine<State, Event>,
                  owner.invocationRuns?.isCurrent(number, generation: delivery.generation) == true else { return }
            Context(untyped: ctx, maps: maps).raise(delivery.event)
        }
        definition.transitions.append(TransitionDefinition(
            on: [name], guardBox: nil, actionBoxes: [ActionBox(raiseResult)], location: spec.location))
    }

    // MARK: - Helpers

    private func id(_ state: State) -> String { maps.id(of: state) }

    /// The chart string of an event name, registering the name for the typed lookup tables.
    private mutating func register(_ name: Event.Name) -> String {
        let string = TypedChartMaps<State, Event>.string(of: name)
        if let other = registeredStrings[string], other != name {
            fail(.invalidDescriptor, chartName, nil,
                 "events \(String(reflecting: name)) and \(String(reflecting: other)) both have the name '\(string)'; give them distinct descriptions")
        } else if registeredStrings[string] == nil {
            registeredStrings[string] = name
            registered.append(name)
        }
        return string
    }

    private func wrap(_ action: TypedAction<State, Event>?) -> [ActionBox] {
        guard let action else { return [] }
        // Boxed as it is, the maps its contexts carry beside it (see ActionBox).
        return [ActionBox(typed: action, maps: maps)]
    }

    private func wrap(_ condition: TypedGuard<State, Event>?) -> GuardBox? {
        guard let condition else { return nil }
        return GuardBox(typed: condition, maps: maps)
    }

    private mutating func fail(_ code: ChartError.Code, _ path: String, _ location: SourceLocation?, _ message: String) {
        errors.append(ChartError(code, path: path, location: location, message))
    }
}
