// Whole-document checks on the built model: unique state ids, generated ids for states without
// one, and every reference to a state (transition targets, `initial` attributes, `<initial>` and
// `<history>` transitions) resolved, placed where SCXML requires, and enterable together.
// Documents nested in `<invoke><content>` are checked the same way, each with its own ids.

/// Validates an `SCXMLDocument` and fills in generated state ids.
struct SCXMLValidator {
    private(set) var diagnostics: [SCXMLDiagnostic] = []

    /// Validates `document` (and the documents nested in it), assigning generated ids.
    static func validate(_ document: inout SCXMLDocument) -> [SCXMLDiagnostic] {
        var validator = SCXMLValidator()
        validator.validateDocument(&document)
        return validator.diagnostics
    }

    /// One state of the flattened tree.
    private struct Node {
        var state: SCXMLState
        var parent: Int?
    }

    private var nodes: [Node] = []
    private var indexByID: [String: Int] = [:]
    private var userIDs: [String] = []

    private mutating func report(_ location: SCXMLSourceLocation, _ element: String, _ message: String) {
        diagnostics.append(SCXMLDiagnostic(location: location, element: element, message: message))
    }

    // MARK: - Document

    private mutating func validateDocument(_ document: inout SCXMLDocument) {
        // Unique ids.
        var firstUse: [String: SCXMLState] = [:]
        userIDs = []
        for state in document.allStates where !state.isGeneratedID {
            if let first = firstUse[state.id] {
                report(
                    state.sourceLocation, state.kind.rawValue,
                    "duplicate state id '\(state.id)': the <\(first.kind.rawValue)> at \(first.sourceLocation) "
                        + "already uses it; state ids must be unique within a document")
            } else {
                firstUse[state.id] = state
                userIDs.append(state.id)
            }
        }

        // Generated ids: "__<kind><position in document order>", made unique against the document's ids.
        var used = Set(userIDs)
        var position = 0
        Self.assignGeneratedIDs(&document.states, position: &position, used: &used)

        // The flat table.
        nodes = []
        indexByID = [:]
        func flatten(_ states: [SCXMLState], parent: Int?) {
            for state in states {
                let index = nodes.count
                nodes.append(Node(state: state, parent: parent))
                if indexByID[state.id] == nil { indexByID[state.id] = index }
                flatten(state.children, parent: index)
            }
        }
        flatten(document.states, parent: nil)

        // <scxml initial>
        let initial = resolve(document.initial, what: "initial state", at: document.sourceLocation, element: "scxml")
        checkEnterableTogether(initial, what: "initial states", at: document.sourceLocation, element: "scxml")

        for index in nodes.indices { check(index) }

        Self.validateNested(&document.states, into: &diagnostics)
    }

    private static func assignGeneratedIDs(_ states: inout [SCXMLState], position: inout Int, used: inout Set<String>) {
        for index in states.indices {
            position += 1
            if states[index].isGeneratedID {
                let base = "__\(states[index].kind.rawValue)\(position)"
                var candidate = base
                var suffix = 1
                while used.contains(candidate) {
                    candidate = "\(base)_\(suffix)"
                    suffix += 1
                }
                used.insert(candidate)
                states[index].id = candidate
            }
            assignGeneratedIDs(&states[index].children, position: &position, used: &used)
        }
    }

    private static func validateNested(_ states: inout [SCXMLState], into diagnostics: inout [SCXMLDiagnostic]) {
        for index in states.indices {
            for invokeIndex in states[index].invokes.indices {
                guard var content = states[index].invokes[invokeIndex].content,
                    case .inline(.document(var nested, let markup))? = content.value
                else { continue }
                var validator = SCXMLValidator()
                validator.validateDocument(&nested)
                diagnostics += validator.diagnostics
                content.value = .inline(.document(nested, markup: markup))
                states[index].invokes[invokeIndex].content = content
            }
            validateNested(&states[index].children, into: &diagnostics)
        }
    }

    // MARK: - One state

