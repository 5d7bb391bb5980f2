// The checks of each state: its `initial` attribute or <initial> element, its transitions' targets,
// and a history state's default transition.

extension SCXMLValidator {
    mutating func check(_ states: [SCXMLState], index: inout Int) {
        for position in states.indices {
            check(states, position, index)
            index += 1
            if !states[position].children.isEmpty { check(states[position].children, index: &index) }
        }
    }

    /// Checks `states[position]`, the state numbered `index`.
    mutating func check(_ states: [SCXMLState], _ position: Int, _ index: Int) {
        let location = locations[index]
        var described: String { describe(index) }  // for messages only: built when one is reported
        switch kinds[index] {
        case .state, .parallel:
            let kindName = kinds[index].rawValue
            let initial = states[position].initial
            if !initial.isEmpty {
                if !hasChildStates[index] {
                    report(
                        location, kindName,
                        "\(described) has an 'initial' attribute but no child states; 'initial' names the child "
                            + "states to enter first, so remove it or add child states")
                } else {
                    if states[position].initialElement != nil {
                        report(
                            location, kindName,
                            "\(described) has both an 'initial' attribute and an <initial> element; use only one of them")
                    }
                    resolveAndCheck(initial, what: "initial state", at: location, element: "state",
                        together: "initial states", containedIn: index)
                }
            }
            if let initialElement = states[position].initialElement {
                if !hasChildStates[index] {
                    report(
                        initialElement.sourceLocation, "initial",
                        "<initial> is only allowed in a state with child states, and \(described) has none")
                } else {
                    let transition = initialElement.transition
                    resolveAndCheck(transition.targets, what: "transition target", at: transition.sourceLocation,
                        element: "transition", together: "transition targets", containedIn: index, initialElement: true)
                }
            }
            let transitions = states[position].transitions
            for k in transitions.indices {
                let targets = transitions[k].targets
                if targets.count == 1 {
                    // The common case: one target, nothing to check but that it exists.
                    if indexByID[targets[0]] == nil {
                        reportUnknown(targets[0], what: "transition target", at: transitions[k].sourceLocation,
                            element: "transition")
                    }
                } else {
                    resolveAndCheck(targets, what: "transition target", at: transitions[k].sourceLocation,
                        element: "transition", together: "transition targets", containedIn: nil)
                }
            }
        case .final:
            break
        case .history:
            let parent = Int(parents[index])
            guard parent >= 0 else { break }
            let parentDescribed = describe(parent)
            if !hasChildStates[parent] {
                report(
                    location, "history",
                    "\(described) is inside \(parentDescribed), which has no child states; a history state restores "
                        + "the children that were active, so its parent needs child states")
            }
            guard let transition = states[position].transitions.first else { break }
            let targets = resolve(
                transition.targets, what: "transition target", at: transition.sourceLocation, element: "transition")
            for (id, target) in targets {
                if states[position].historyType == .shallow {
                    // Deeper inside the parent, the target is entered as written (Qt Creator and
                    // uSCXML output): a warning. A filled-in default is the parent's own entry.
                    if Int(parents[target]) != parent && isDescendant(target, of: parent)
                        && !filledHistoryDefaults.contains(index) {
                        warn(
                            transition.sourceLocation, "transition",
                            "the default target '\(id)' of the shallow \(described) is not a child of "
                                + "\(parentDescribed); it is entered as written, with the states between, as Qt and "
                                + "uSCXML do (SCXML requires a child; type=\"deep\" allows deeper descendants)")
                    } else if !isDescendant(target, of: parent) {
                        report(
                            transition.sourceLocation, "transition",
                            "the default target '\(id)' of the shallow \(described) must be a child of "
                                + "\(parentDescribed); use type=\"deep\" to name deeper descendants")
                    }
                } else if !isDescendant(target, of: parent) {
                    report(
                        transition.sourceLocation, "transition",
                        "the default target '\(id)' of \(described) is not a descendant of \(parentDescribed); "
                            + "a history state can only restore states inside its parent")
                }
            }
            checkEnterableTogether(targets, what: "transition targets", at: transition.sourceLocation, element: "transition")
        }
    }

}
