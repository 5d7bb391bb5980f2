// Building executable content: <raise>, <if>/<elseif>/<else>, <foreach>, <log>, <assign>,
// <script>, <send> and <cancel>.

extension SCXMLBuilder {
    mutating func buildBlock(_ element: Element) -> SCXMLExecutableBlock {
        _ = attributes(of: element, allowed: tree.code(element).rule.attributes)  // <onentry>, <onexit>, <finalize>
        return SCXMLExecutableBlock(sourceLocation: location(element), actions: buildActions(in: element))
    }

    /// The executable content inside `container`.
    mutating func buildActions(in container: Element) -> [SCXMLExecutable] {
        var actions: [SCXMLExecutable] = []
        let children = scxmlChildren(of: container)
        for index in children {
            if let action = buildAction(child(index), in: container) { actions.append(action) }
        }
        pop(children)
        return actions
    }

    mutating func buildAction(_ element: Element, in parent: Element) -> SCXMLExecutable? {
        switch tree.code(element) {
        case .raise:
            let values = attributes(of: element, allowed: SCXMLName.raise.rule.attributes)
            expectNoChildren(element)
            guard let event = required(.event, values, element) else { return nil }
            reportInvalidEventName(event, element)
            return .raise(SCXMLRaise(sourceLocation: location(element), event: event))
        case .if:
            return buildIf(element).map { .if($0) }
        case .foreach:
            let values = attributes(of: element, allowed: SCXMLName.foreach.rule.attributes)
            let array = required(.array, values, element)
            let item = required(.item, values, element)
            let actions = buildActions(in: element)
            guard let array, let item else { return nil }
            return .foreach(
                SCXMLForeach(
                    sourceLocation: location(element), array: array, item: item, index: values[.index],
                    actions: actions))
        case .log:
            let values = attributes(of: element, allowed: SCXMLName.log.rule.attributes)
            expectNoChildren(element)
            return .log(SCXMLLog(sourceLocation: location(element), label: values[.label], expr: values[.expr]))
        case .assign:
            let values = attributes(of: element, allowed: SCXMLName.assign.rule.attributes)
            let target = required(.location, values, element)
            let inline = inlineContent(of: element)
            let expr = values[.expr]
            if expr != nil && inline != nil {
                report(element, "<assign> cannot have both an 'expr' attribute and inline content; use one of them")
            }
            guard let target else { return nil }
            let value: SCXMLAssign.Value? =
                if let expr { .expression(expr) } else { inline.map { .inline($0) } }
            return .assign(SCXMLAssign(sourceLocation: location(element), location: target, value: value))
        case .script:
            return .script(buildScript(element))
        case .send:
            return .send(buildSend(element))
        case .cancel:
            let values = attributes(of: element, allowed: SCXMLName.cancel.rule.attributes)
            expectNoChildren(element)
            guard let sendID = valueSource(.sendid, .sendidexpr, values, element) else {
                report(element, "<cancel> needs a 'sendid' or 'sendidexpr' attribute naming the <send> to cancel")
                return nil
            }
            return .cancel(SCXMLCancel(sourceLocation: location(element), sendID: sendID))
        default:
            misplaced(element, in: parent, allowed: SCXMLElementRule.executableContent)
            return nil
        }
    }

