import Statechart

/// Maps a parsed document onto a ``ChartDefinition``: the same states and transitions, with
/// conditions and executable content turned into closures over the session's datamodel.
struct SCXMLChartBuilder {
    let session: SCXMLSession
    private let lateBinding: Bool
    /// The ids of the top-level states.
    private let topLevelIDs: Set<String>

    init(session: SCXMLSession) {
        self.session = session
        let document = session.document
        lateBinding = document.binding == .late
        topLevelIDs = Set(document.states.map(\.id))
    }

    func chart() -> ChartDefinition {
        let document = session.document
        let session = self.session
        return ChartDefinition(name: document.name ?? document.sourceLocation.file, initial: document.initial,
                               states: states(document.states), location: document.sourceLocation,
                               onStart: [{ ctx in session.startUp(ctx: ctx) }])
    }

    private func states(_ list: [SCXMLState]) -> [StateDefinition] {
        var result: [StateDefinition] = []
        result.reserveCapacity(list.count)
        for index in list.indices { result.append(state(list[index])) }
        return result
    }

    private func transitions(_ list: [SCXMLTransition]) -> [TransitionDefinition] {
        var result: [TransitionDefinition] = []
        result.reserveCapacity(list.count)
        for index in list.indices { result.append(transition(list[index])) }
        return result
    }

    private func state(_ s: SCXMLState) -> StateDefinition {
        let kind: StateDefinition.Kind
        switch s.kind {
        case .state: kind = .state
        case .parallel: kind = .parallel
        case .final: kind = .final
        case .history: kind = .history(s.historyType == .deep ? .deep : .shallow)
        }
        var definition = StateDefinition(s.id, kind: kind, initial: s.initial,
                                         children: s.children.isEmpty ? [] : states(s.children), location: s.sourceLocation)
        if s.kind == .history {
            definition.initialTransition = s.transitions.first.map(transition)
        } else {
            if !s.transitions.isEmpty { definition.transitions = transitions(s.transitions) }
            definition.initialTransition = s.initialElement.map { transition($0.transition) }
        }
        let session = self.session
        var entry: [Action] = []
        if lateBinding, s.datamodelElement != nil {
            entry.append { ctx in session.initializeLateData(of: s, ctx: ctx) }
        }
        // Each <onentry>/<onexit> element is its own block: an error stops only that block.
        for block in s.onEntry {
            entry.append { ctx in session.run(block.actions, ctx: ctx) }
        }
        definition.onEntry = entry
        for block in s.onExit {
            definition.onExit.append { ctx in session.run(block.actions, ctx: ctx) }
        }
        if s.kind == .final && topLevelIDs.contains(s.id) {
            // exitInterpreter: a top-level final's done data goes to the invoking session.
            definition.onExit.append { ctx in session.returnDoneEvent(from: s, ctx: ctx) }
        }
        for (index, invoke) in s.invokes.enumerated() {
            let key = "\(s.id)#invoke\(index)"
            definition.invocations.append(Invocation(
                id: key,
                start: { ctx in session.startInvocation(invoke, key: key, stateID: s.id, ctx: ctx) },
                cancel: { _ in session.cancelInvocation(key: key) }))
        }
        if s.kind == .final, let done = s.doneData {
            definition.doneData = { ctx in
                session.prepare(ctx)
                do {
                    let (data, isXML) = try session.payload(namelist: [], params: done.params, content: done.content)
                    guard let data else { return nil }
                    return SCXMLEvent.DoneData(data: data, isXML: isXML)
                } catch {
                    session.raiseError("error.execution", "<donedata>: \(error)", ctx: ctx)
                    return nil
                }
            }
        }
        return definition
    }

    private func transition(_ t: SCXMLTransition) -> TransitionDefinition {
        let session = self.session
        var condition: Guard?
        if let cond = t.cond {
            condition = { ctx in session.condition(cond, ctx: ctx) }
        }
        var actions: [Action] = []
        if !t.actions.isEmpty {
            let content = t.actions
            actions = [{ ctx in session.run(content, ctx: ctx) }]
        }
        // ".*" is the schema's other spelling of "*" (the IRP tests 311 and 312 use it). The
        // document's arrays are used as they are otherwise (shared, not copied).
        var events = t.events
        if events.contains(".*") { events = events.map { $0 == ".*" ? "*" : $0 } }
        return TransitionDefinition(on: events, guard: condition, to: t.targets,
                                    type: t.type == .internal ? .internal : .external, actions: actions,
                                    location: t.sourceLocation)
    }
}
