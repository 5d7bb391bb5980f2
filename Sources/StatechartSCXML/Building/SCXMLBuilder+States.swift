// Building <scxml>, <state>, <parallel>, <final>, <history>, <transition> and <initial>.

extension SCXMLBuilder {
    mutating func buildDocument(_ element: Element) -> SCXMLDocument {
        let outerExamples = eventExamples
        eventExamples = []
        defer { eventExamples = outerExamples }
        let values = attributes(of: element, allowed: SCXMLName.scxml.rule.attributes)
        let version = values[.version]
        let initial = values[.initial]
        var document = SCXMLDocument(
            sourceLocation: location(element), name: values[.name], version: version ?? "1.0",
            initial: Self.tokens(initial), datamodel: values[.datamodel])
        if let version {
            if version != "1.0" {
                report(element, "<scxml> has version '\(version)'; SCXML 1.0 documents must have version=\"1.0\"")
            }
        } else {
            report(element, "<scxml> is missing the required attribute 'version'; add version=\"1.0\"")
        }
        if let binding = values[.binding] {
            if let value = SCXMLBinding(rawValue: binding) {
                document.binding = value
            } else {
                report(element, "<scxml> has binding '\(binding)'; expected 'early' or 'late'")
            }
        }
        if initial != nil && document.initial.isEmpty {
            report(element, "<scxml> has an empty 'initial' attribute; name a state or remove the attribute")
        }
        var seenDatamodel = false
        var seenScript = false
        let children = scxmlChildren(of: element)
        document.states.reserveCapacity(children.count)
        for index in children {
            let child = child(index)
            switch tree.code(child) {
            case .state, .parallel, .final:
                document.states.append(buildState(child))
            case .datamodel:
                if once(child, in: element, seen: &seenDatamodel) {
                    document.datamodelElement = buildDataModel(child)
                }
            case .script:
                let script = buildScript(child)
                if once(child, in: element, seen: &seenScript) { document.script = script }
            default:
                misplaced(child, in: element, allowed: SCXMLName.scxml.rule.children)
            }
        }
        pop(children)
        document.eventExamples = eventExamples
        return document
    }

    mutating func buildState(_ element: Element) -> SCXMLState {
        let kind: SCXMLState.Kind
        switch tree.code(element) {
        case .parallel: kind = .parallel
        case .final: kind = .final
        case .history: kind = .history
        default: kind = .state
        }
        stateCount += 1
        if stateCount == limits.maxStates + 1 {
            report(
                element,
                "the document has more than \(limits.maxStates) states, the limit "
                    + "(SCXMLParser.Limits.maxStates); split the document or raise the limit")
        }
        let rule = tree.code(element).rule
        let allowedChildren = rule.children
        let values = attributes(of: element, allowed: rule.attributes)
        let id = values[.id]
        let (initial, initialPresent, _) = tokenList(values, .initial)
        if let id, !NameSyntax.isXMLID(id) {
            report(
                element,
                "<\(tree.localName(element))> has the id '\(id)', which is not an XML ID; a state id starts with a letter "
                    + "or '_', followed by letters, digits, '.', '-' or '_' (such as 's1')")
        }
        if initialPresent && initial.isEmpty {
            report(element, "\(describe(element)) has an empty 'initial' attribute; name a child state or remove the attribute")
        }
        var historyType: SCXMLHistoryType?
        if kind == .history {
            historyType = .shallow
            if let type = values[.type] {
                if let value = SCXMLHistoryType(rawValue: type) {
                    historyType = value
                } else {
                    report(element, "<history> has type '\(type)'; expected 'shallow' or 'deep'")
                }
            }
        }

        // The parts are gathered in locals and the state is made once at the end, so that no
        // part (nor the whole state, 368 bytes) is copied on the way.
        var transitions: [SCXMLTransition] = []
        var children: [SCXMLState] = []
        var onEntry: [SCXMLExecutableBlock] = []
        var onExit: [SCXMLExecutableBlock] = []
        var invokes: [SCXMLInvoke] = []
        var initialElement: SCXMLInitial?
        var datamodelElement: SCXMLDataModel?
        var doneData: SCXMLDoneData?
        var seenInitial = false
        var seenDatamodel = false
        var seenDonedata = false
        var transitionCount = 0
        let childRange = scxmlChildren(of: element)
        if childRange.count > 1 {
            // Most children are transitions or states: size those arrays once.
            var transitionChildren = 0
            var stateChildren = 0
            for index in childRange {
                switch tree.code(child(index)) {
                case .transition: transitionChildren += 1
                case .state, .parallel, .final, .history: stateChildren += 1
                default: break
                }
            }
            if transitionChildren > 1 && kind != .history { transitions.reserveCapacity(transitionChildren) }
            if stateChildren > 1 { children.reserveCapacity(stateChildren) }
        }
        for index in childRange {
            let child = child(index)
            let name = tree.code(child)
            guard allowedChildren.contains(name) else {
                misplaced(child, in: element, allowed: allowedChildren)
                continue
            }
            switch name {
            case .onentry:
                onEntry.append(buildBlock(child))
            case .onexit:
                onExit.append(buildBlock(child))
            case .transition:
                transitionCount += 1
                let role: TransitionRole = kind == .history ? .history : .state
                if kind != .history || transitionCount == 1 {
                    transitions.append(buildTransition(child, role: role))
                } else {
                    _ = buildTransition(child, role: role)
                }
            case .initial:
                let initial = buildInitial(child)
                if once(child, in: element, seen: &seenInitial) { initialElement = initial }
            case .state, .parallel, .final, .history:
                children.append(buildState(child))
            case .datamodel:
                let datamodel = buildDataModel(child)
                if once(child, in: element, seen: &seenDatamodel) { datamodelElement = datamodel }
            case .invoke:
                invokes.append(buildInvoke(child))
            case .donedata:
                let done = buildDoneData(child)
                if once(child, in: element, seen: &seenDonedata) { doneData = done }
            default:
                misplaced(child, in: element, allowed: allowedChildren)
            }
        }
        pop(childRange)
        if kind == .history {
            if transitionCount == 0 {
                // Qt Creator writes these; the validator gives it the parent's initial state(s).
                warn(
                    element,
                    "\(describe(element)) has no <transition> giving its default history configuration; it enters "
                        + "the parent's initial state, as Qt does (SCXML requires the <transition>)")
            } else if transitionCount > 1 {
                report(
                    element,
                    "\(describe(element)) can have only one <transition> (its default history "
                        + "configuration); found \(transitionCount)")
            }
        }
        return SCXMLState(
            kind: kind, id: id ?? "", isGeneratedID: id == nil, sourceLocation: location(element),
            initial: consume initial, initialElement: consume initialElement, historyType: historyType,
            transitions: consume transitions, onEntry: consume onEntry, onExit: consume onExit,
            children: consume children, datamodelElement: consume datamodelElement, invokes: consume invokes,
            doneData: consume doneData)
    }

