import Statechart

/// Maps a parsed document onto a ``ChartDefinition``: the same states and transitions, with
/// conditions and executable content turned into closures over the session's datamodel.
struct SCXMLChartBuilder {
    let session: SCXMLSession
    private let lateBinding: Bool
    /// The ids of the top-level states.
    private let topLevelIDs: Set<String>
    /// Whether `In()` conditions become state tests (the null datamodel's conditions only).
    private let compilesStateTests: Bool

    /// A builder for `session`'s document, run by a `datamodel`.
    init(session: SCXMLSession, datamodel: any SCXMLDatamodel.Type) {
        self.session = session
        let document = session.document
        lateBinding = document.binding == .late
        topLevelIDs = Set(document.states.map(\.id))
        compilesStateTests = datamodel == NullDatamodel.self && session.options.compilesStateTests
    }

    func chart() -> ChartDefinition {
        let document = session.document
        let session = self.session
        return ChartDefinition(name: document.name ?? document.sourceLocation.file, initial: document.initial,
                               states: states(document.states), location: document.sourceLocation,
                               onStart: [{ ctx in session.startUp(ctx: ctx) }])
    }

    // The document's states and transitions are read in place and the definitions made straight
    // into the arrays: nothing is copied on the way.

    private func states(_ list: [SCXMLState]) -> [StateDefinition] {
        list.withUnsafeBufferPointer { source in
            Array(unsafeUninitializedCapacity: source.count) { buffer, count in
                for index in source.indices { (buffer.baseAddress! + index).initialize(to: state(source.baseAddress! + index)) }
                count = source.count
            }
        }
    }

    private func transitions(_ list: [SCXMLTransition]) -> [TransitionDefinition] {
        list.withUnsafeBufferPointer { source in
            Array(unsafeUninitializedCapacity: source.count) { buffer, count in
                for index in source.indices { (buffer.baseAddress! + index).initialize(to: transition(source.baseAddress! + index)) }
                count = source.count
            }
        }
    }

    private func state(_ state: UnsafePointer<SCXMLState>) -> StateDefinition {
        let kind: StateDefinition.Kind
        switch state.pointee.kind {
        case .state: kind = .state
        case .parallel: kind = .parallel
        case .final: kind = .final
        case .history: kind = .history(state.pointee.historyType == .deep ? .deep : .shallow)
        }
        let children = state.pointee.children
        var initialTransition: TransitionDefinition?
        var transitionDefinitions: [TransitionDefinition] = []
        if state.pointee.kind == .history {
            initialTransition = state.pointee.transitions.first.map(transition(copy:))
        } else {
            let transitions = state.pointee.transitions
            if !transitions.isEmpty { transitionDefinitions = self.transitions(transitions) }
            initialTransition = state.pointee.initialElement.map { transition(copy: $0.transition) }
        }
        // The parts are made first and the definition once, returned as made when the state has
        // no content needing closures (a definition made and then changed is copied).
        let definition = StateDefinition(state.pointee.id, kind: kind, initial: state.pointee.initial,
                                         initialTransition: consume initialTransition,
                                         children: children.isEmpty ? [] : states(children),
                                         transitions: consume transitionDefinitions,
                                         location: state.pointee.sourceLocation)
        // The rest makes closures over the state: only for states with such content.
        guard (lateBinding && state.pointee.datamodelElement != nil) || !state.pointee.onEntry.isEmpty
            || !state.pointee.onExit.isEmpty || state.pointee.kind == .final || !state.pointee.invokes.isEmpty
        else { return definition }
        return withClosures(definition, state)
    }

