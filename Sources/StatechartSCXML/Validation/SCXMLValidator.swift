// Whole-document checks on the built model: unique state ids, generated ids for states without
// one, and every reference to a state (transition targets, `initial` attributes, `<initial>` and
// `<history>` transitions) resolved, placed where SCXML requires, and enterable together.
// Documents nested in `<invoke><content>` are checked the same way, each with its own ids.
//
// The states are numbered in document order (parents before children, so every subtree is a
// contiguous range) and described by flat arrays; the model is read in place, never copied.

/// Validates an `SCXMLDocument` and fills in generated state ids.
struct SCXMLValidator {
    private(set) var diagnostics: [SCXMLDiagnostic] = []

    /// Validates `document` (and the documents nested in it), assigning generated ids.
    static func validate(_ document: inout SCXMLDocument) -> [SCXMLDiagnostic] {
        var validator = SCXMLValidator()
        validator.validateDocument(&document)
        return validator.diagnostics
    }

    // The states in document order.
    var ids: [String] = []
    var kinds: [SCXMLState.Kind] = []
    var locations: [SCXMLSourceLocation] = []
    var generated: [Bool] = []
    var parents: [Int32] = []
    var lastDescendants: [Int32] = []
    var hasChildStates: [Bool] = []
    /// The first state with each id (user-written or generated).
    var indexByID = StateIDTable()
    var generatedCount = 0
    var nestedDocuments = 0
    /// `<history>` states without a default transition (the builder warned of each).
    var historiesWithoutDefault = 0
    /// The histories whose default transition was filled in: the parent's initial states.
    var filledHistoryDefaults = Set<Int>()
    /// The document's own ids in document order, first uses only; built for messages.
    var userIDCache: [String]?

    mutating func report(_ location: SCXMLSourceLocation, _ element: String, _ message: String) {
        diagnostics.append(SCXMLDiagnostic(location: location, element: element, message: message))
    }

    /// Reports what breaks a rule but has one obvious meaning, which the document is given
    /// (docs/COMPATIBILITY.md); a strict parse makes it an error.
    mutating func warn(_ location: SCXMLSourceLocation, _ element: String, _ message: String) {
        diagnostics.append(SCXMLDiagnostic(location: location, element: element, message: message, severity: .warning))
    }

    // MARK: - Document

    mutating func validateDocument(_ document: inout SCXMLDocument) {
        // The flat table, and unique user ids; sized first (a count is cheaper than growing
        // seven arrays and the id table step by step on a large document).
        let count = Self.count(document.states)
        ids.reserveCapacity(count)
        kinds.reserveCapacity(count)
        locations.reserveCapacity(count)
        generated.reserveCapacity(count)
        parents.reserveCapacity(count)
        lastDescendants.reserveCapacity(count)
        hasChildStates.reserveCapacity(count)
        indexByID.reserveCapacity(count)
        collect(document.states, parent: -1)

        // Generated ids: "__<kind><position in document order>", made unique against the document's ids.
        if generatedCount > 0 {
            var position = 0
            assignGeneratedIDs(&document.states, position: &position)
        }

        // <history> without a default transition: the parent's initial states, as Qt does.
        if historiesWithoutDefault > 0 {
            var position = 0
            fillHistoryDefaults(&document.states, position: &position)
        }

        // <scxml initial>
        resolveAndCheck(document.initial, what: "initial state", at: document.sourceLocation, element: "scxml",
            together: "initial states", containedIn: nil)

        var index = 0
        check(document.states, index: &index)
        checkStateTests(document)

        if nestedDocuments > 0 { Self.validateNested(&document.states, into: &diagnostics) }
    }

    /// The number of states in `states` and their descendants.
    static func count(_ states: [SCXMLState]) -> Int {
        var total = states.count
        for index in states.indices where !states[index].children.isEmpty { total += count(states[index].children) }
        return total
    }

    mutating func collect(_ states: [SCXMLState], parent: Int32) {
        for position in states.indices {
            let index = ids.count
            let id = states[position].id
            let kind = states[position].kind
            let isGenerated = states[position].isGeneratedID
            let location = states[position].sourceLocation
            ids.append(id)
            kinds.append(kind)
            locations.append(location)
            generated.append(isGenerated)
            parents.append(parent)
            lastDescendants.append(Int32(index))
            let children = states[position].children
            hasChildStates.append(children.contains { $0.kind != .history })
            if kind == .history && states[position].transitions.isEmpty { historiesWithoutDefault += 1 }
            for invoke in states[position].invokes {
                if case .inline(.document)? = invoke.content?.value { nestedDocuments += 1 }
            }
            if isGenerated {
                generatedCount += 1
            } else if let first = indexByID.insert(id, index) {
                report(
                    location, kind.rawValue,
                    "duplicate state id '\(id)': the <\(kinds[first].rawValue)> at \(locations[first]) "
                        + "already uses it; state ids must be unique within a document")
            }
            if !children.isEmpty { collect(children, parent: Int32(index)) }
            lastDescendants[index] = Int32(ids.count - 1)
        }
    }

    mutating func assignGeneratedIDs(_ states: inout [SCXMLState], position: inout Int) {
        for index in states.indices {
            let flat = position
            position += 1
            if states[index].isGeneratedID {
                let base = "__\(states[index].kind.rawValue)\(position)"
                var candidate = base
                var suffix = 1
                while indexByID[candidate] != nil {
                    candidate = "\(base)_\(suffix)"
                    suffix += 1
                }
                _ = indexByID.insert(candidate, flat)
                ids[flat] = candidate
                states[index].id = candidate
            }
            if !states[index].children.isEmpty { assignGeneratedIDs(&states[index].children, position: &position) }
        }
    }

    /// Gives each `<history>` without a default transition one to the states its parent enters by
    /// default: its `initial` attribute or `<initial>` transition, else its first child state
    /// (all child states for a `<parallel>`). `position` numbers the states in document order.
    mutating func fillHistoryDefaults(_ states: inout [SCXMLState], position: inout Int) {
        for index in states.indices {
            position += 1
            guard !states[index].children.isEmpty else { continue }
            let parent = states[index]
            let entered: [String] =
                if parent.kind == .parallel {
                    parent.children.filter { $0.kind != .history }.map(\.id)
                } else if !parent.initial.isEmpty {
                    parent.initial
                } else if let initial = parent.initialElement {
                    initial.transition.targets
                } else {
                    parent.children.first { $0.kind != .history }.map { [$0.id] } ?? []
                }
            var childPosition = position
            for child in states[index].children.indices {
                let flat = childPosition
                childPosition += 1 + Int(lastDescendants[flat]) - flat
                guard states[index].children[child].kind == .history, states[index].children[child].transitions.isEmpty,
                      !entered.isEmpty
                else { continue }
                let location = states[index].children[child].sourceLocation
                states[index].children[child].transitions = [SCXMLTransition(sourceLocation: location, targets: entered)]
                filledHistoryDefaults.insert(flat)
            }
            fillHistoryDefaults(&states[index].children, position: &position)
        }
    }

    static func validateNested(_ states: inout [SCXMLState], into diagnostics: inout [SCXMLDiagnostic]) {
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

}
