import Statechart

extension SCXMLDocument {
    /// The document written as SCXML again: every element the model holds (states, transitions,
    /// executable content, data, invocations with their content, done data) with its attributes,
    /// inline content exactly as it was read, and generated ids (``SCXMLState/isGeneratedID``)
    /// left out so they are generated again. Parsed again, it gives the same document apart
    /// from source locations, and runs the same.
    ///
    /// The layout is fixed, not the original's: two-space indentation, and within a state its
    /// `<datamodel>`, `<initial>`, `<onentry>`, `<onexit>`, transitions, `<invoke>`s, child
    /// states and `<donedata>`, in that order. Comments and processing instructions are not in
    /// the model and are not written.
    ///
    /// ```swift
    /// let document = try SCXMLParser.parse(string: """
    ///     <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
    ///       <state id="a"><transition event="go" target="b"/></state>
    ///       <final id="b"/>
    ///     </scxml>
    ///     """)
    /// print(document.scxml())
    /// // <?xml version="1.0" encoding="UTF-8"?>
    /// // <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
    /// //   <state id="a">
    /// //     <transition event="go" target="b"/>
    /// //   </state>
    /// //   <final id="b"/>
    /// // </scxml>
    /// ```
    public func scxml() -> String { withExportStack { SCXMLWriter.root(self).document() } }
}

/// SCXML model → ``XMLOutputElement`` tree, one function per element kind.
enum SCXMLWriter {
    static func root(_ document: SCXMLDocument) -> XMLOutputElement {
        var root = XMLOutputElement("scxml", [("xmlns", SCXMLDocument.namespace), ("version", document.version)])
        root.attribute("datamodel", document.datamodel)
        root.attribute("name", document.name)
        root.attribute("initial", list(document.initial))
        if document.binding == .late { root.attribute("binding", "late") }
        if let datamodel = document.datamodelElement { root.append(self.datamodel(datamodel)) }
        if let script = document.script { root.append(self.script(script)) }
        for state in document.states { root.append(self.state(state)) }
        return root
    }

    static func list(_ items: [String]) -> String? { items.isEmpty ? nil : items.joined(separator: " ") }

    static func state(_ state: SCXMLState) -> XMLOutputElement {
        var element = XMLOutputElement(state.kind.rawValue)
        if !state.isGeneratedID { element.attribute("id", state.id) }
        if state.kind == .history {
            element.attribute("type", state.historyType?.rawValue)
            for transition in state.transitions { element.append(self.transition(transition)) }
            return element
        }
        element.attribute("initial", list(state.initial))
        if let datamodel = state.datamodelElement { element.append(self.datamodel(datamodel)) }
        if let initial = state.initialElement {
            element.append(XMLOutputElement("initial", children: [.element(transition(initial.transition))]))
        }
        for block in state.onEntry { element.append(self.block("onentry", block)) }
        for block in state.onExit { element.append(self.block("onexit", block)) }
        for transition in state.transitions { element.append(self.transition(transition)) }
        for invoke in state.invokes { element.append(self.invoke(invoke)) }
        for child in state.children { element.append(self.state(child)) }
        if let doneData = state.doneData {
            var done = XMLOutputElement("donedata")
            if let content = doneData.content { done.append(self.content(content)) }
            for param in doneData.params { done.append(self.param(param)) }
            element.append(done)
        }
        return element
    }

    static func transition(_ transition: SCXMLTransition) -> XMLOutputElement {
        var element = XMLOutputElement("transition")
        element.attribute("event", list(transition.events))
        element.attribute("cond", transition.cond)
        element.attribute("target", list(transition.targets))
        if transition.type == .internal { element.attribute("type", "internal") }
        for action in transition.actions { element.append(executable(action)) }
        return element
    }

    static func block(_ name: String, _ block: SCXMLExecutableBlock) -> XMLOutputElement {
        XMLOutputElement(name, children: block.actions.map { .element(executable($0)) })
    }

