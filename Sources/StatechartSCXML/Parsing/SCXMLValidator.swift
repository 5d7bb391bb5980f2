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
    private var ids: [String] = []
    private var kinds: [SCXMLState.Kind] = []
    private var locations: [SCXMLSourceLocation] = []
    private var generated: [Bool] = []
    private var parents: [Int32] = []
    private var lastDescendants: [Int32] = []
    private var hasChildStates: [Bool] = []
    /// The first state with each id (user-written or generated).
    private var indexByID = IDTable()
    private var generatedCount = 0
    private var nestedDocuments = 0
    /// The document's own ids in document order, first uses only; built for messages.
    private var userIDCache: [String]?

    private mutating func report(_ location: SCXMLSourceLocation, _ element: String, _ message: String) {
        diagnostics.append(SCXMLDiagnostic(location: location, element: element, message: message))
    }

    // MARK: - Document

    private mutating func validateDocument(_ document: inout SCXMLDocument) {
        // The flat table, and unique user ids.
        collect(document.states, parent: -1)

        // Generated ids: "__<kind><position in document order>", made unique against the document's ids.
        if generatedCount > 0 {
            var position = 0
            assignGeneratedIDs(&document.states, position: &position)
        }

        // <scxml initial>
        resolveAndCheck(document.initial, what: "initial state", at: document.sourceLocation, element: "scxml",
            together: "initial states", containedIn: nil)

        var index = 0
        check(document.states, index: &index)

        if nestedDocuments > 0 { Self.validateNested(&document.states, into: &diagnostics) }
    }

    private mutating func collect(_ states: [SCXMLState], parent: Int32) {
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

    private mutating func assignGeneratedIDs(_ states: inout [SCXMLState], position: inout Int) {
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

    // MARK: - States

    private mutating func check(_ states: [SCXMLState], index: inout Int) {
        for position in states.indices {
            check(states, position, index)
            index += 1
            if !states[position].children.isEmpty { check(states[position].children, index: &index) }
        }
    }

    /// Checks `states[position]`, the state numbered `index`.
    private mutating func check(_ states: [SCXMLState], _ position: Int, _ index: Int) {
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
                    if Int(parents[target]) != parent {
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

    // MARK: - References

    /// Resolves `ids` (reporting those that name no state), reports targets outside the state
    /// `containedIn` (an `initial` attribute, or an `<initial>` transition when `initialElement`),
    /// and reports targets that cannot be active together.
    private mutating func resolveAndCheck(
        _ ids: [String], what: String, at location: SCXMLSourceLocation, element: String, together: String,
        containedIn owner: Int?, initialElement: Bool = false
    ) {
        if ids.count == 1 && owner == nil {
            // The common case: one target, nothing to check but that it exists.
            if indexByID[ids[0]] == nil { reportUnknown(ids[0], what: what, at: location, element: element) }
            return
        }
        let targets = resolve(ids, what: what, at: location, element: element)
        if let owner {
            for (id, target) in targets where !isDescendant(target, of: owner) {
                if initialElement {
                    report(
                        location, "transition",
                        "the <initial> transition target '\(id)' is not a descendant of \(describe(owner)); "
                            + "the default initial states must be inside the state")
                } else {
                    report(
                        locations[owner], kinds[owner].rawValue,
                        "initial state '\(id)' of \(describe(owner)) is not one of its descendants; name a state inside it")
                }
            }
        }
        checkEnterableTogether(targets, what: together, at: location, element: element)
    }

    /// The states the ids name, reporting those that name none.
    private mutating func resolve(
        _ ids: [String], what: String, at location: SCXMLSourceLocation, element: String
    ) -> [(id: String, index: Int)] {
        var result: [(id: String, index: Int)] = []
        for id in ids {
            if let index = indexByID[id] {
                result.append((id, index))
            } else {
                reportUnknown(id, what: what, at: location, element: element)
            }
        }
        return result
    }

    private mutating func reportUnknown(_ id: String, what: String, at location: SCXMLSourceLocation, element: String) {
        let userIDs = self.userIDs()
        let known: String
        if userIDs.isEmpty {
            known = "the document has no state ids"
        } else {
            known = "known ids include " + Suggestions.quotedList(Suggestions.nearest(to: id, in: userIDs, count: 5))
        }
        report(location, element, "\(what) '\(id)' does not name a state; \(known)")
    }

    /// The ids written in the document, in document order, each once.
    private mutating func userIDs() -> [String] {
        if let userIDCache { return userIDCache }
        var result: [String] = []
        for index in ids.indices where !generated[index] && indexByID[ids[index]] == index { result.append(ids[index]) }
        userIDCache = result
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
                if let common, kinds[common] == .parallel { continue }
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
    @inline(__always)
    private func isDescendant(_ index: Int, of ancestor: Int) -> Bool {
        index > ancestor && index <= Int(lastDescendants[ancestor])
    }

    private func nearestCommonAncestor(_ a: Int, _ b: Int) -> Int? {
        var current = Int(parents[a])
        while current >= 0 {
            if isDescendant(b, of: current) { return current }
            current = Int(parents[current])
        }
        return nil
    }

    /// `<state id='s1'>`, or `<state>` for a state whose id was generated.
    private func describe(_ index: Int) -> String {
        generated[index] ? "<\(kinds[index].rawValue)>" : "<\(kinds[index].rawValue) id='\(ids[index])'>"
    }
}

/// State ids and their indices: open addressing over an FNV-1a hash of the UTF-8 bytes (cheaper
/// than `Hasher` for the short ids of a document), confirmed by `String` equality.
struct IDTable {
    private var hashes: [UInt64] = []
    private var keys: [String] = []
    private var values: [Int32] = []
    private var count = 0

    @inline(__always)
    private static func hash(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        if let done = key.utf8.withContiguousStorageIfAvailable({ bytes -> UInt64 in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            return hash
        }) {
            return done
        }
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    @inline(__always)
    private func slot(_ key: String, _ hash: UInt64) -> Int {
        let mask = values.count - 1
        var index = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while values[index] >= 0 {
            if hashes[index] == hash && keys[index] == key { return index }
            index = (index + 1) & mask
        }
        return index
    }

    /// The index stored for `key`.
    subscript(key: String) -> Int? {
        guard count > 0 else { return nil }
        let index = slot(key, Self.hash(key))
        return values[index] >= 0 ? Int(values[index]) : nil
    }

    /// Stores `value` for `key` unless it has one; returns the value it already had.
    mutating func insert(_ key: String, _ value: Int) -> Int? {
        if (count + 1) * 2 > values.count { grow() }
        let hash = Self.hash(key)
        let index = slot(key, hash)
        if values[index] >= 0 { return Int(values[index]) }
        hashes[index] = hash
        keys[index] = key
        values[index] = Int32(value)
        count += 1
        return nil
    }

    private mutating func grow() {
        let oldHashes = hashes, oldKeys = keys, oldValues = values
        let capacity = max(64, values.count * 2)
        hashes = Array(repeating: 0, count: capacity)
        keys = Array(repeating: "", count: capacity)
        values = Array(repeating: -1, count: capacity)
        for old in oldValues.indices where oldValues[old] >= 0 {
            let index = slot(oldKeys[old], oldHashes[old])
            hashes[index] = oldHashes[old]
            keys[index] = oldKeys[old]
            values[index] = oldValues[old]
        }
    }
}