    /// `definition` with the closures for the content of `state`: entry and exit handlers, late
    /// data, invocations, done data.
    private func withClosures(_ made: StateDefinition, _ state: UnsafePointer<SCXMLState>) -> StateDefinition {
        var definition = made
        let s = state.pointee
        let session = self.session
        // Boxed here, where the closures are made (see ActionBox: no reabstraction thunks).
        var entry: [ActionBox] = []
        if lateBinding, s.datamodelElement != nil {
            entry.append(ActionBox { ctx in session.initializeLateData(of: s, ctx: ctx) })
        }
        // Each <onentry>/<onexit> element is its own block: an error stops only that block.
        for block in s.onEntry { entry.append(action(block.actions, origin: .onEntry(s.id))) }
        definition.entryBoxes = entry
        for block in s.onExit { definition.exitBoxes.append(action(block.actions, origin: .onExit(s.id))) }
        if s.kind == .final && topLevelIDs.contains(s.id) {
            // exitInterpreter: a top-level final's done data goes to the invoking session.
            definition.exitBoxes.append(ActionBox { ctx in session.returnDoneEvent(from: s, ctx: ctx) })
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
                session.rememberEvent(ctx)
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

    /// One block of executable content as an action, boxed. A block of `<log>`s without `expr`
    /// calls the log hook with each label directly: nothing in it reads the datamodel or can
    /// fail, so the interpreter's per-block work (error handling, the content's origin for the
    /// outgoing hook, the switch over each element) has nothing to do, and the labels are the
    /// closure's own (no reference counting per call).
    ///
    /// The session is the box's argument, not a capture (``ActionBox``): the dispatch path loads
    /// it from the box beside the closure, one dependent load sooner than from the closure's
    /// captures, and a closure of the context's four words and at most two captured words takes
    /// its arguments in registers.
    private func action(_ block: [SCXMLExecutable], origin: SCXMLOutgoingEvent.Origin?) -> ActionBox {
        var labels: [String?] = []
        for item in block {
            guard case .log(let log) = item, log.expr == nil else {
                // Slots for the datamodel's prepared `<assign>`s, one per element, only in a
                // block that has one (a block without runs each element as it is).
                let assigns = block.contains { if case .assign = $0 { true } else { false } }
                let slots = assigns ? session.preparedAssignments.count : nil
                if assigns {
                    session.preparedAssignments.append(contentsOf: repeatElement(SCXMLSession.unprepared, count: block.count))
                }
                return ActionBox({ ctx in
                    Self.session(of: ctx)._withUnsafeGuaranteedRef { $0.run(block, ctx: ctx, origin: origin, slots: slots) }
                }, argument: CallbackArgument(session))
            }
            labels.append(log.label)
        }
        if labels.count == 1, let label = labels.first {
            return ActionBox({ ctx in
                Self.session(of: ctx)._withUnsafeGuaranteedRef { session in
                    session.rememberEvent(ctx)
                    session.log(label, "")
                }
            }, argument: CallbackArgument(session))
        }
        let all = labels
        return ActionBox({ ctx in
            Self.session(of: ctx)._withUnsafeGuaranteedRef { session in
                session.rememberEvent(ctx)
                for label in all { session.log(label, "") }
            }
        }, argument: CallbackArgument(session))
    }

    /// The session of a callback boxed with it as its argument (``action(_:origin:)``),
    /// unretained: the box keeps it.
    @inline(__always)
    private static func session(of ctx: ActionContext) -> Unmanaged<SCXMLSession> {
        Unmanaged.fromOpaque(ctx.argument.unsafelyUnwrapped)
    }

    private func transition(copy t: SCXMLTransition) -> TransitionDefinition {
        withUnsafePointer(to: t) { transition($0) }
    }

    private func transition(_ t: UnsafePointer<SCXMLTransition>) -> TransitionDefinition {
        let session = self.session
        var condition: GuardBox?
        if let cond = t.pointee.cond {
            if compilesStateTests, let test = NullExpression(cond)?.staticCondition.flatMap(StateTestCondition.init) {
                // Resolved once the chart is compiled (SCXMLMachine.init); the null datamodel
                // has no `_event` to keep current, so nothing else happens per evaluation.
                session.stateTests.append(test)
                // The configuration read through the context, inline: through the session's
                // machine it was a call and two more dependent loads per test.
                condition = GuardBox { ctx in test.evaluate { ctx.isActive(stateIndex: $0) } }
            } else {
                let slot = session.preparedConditions.count
                session.preparedConditions.append(SCXMLSession.unprepared)
                condition = GuardBox({ ctx in
                    Self.session(of: ctx)._withUnsafeGuaranteedRef { $0.condition(cond, slot: slot, ctx: ctx) }
                }, argument: CallbackArgument(session))
            }
        }
        var actions: [ActionBox] = []
        if !t.pointee.actions.isEmpty { actions = [action(t.pointee.actions, origin: nil)] }
        // ".*" is the schema's other spelling of "*" (the IRP tests 311 and 312 use it). The
        // document's arrays are used as they are otherwise (shared, not copied).
        var events = t.pointee.events
        if events.contains(".*") { events = events.map { $0 == ".*" ? "*" : $0 } }
        return TransitionDefinition(on: events, guardBox: condition, to: t.pointee.targets,
                                    type: t.pointee.type == .internal ? .internal : .external, actionBoxes: actions,
                                    location: t.pointee.sourceLocation)
    }
}
