extension SCXMLDocument {
    /// The deepest nesting of states (top-level states 1), found without recursion.
    var stateNestingDepth: Int {
        var deepest = 0
        var pending: [(states: [SCXMLState], depth: Int)] = [(states, 1)]
        while let (level, depth) = pending.popLast() {
            for state in level {
                deepest = max(deepest, depth)
                if !state.children.isEmpty { pending.append((state.children, depth + 1)) }
            }
        }
        return deepest
    }

    /// `body()` (an export, whose writers recurse along the state nesting) on a thread whose
    /// stack fits this document's nesting (``NestingStack``): a document deep enough to load is
    /// deep enough to export. Each state level is an element with content elements around its
    /// children, so three levels of element nesting are reserved per state level.
    func withExportStack<T>(_ body: () -> T) -> T {
        NestingStack.run(depth: 3 * stateNestingDepth, body)
    }
}
