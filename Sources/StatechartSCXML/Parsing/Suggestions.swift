// Helpers for error messages: "did you mean", lists of names, and short quotes of text.

enum Suggestions {
    /// The Levenshtein distance between two strings, by Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
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

    /// Up to `count` candidates, nearest to `name` first (ties keep their order).
    static func nearest(to name: String, in candidates: [String], count: Int) -> [String] {
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
