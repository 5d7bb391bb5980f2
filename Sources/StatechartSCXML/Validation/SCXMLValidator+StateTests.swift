// `In('id')` conditions that name no state: an error in every datamodel, reported with the
// element's position like an unknown transition target, so a typo in a guard is found when the
// document is validated, generated or loaded instead of making the guard always false.

extension SCXMLValidator {
    /// Reports each `In()` naming no state of this document, in every condition (`<transition
    /// cond>`, `<if>`/`<elseif> cond`). Under the null datamodel (declared, or none declared) a
    /// condition it parses is read with its own parser (`NullCondition`: quoted and bare ids);
    /// otherwise the string-literal arguments count, and any other argument (an ECMAScript
    /// variable) is the datamodel's to evaluate.
    mutating func checkStateTests(_ document: SCXMLDocument) {
        let null = document.datamodel == nil || document.datamodel == "null"
        var unknown: [(id: String, condition: String, location: SCXMLSourceLocation, element: String)] = []
        SCXMLDocumentWalker.visit(document) { item in
            guard case .condition(let text, let location, let element) = item, text.contains("In") else { return }
            let ids = null ? NullExpression(text)?.staticCondition?.stateIDs : nil
            for id in ids ?? StateTestScanner.literalArguments(in: text) where indexByID[id] == nil {
                unknown.append((id, text, location, element))
            }
        }
        for (id, condition, location, element) in unknown {
            reportUnknown(id, what: "cond=\"\(condition)\": In() of", at: location, element: element)
        }
    }
}

extension NullCondition {
    /// The ids of its `In()`s, in order.
    var stateIDs: [String] {
        switch self {
        case .constant: return []
        case .inState(let id): return [id]
        case .not(let inner): return inner.stateIDs
        case .and(let a, let b), .or(let a, let b): return a.stateIDs + b.stateIDs
        }
    }
}

/// Finds the calls `In('id')` / `In("id")` in an expression of any datamodel: outside string
/// literals, `In` not part of a longer name or a member (`x.In`), then `(`, one string literal
/// and `)`, spaces allowed between.
enum StateTestScanner {
    /// The literal arguments of the `In()` calls in `text`, in order.
    static func literalArguments(in text: String) -> [String] {
        let s = Array(text.unicodeScalars)
        var found: [String] = []
        var i = 0
        func isNamePart(_ c: Unicode.Scalar) -> Bool {
            c == "_" || c == "$" || c == "." || c.properties.isAlphabetic || ("0"..."9").contains(c)
        }
        func skipSpaces(_ k: inout Int) { while k < s.count, s[k] == " " || s[k] == "\t" || s[k] == "\n" || s[k] == "\r" { k += 1 } }
        /// The end of the string literal opening at `k` (after its closing quote), and its text.
        func literal(at k: Int) -> (end: Int, text: String)? {
            guard k < s.count, s[k] == "'" || s[k] == "\"" || s[k] == "`" else { return nil }
            var text = String.UnicodeScalarView()
            var j = k + 1
            while j < s.count, s[j] != s[k] {
                if s[j] == "\\", j + 1 < s.count { j += 1 }
                text.append(s[j])
                j += 1
            }
            return j < s.count ? (j + 1, String(text)) : nil
        }
        while i < s.count {
            if let string = literal(at: i) {
                i = string.end
                continue
            }
            if s[i] == "I", i + 1 < s.count, s[i + 1] == "n", i == 0 || !isNamePart(s[i - 1]),
               i + 2 >= s.count || !isNamePart(s[i + 2]) {
                var k = i + 2
                skipSpaces(&k)
                if k < s.count, s[k] == "(" {
                    k += 1
                    skipSpaces(&k)
                    if k < s.count, s[k] != "`", let argument = literal(at: k) {     // a template literal is not an id
                        var close = argument.end
                        skipSpaces(&close)
                        if close < s.count, s[close] == ")" { found.append(argument.text) }
                    }
                }
            }
            i += 1
        }
        return found
    }
}
