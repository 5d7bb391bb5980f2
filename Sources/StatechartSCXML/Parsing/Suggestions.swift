// Helpers for error messages: "did you mean", lists of names, and short quotes of text.

enum Suggestions {
    /// The Levenshtein distance between two strings, by Unicode scalars.
    ///
    /// - Complexity: O(a × b) time, O(b) memory (two rows of scalar counts).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = a.unicodeScalars.map(\.value)
        let b = b.unicodeScalars.map(\.value)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            let scalar = a[i - 1]
            for j in 1...b.count {
                var best = previous[j - 1] + (scalar == b[j - 1] ? 0 : 1)
                if previous[j] + 1 < best { best = previous[j] + 1 }
                if current[j - 1] + 1 < best { best = current[j - 1] + 1 }
                current[j] = best
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate closest to `name` if it is close enough to be a likely typo.
    static func closest(to name: String, in candidates: [String]) -> String? {
        let limit = max(1, min(2, name.count / 3))
        var best: (String, Int)? = nil
        for candidate in candidates {
            let distance = editDistance(name.lowercased(), candidate.lowercased())
            if distance <= limit, best == nil || distance < best!.1 { best = (candidate, distance) }
        }
        return best?.0
    }

    /// The edit-distance work one document's suggestions may do, in cells (one comparison of
    /// two scalars): a few milliseconds in a release build. Past it, suggestions list the
    /// first ids.
    static let documentBudget = 2_000_000

    /// Up to `count` candidates, nearest to `name` first (ties keep their order), each
    /// comparison charged to `budget` (the product of the two lengths, in scalars). When what
    /// is left cannot pay for comparing `name` with every candidate, nothing is compared: the
    /// first `count` candidates are returned and the budget is spent, so a document with many
    /// unknown names and many ids costs bounded time (not names × ids × lengths).
    ///
    /// - Complexity: O(min(budget, candidates × lengths)).
    static func nearest(to name: String, in candidates: [String], count: Int, budget: inout Int) -> [String] {
        let length = name.unicodeScalars.count
        var cost = 0
        for candidate in candidates {
            cost += max(1, length) * max(1, candidate.unicodeScalars.count)
            if cost > budget { break }
        }
        guard cost <= budget else {
            budget = 0      // spent: later names get the first ids at once (no pass over the ids)
            return Array(candidates.prefix(count))
        }
        budget -= cost
        let ranked = candidates.enumerated().map { (offset: $0.offset, id: $0.element, distance: editDistance(name, $0.element)) }
        return ranked.sorted { ($0.distance, $0.offset) < ($1.distance, $1.offset) }.prefix(count).map(\.id)
    }

    /// `'a', 'b', 'c'`
    static func quotedList(_ names: [String]) -> String { names.map { "'\($0)'" }.joined(separator: ", ") }

    /// `<a>, <b>, <c>`
    static func elementList(_ names: [String]) -> String { names.map { "<\($0)>" }.joined(separator: ", ") }

    /// The text, shortened and on one line, for quoting in a message.
    static func snippet(_ text: String) -> String {
        let collapsed = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return collapsed.count > 30 ? String(collapsed.prefix(30)) + "..." : collapsed
    }
}
