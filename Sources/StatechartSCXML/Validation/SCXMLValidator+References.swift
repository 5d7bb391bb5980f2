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
            known = "known ids include " + Suggestions.quotedList(Suggestions.nearest(to: id, in: userIDs, count: 5))
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

    /// Reports two states that cannot be in the configuration together: neither contains the
    /// other, and the nearest state containing both is not a `<parallel>`.
    mutating func checkEnterableTogether(
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
    func isDescendant(_ index: Int, of ancestor: Int) -> Bool {
        index > ancestor && index <= Int(lastDescendants[ancestor])
    }

    func nearestCommonAncestor(_ a: Int, _ b: Int) -> Int? {
        var current = Int(parents[a])
        while current >= 0 {
            if isDescendant(b, of: current) { return current }
            current = Int(parents[current])
        }
        return nil
    }

    /// `<state id='s1'>`, or `<state>` for a state whose id was generated.
    func describe(_ index: Int) -> String {
        generated[index] ? "<\(kinds[index].rawValue)>" : "<\(kinds[index].rawValue) id='\(ids[index])'>"
    }
}