    // MARK: - Transitions

    enum TransitionRole {
        case state, initial, history
    }

    @inline(__always)
    mutating func buildTransition(_ element: Element, role: TransitionRole) -> SCXMLTransition {
        let values = attributes(of: element, allowed: SCXMLName.transition.rule.attributes)
        let (eventTokens, eventsPresent, eventEntry) = tokenList(values, .event)
        // A name seen before (one cache entry) was checked then.
        let eventsValid = eventEntry.map { tokenCache.isEventDescriptor($0) } ?? false
        if !eventsValid {
            for descriptor in eventTokens where !NameSyntax.isEventDescriptor(descriptor) {
                report(
                    element,
                    "<transition> has the event descriptor '\(descriptor)'; a descriptor is an event name (tokens of "
                        + "letters, digits, '_', '-' or ':' joined by single dots, such as 'door.open'), optionally "
                        + "ending in '.*', or '*'")
            }
        }
        let cond = values[.cond]
        let targets = tokens(values, .target).tokens
        var type = SCXMLTransitionType.external
        if let text = values[.type] {
            if let value = SCXMLTransitionType(rawValue: text) {
                type = value
            } else {
                report(element, "<transition> has type '\(text)'; expected 'internal' or 'external'")
            }
        }
        switch role {
        case .state:
            if eventTokens.isEmpty && cond == nil && targets.isEmpty {
                report(element, "<transition> needs at least one of 'event', 'cond' or 'target'")
            }
        case .initial, .history:
            let owner = role == .initial ? "<initial>" : "<history>"
            let purpose =
                role == .initial
                ? "it is taken unconditionally when the parent state is entered"
                : "it gives the default history configuration"
            if eventsPresent {
                report(element, "the <transition> of \(owner) cannot have an 'event' attribute: \(purpose)")
            }
            if cond != nil {
                report(element, "the <transition> of \(owner) cannot have a 'cond' attribute: \(purpose)")
            }
            if targets.isEmpty {
                report(
                    element,
                    "the <transition> of \(owner) needs a 'target' naming the default "
                        + (role == .initial ? "initial state(s)" : "history state(s)"))
            }
        }
        let actions = tree.nodes[Int(element)].firstChild < 0 ? [] : buildActions(in: element)
        // `consume`: the values move into the transition (without it the optimizer builds the
        // transition twice, retaining every field for a copy and releasing the other).
        return SCXMLTransition(
            sourceLocation: location(element), events: consume eventTokens, cond: consume cond,
            targets: consume targets, type: type, actions: consume actions)
    }

    mutating func buildInitial(_ element: Element) -> SCXMLInitial? {
        _ = attributes(of: element, allowed: SCXMLName.initial.rule.attributes)
        var transitions: [SCXMLTransition] = []
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            if tree.code(child) == .transition {
                transitions.append(buildTransition(child, role: .initial))
            } else {
                misplaced(child, in: element, allowed: SCXMLName.initial.rule.children)
            }
        }
        pop(children)
        guard let first = transitions.first else {
            report(element, "<initial> needs exactly one <transition> naming the default initial state(s); found none")
            return nil
        }
        if transitions.count > 1 {
            report(element, "<initial> needs exactly one <transition>; found \(transitions.count)")
        }
        return SCXMLInitial(sourceLocation: location(element), transition: first)
    }
}