    static func executable(_ action: SCXMLExecutable) -> XMLOutputElement {
        switch action {
        case .raise(let raise):
            return XMLOutputElement("raise", [("event", raise.event)])
        case .if(let node):
            var element = XMLOutputElement("if")
            for (number, branch) in node.branches.enumerated() {
                if number == 0 {
                    element.attribute("cond", branch.cond)
                } else if let cond = branch.cond {
                    element.append(XMLOutputElement("elseif", [("cond", cond)]))
                } else {
                    element.append(XMLOutputElement("else"))
                }
                for action in branch.actions { element.append(executable(action)) }
            }
            return element
        case .foreach(let node):
            var element = XMLOutputElement("foreach", [("array", node.array), ("item", node.item)])
            element.attribute("index", node.index)
            for action in node.actions { element.append(executable(action)) }
            return element
        case .log(let log):
            var element = XMLOutputElement("log")
            element.attribute("label", log.label)
            element.attribute("expr", log.expr)
            return element
        case .assign(let assign):
            var element = XMLOutputElement("assign", [("location", assign.location)])
            switch assign.value {
            case .expression(let expression): element.attribute("expr", expression)
            case .inline(let content): element.children = inline(content)
            case nil: break
            }
            return element
        case .script(let script):
            return self.script(script)
        case .send(let send):
            var element = XMLOutputElement("send")
            value(send.event, "event", into: &element)
            value(send.target, "target", into: &element)
            value(send.type, "type", into: &element)
            id(send.id, into: &element)
            value(send.delay, "delay", into: &element)
            element.attribute("namelist", list(send.namelist))
            for param in send.params { element.append(self.param(param)) }
            if let content = send.content { element.append(self.content(content)) }
            return element
        case .cancel(let cancel):
            var element = XMLOutputElement("cancel")
            switch cancel.sendID {
            case .literal(let id): element.attribute("sendid", id)
            case .expression(let expression): element.attribute("sendidexpr", expression)
            }
            return element
        }
    }

    /// `name="literal"` or `nameexpr="expression"`.
    static func value(_ source: SCXMLValueSource?, _ name: String, into element: inout XMLOutputElement) {
        switch source {
        case .literal(let text): element.attribute(name, text)
        case .expression(let expression): element.attribute(name + "expr", expression)
        case nil: break
        }
    }

    /// `id="literal"` or `idlocation="location"`.
    static func id(_ source: SCXMLIDSource?, into element: inout XMLOutputElement) {
        switch source {
        case .literal(let id): element.attribute("id", id)
        case .location(let location): element.attribute("idlocation", location)
        case nil: break
        }
    }

    static func invoke(_ invoke: SCXMLInvoke) -> XMLOutputElement {
        var element = XMLOutputElement("invoke")
        value(invoke.type, "type", into: &element)
        value(invoke.src, "src", into: &element)
        id(invoke.id, into: &element)
        element.attribute("namelist", list(invoke.namelist))
        if invoke.autoforward { element.attribute("autoforward", "true") }
        for param in invoke.params { element.append(self.param(param)) }
        if let content = invoke.content { element.append(self.content(content)) }
        if let finalize = invoke.finalize { element.append(block("finalize", finalize)) }
        return element
    }

    static func datamodel(_ datamodel: SCXMLDataModel) -> XMLOutputElement {
        XMLOutputElement("datamodel", children: datamodel.data.map { data in
            var element = XMLOutputElement("data", [("id", data.id)])
            switch data.value {
            case .expression(let expression): element.attribute("expr", expression)
            case .src(let src): element.attribute("src", src)
            case .inline(let content): element.children = inline(content)
            case nil: break
            }
            return .element(element)
        })
    }

    static func script(_ script: SCXMLScript) -> XMLOutputElement {
        switch script.source {
        case .src(let src): return XMLOutputElement("script", [("src", src)])
        case .inline(let code): return XMLOutputElement("script", children: code.isEmpty ? [] : [.text(code)])
        }
    }

    static func content(_ content: SCXMLContent) -> XMLOutputElement {
        var element = XMLOutputElement("content")
        switch content.value {
        case .expression(let expression): element.attribute("expr", expression)
        case .inline(let inline): element.children = self.inline(inline)
        case nil: break
        }
        return element
    }

    static func param(_ param: SCXMLParam) -> XMLOutputElement {
        var element = XMLOutputElement("param", [("name", param.name)])
        switch param.value {
        case .expression(let expression): element.attribute("expr", expression)
        case .location(let location): element.attribute("location", location)
        case nil: break
        }
        return element
    }

    /// Inline content as read: text escaped again, markup (and a nested `<scxml>`) as written.
    static func inline(_ content: SCXMLInlineContent) -> [XMLOutputElement.Node] {
        switch content {
        case .text(let text): return text.isEmpty ? [] : [.text(text)]
        case .markup(let markup): return [.markup(markup)]
        case .document(_, let markup): return [.markup(markup)]
        }
    }
}
