extension ChartDefinition {
    /// The chart's structure as an SCXML document (`datamodel="null"`): states, parallel,
    /// final and history states, `initial`s, and transitions with their events, targets and
    /// type. Guards, actions, invocations and done data are Swift closures, which SCXML cannot
    /// hold: each is marked by an XML comment where it was (`<!-- guard: a Swift closure, not
    /// exported -->`), so a reader sees what the document leaves out. Loaded again, the
    /// document has the same states and transitions, with every guard true and no actions.
    ///
    /// ```swift
    /// let chart = ChartDefinition(name: "switch", states: [
    ///     StateDefinition("off", transitions: [TransitionDefinition(on: "flip", to: "on")]),
    ///     StateDefinition("on", transitions: [TransitionDefinition(on: "flip", guard: { _ in true }, to: "off")]),
    /// ])
    /// print(chart.scxml())
    /// // <?xml version="1.0" encoding="UTF-8"?>
    /// // <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="switch">
    /// //   <state id="off">
    /// //     <transition event="flip" target="on"/>
    /// //   </state>
    /// //   <state id="on">
    /// //     <transition event="flip" target="off">
    /// //       <!-- guard: a Swift closure, not exported -->
    /// //     </transition>
    /// //   </state>
    /// // </scxml>
    /// ```
    /// A typed chart: `machine.chart.definition.scxml()`.
    public func scxml() -> String {
        var root = XMLOutputElement("scxml", [("xmlns", "http://www.w3.org/2005/07/scxml"), ("version", "1.0"),
                                        ("datamodel", "null"), ("name", name)])
        if !initial.isEmpty { root.attribute("initial", initial.joined(separator: " ")) }
        if !onStart.isEmpty { root.children.append(.comment(Self.closures(onStart.count, "start-up action"))) }
        for state in states { root.append(Self.element(state)) }
        return root.document()
    }

    /// `N X(s): Swift closure(s), not exported`.
    static func closures(_ count: Int, _ what: String) -> String {
        count == 1 ? "1 \(what): a Swift closure, not exported" : "\(count) \(what)s: Swift closures, not exported"
    }

    static func element(_ state: StateDefinition) -> XMLOutputElement {
        var element: XMLOutputElement
        switch state.kind {
        case .state: element = XMLOutputElement("state", [("id", state.id)])
        case .parallel: element = XMLOutputElement("parallel", [("id", state.id)])
        case .final: element = XMLOutputElement("final", [("id", state.id)])
        case .history(let type):
            element = XMLOutputElement("history", [("id", state.id), ("type", type.rawValue)])
            if let transition = state.initialTransition { element.append(Self.element(transition)) }
            return element
        }
        if !state.initial.isEmpty { element.attribute("initial", state.initial.joined(separator: " ")) }
        if case .state = state.kind, let initial = state.initialTransition {
            element.append(XMLOutputElement("initial", children: [.element(Self.element(initial))]))
        }
        if !state.entryBoxes.isEmpty { element.children.append(.comment(closures(state.entryBoxes.count, "entry action"))) }
        if !state.exitBoxes.isEmpty { element.children.append(.comment(closures(state.exitBoxes.count, "exit action"))) }
        for invocation in state.invocations {
            element.children.append(.comment("invocation '\(invocation.id)': Swift closures, not exported"))
        }
        if state.doneData != nil { element.children.append(.comment("done data: a Swift closure, not exported")) }
        for transition in state.transitions { element.append(Self.element(transition)) }
        for child in state.children { element.append(Self.element(child)) }
        return element
    }

    static func element(_ transition: TransitionDefinition) -> XMLOutputElement {
        var element = XMLOutputElement("transition")
        if !transition.events.isEmpty { element.attribute("event", transition.events.joined(separator: " ")) }
        if !transition.targets.isEmpty { element.attribute("target", transition.targets.joined(separator: " ")) }
        if transition.type == .internal { element.attribute("type", "internal") }
        if transition.guardBox != nil { element.children.append(.comment("guard: a Swift closure, not exported")) }
        if !transition.actionBoxes.isEmpty { element.children.append(.comment(closures(transition.actionBoxes.count, "action"))) }
        return element
    }
}
