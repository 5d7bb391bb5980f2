import Statechart

// Resolving state ids, reporting unknown ones, and the containment and "active together" rules
// between the states they name.

extension SCXMLValidator {
    /// Resolves `ids` (reporting those that name no state), reports targets outside the state
    /// `containedIn` (an `initial` attribute, or an `<initial>` transition when `initialElement`),
    /// and reports targets that cannot be active together.
    mutating func resolveAndCheck(
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
    mutating func resolve(
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

    mutating func reportUnknown(_ id: String, what: String, at location: SCXMLSourceLocation, element: String) {
        let userIDs = self.userIDs()
        let known: String
        if userIDs.isEmpty {
            known = "the document has no state ids"
        } else {
            known = "known ids include " + Suggestions.quotedList(Suggestions.nearest(to: id, in: userIDs, count: 5,
                                                                                        budget: &suggestionBudget))
        }
        report(location, element, "\(what) '\(id)' does not name a state; \(known)")
    }

    /// The ids written in the document, in document order, each once.
    mutating func userIDs() -> [String] {
        if let userIDCache { return userIDCache }
        var result: [String] = []
        for index in ids.indices where !generated[index] && indexByID[ids[index]] == index { result.append(ids[index]) }
        userIDCache = result
        return result
    }

    /// Reports the first two targets that cannot be in the configuration together, by the rule
    /// the compiler applies (`TargetSetRule`): the same state twice, one inside the other, or
    /// two states whose nearest common ancestor is not a `<parallel>`.
    mutating func checkEnterableTogether(
        _ targets: [(id: String, index: Int)], what: String, at location: SCXMLSourceLocation, element: String
    ) {
        guard targets.count > 1 else { return }
        let found = TargetSetRule.firstConflict(
            in: targets.map(\.index), parent: { Int(parents[$0]) }, lastDescendant: { Int(lastDescendants[$0]) },
            isParallel: { kinds[$0] == .parallel })
        guard let (first, second, conflict) = found else { return }
        let a = targets.first { $0.index == first }!.id
        let b = targets.last { $0.index == second }!.id
        let message: String
        switch conflict {
        case .same:
            message = "\(what) name '\(a)' twice; name each state once"
        case .nested(let firstIsInner):
            let (outer, inner) = firstIsInner ? (b, a) : (a, b)
            message =
                "\(what) '\(a)' and '\(b)' cannot both be named: '\(inner)' is inside '\(outer)', and entering "
                + "'\(inner)' enters '\(outer)' too; name only '\(inner)'"
        case .separate(let common):
            let container = common.map { describe($0) } ?? "<scxml>"
            message =
                "\(what) '\(a)' and '\(b)' cannot be active at the same time: they are in different "
                + "children of \(container), which is not a <parallel>"
        }
        report(location, element, message)
    }

    /// `true` when `index` is a proper descendant of `ancestor`.
    @inline(__always)
    func isDescendant(_ index: Int, of ancestor: Int) -> Bool {
        index > ancestor && index <= Int(lastDescendants[ancestor])
    }

    /// `<state id='s1'>`, or `<state>` for a state whose id was generated.
    func describe(_ index: Int) -> String {
        generated[index] ? "<\(kinds[index].rawValue)>" : "<\(kinds[index].rawValue) id='\(ids[index])'>"
    }
}