    private mutating func check(_ index: Int) {
        let state = nodes[index].state
        var described: String { describe(index) }     // for messages only: built when one is reported
        switch state.kind {
        case .state, .parallel:
            if !state.initial.isEmpty {
                if state.childStates.isEmpty {
                    report(
                        state.sourceLocation, state.kind.rawValue,
                        "\(described) has an 'initial' attribute but no child states; 'initial' names the child "
                            + "states to enter first, so remove it or add child states")
                } else {
                    if state.initialElement != nil {
                        report(
                            state.sourceLocation, state.kind.rawValue,
                            "\(described) has both an 'initial' attribute and an <initial> element; use only one of them")
                    }
                    let targets = resolve(state.initial, what: "initial state", at: state.sourceLocation, element: "state")
                    for (id, target) in targets where !isDescendant(target, of: index) {
                        report(
                            state.sourceLocation, state.kind.rawValue,
                            "initial state '\(id)' of \(described) is not one of its descendants; name a state inside it")
                    }
                    checkEnterableTogether(targets, what: "initial states", at: state.sourceLocation, element: "state")
                }
            }
            if let initial = state.initialElement {
                if state.childStates.isEmpty {
                    report(
                        initial.sourceLocation, "initial",
                        "<initial> is only allowed in a state with child states, and \(described) has none")
                } else {
                    let transition = initial.transition
                    let targets = resolve(
                        transition.targets, what: "transition target", at: transition.sourceLocation, element: "transition")
                    for (id, target) in targets where !isDescendant(target, of: index) {
                        report(
                            transition.sourceLocation, "transition",
                            "the <initial> transition target '\(id)' is not a descendant of \(described); "
                                + "the default initial states must be inside the state")
                    }
                    checkEnterableTogether(
                        targets, what: "transition targets", at: transition.sourceLocation, element: "transition")
                }
            }
            checkTransitions(of: state)
        case .final:
            break
        case .history:
            guard let parent = nodes[index].parent else { break }
            let parentState = nodes[parent].state
            let parentDescribed = describe(parent)
            if parentState.childStates.isEmpty {
                report(
                    state.sourceLocation, "history",
                    "\(described) is inside \(parentDescribed), which has no child states; a history state restores "
                        + "the children that were active, so its parent needs child states")
            }
            guard let transition = state.transitions.first else { break }
            let targets = resolve(
                transition.targets, what: "transition target", at: transition.sourceLocation, element: "transition")
            for (id, target) in targets {
                if state.historyType == .shallow {
                    if nodes[target].parent != parent {
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

    private mutating func checkTransitions(of state: SCXMLState) {
        for transition in state.transitions {
            let targets = resolve(
                transition.targets, what: "transition target", at: transition.sourceLocation, element: "transition")
            checkEnterableTogether(targets, what: "transition targets", at: transition.sourceLocation, element: "transition")
        }
    }

    // MARK: - References

    /// The states the ids name, reporting those that name none.
    private mutating func resolve(
        _ ids: [String], what: String, at location: SCXMLSourceLocation, element: String
    ) -> [(id: String, index: Int)] {
        var result: [(id: String, index: Int)] = []
        for id in ids {
            if let index = indexByID[id] {
                result.append((id, index))
            } else {
                let known: String
                if userIDs.isEmpty {
                    known = "the document has no state ids"
                } else {
                    known = "known ids include " + Suggestions.quotedList(Suggestions.nearest(to: id, in: userIDs, count: 5))
                }
                report(location, element, "\(what) '\(id)' does not name a state; \(known)")
            }
        }
        return result
    }

    /// Reports two states that cannot be in the configuration together: neither contains the
    /// other, and the nearest state containing both is not a `<parallel>`.
    private mutating func checkEnterableTogether(
        _ targets: [(id: String, index: Int)], what: String, at location: SCXMLSourceLocation, element: String
    ) {
        guard targets.count > 1 else { return }
        for first in targets.indices {
            for second in targets.indices where second > first {
                let a = targets[first]
                let b = targets[second]
                if a.index == b.index || isDescendant(a.index, of: b.index) || isDescendant(b.index, of: a.index) {
                    continue
                }
                let common = nearestCommonAncestor(a.index, b.index)
                if let common, nodes[common].state.kind == .parallel { continue }
                let container = common.map { describe($0) } ?? "<scxml>"
                report(
                    location, element,
                    "\(what) '\(a.id)' and '\(b.id)' cannot be active at the same time: they are in different "
                        + "children of \(container), which is not a <parallel>")
                return
            }
        }
    }

    /// `true` when `index` is a proper descendant of `ancestor`.
    private func isDescendant(_ index: Int, of ancestor: Int) -> Bool {
        var current = nodes[index].parent
        while let node = current {
            if node == ancestor { return true }
            current = nodes[node].parent
        }
        return false
    }

    private func nearestCommonAncestor(_ a: Int, _ b: Int) -> Int? {
        var ancestors = Set<Int>()
        var current = nodes[a].parent
        while let node = current {
            ancestors.insert(node)
            current = nodes[node].parent
        }
        current = nodes[b].parent
        while let node = current {
            if ancestors.contains(node) { return node }
            current = nodes[node].parent
        }
        return nil
    }

    /// `<state id='s1'>`, or `<state>` for a state whose id was generated.
    private func describe(_ index: Int) -> String {
        let state = nodes[index].state
        return state.isGeneratedID ? "<\(state.kind.rawValue)>" : "<\(state.kind.rawValue) id='\(state.id)'>"
    }
}