    /// `<if>`: its own branch, then one per `<elseif>` and `<else>`.
    mutating func buildIf(_ element: Element) -> SCXMLIf? {
        let values = attributes(of: element, allowed: SCXMLName.if.rule.attributes)
        let cond = required(.cond, values, element)
        var branches = [SCXMLIf.Branch(sourceLocation: location(element), cond: cond)]
        var elseElement: Element? = nil
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            let name = tree.localName(child)
            let code = tree.code(child)
            switch code {
            case .elseif, .else:
                let isElse = code == .else
                let childValues = attributes(of: child, allowed: code.rule.attributes)
                if elseElement != nil {
                    report(
                        child,
                        "<\(name)> cannot come after <else> in the same <if>; <else> must be the last branch")
                }
                if tree.hasElementChildren(child) || !tree.isTextBlank(child) {
                    report(
                        child,
                        "<\(name)> must be empty: the actions of its branch follow it inside the <if>")
                }
                let branchCond = isElse ? nil : required(.cond, childValues, child)
                if isElse { elseElement = child }
                branches.append(SCXMLIf.Branch(sourceLocation: location(child), cond: isElse ? nil : branchCond ?? ""))
            default:
                if let action = buildAction(child, in: element) {
                    branches[branches.count - 1].actions.append(action)
                }
            }
        }
        pop(children)
        guard cond != nil else { return nil }
        return SCXMLIf(sourceLocation: location(element), branches: branches)
    }

    mutating func buildScript(_ element: Element) -> SCXMLScript {
        let values = attributes(of: element, allowed: SCXMLName.script.rule.attributes)
        var child = tree.nodes[Int(element)].firstChild
        while child >= 0 {
            if tree.nodes[Int(child)].kind == .element {
                report(child, "<script> can contain only text (the script code), not <\(tree.localName(child))>")
            }
            child = tree.nodes[Int(child)].nextSibling
        }
        if let src = values[.src] {
            if !tree.isTextBlank(element) {
                report(element, "<script> cannot have both a 'src' attribute and inline code; use one of them")
            }
            return SCXMLScript(sourceLocation: location(element), source: .src(src))
        }
        return SCXMLScript(sourceLocation: location(element), source: .inline(tree.text(element)))
    }

    /// The `event` of `<send>` and `<raise>` names one event.
    mutating func reportInvalidEventName(_ event: String, _ element: Element) {
        guard !NameSyntax.isEventName(event) else { return }
        report(
            element,
            "<\(tree.localName(element))> has the event name '\(event)'; an event name is tokens of letters, digits, "
                + "'_', '-' or ':' joined by single dots, such as 'door.open'")
    }

    mutating func buildSend(_ element: Element) -> SCXMLSend {
        let values = attributes(of: element, allowed: SCXMLName.send.rule.attributes)
        var send = SCXMLSend(
            sourceLocation: location(element), event: valueSource(.event, .eventexpr, values, element),
            target: valueSource(.target, .targetexpr, values, element),
            type: valueSource(.type, .typeexpr, values, element), id: idSource(values, element),
            delay: valueSource(.delay, .delayexpr, values, element), namelist: Self.tokens(values[.namelist]))
        if case .literal(let event)? = send.event { reportInvalidEventName(event, element) }
        if case .literal(let delay)? = send.delay, SCXMLTime.parseDelay(delay) == nil {
            report(
                element,
                "<send> has delay '\(delay)', which is not a CSS2 time; write a number followed by 's' or 'ms', "
                    + "such as '1s', '.5s' or '100ms'")
        }
        if send.delay != nil, case .literal("#_internal")? = send.target {
            report(
                element,
                "<send> cannot have a delay when its target is '#_internal'; remove the delay, or raise the event "
                    + "without a target")
        }
        var seenContent = false
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            switch tree.code(child) {
            case .param:
                if let param = buildParam(child) { send.params.append(param) }
            case .content:
                let content = buildContent(child, inInvoke: false)
                if once(child, in: element, seen: &seenContent) { send.content = content }
            default:
                misplaced(child, in: element, allowed: SCXMLName.send.rule.children)
            }
        }
        pop(children)
        if send.content != nil {
            if !send.namelist.isEmpty {
                report(element, "<send> cannot have both a <content> child and a 'namelist' attribute; use one of them")
            }
            if !send.params.isEmpty {
                report(element, "<send> cannot have both a <content> child and <param> children; use one of them")
            }
        }
        if send.event == nil && send.content == nil {
            let usesSCXMLProcessor: Bool
            switch send.type {
            case nil: usesSCXMLProcessor = true
            case .literal(let type)?: usesSCXMLProcessor = type == SCXMLEvent.scxmlProcessorType
            case .expression?: usesSCXMLProcessor = false
            }
            if usesSCXMLProcessor {
                report(
                    element,
                    "<send> needs an 'event' or 'eventexpr' attribute (or a <content> child) when it uses "
                        + "the SCXML event processor")
            }
        }
        return send
    }
}
