/// A condition of the null datamodel built from `In()`: the extension that lets firmware charts
/// say "door closed and not paused" without a scripting language.
///
/// SCXML B.1 gives the null datamodel one predicate, `In('id')`. As a documented extension,
/// conditions may combine it with `!`, `&&`, `||`, parentheses, `true` and `false`:
///
/// ```xml
/// <transition event="start" cond="In('closed') &amp;&amp; !In('paused')" target="cooking"/>
/// <transition cond="(In(a) || In(b)) &amp;&amp; !false" target="next"/>
/// ```
///
/// `!` binds tightest, then `&&`, then `||` (as in C and ECMAScript); `In(id)` takes one state id,
/// quoted or bare. Plain `In('id')` keeps the meaning the spec gives it. This syntax tree is the one
/// both the Swift null datamodel evaluates and `statechart generate c` compiles to C, so the two
/// agree by construction.
package indirect enum NullCondition: Equatable, Sendable {
    case constant(Bool)
    /// `In(id)`: whether state `id` is active (false when no state has that id).
    case inState(String)
    case not(NullCondition)
    case and(NullCondition, NullCondition)
    case or(NullCondition, NullCondition)

    /// Parses `text`, or returns `nil` when it is not such a condition.
    package init?(_ text: String) {
        var parser = Parser(Array(text.utf8))
        guard let tree = parser.parseOr(), parser.atEnd() else { return nil }
        self = tree
    }

    /// The value of the condition, asking `isActive` for each `In()` as it is reached
    /// (`&&` and `||` short-circuit).
    package func evaluate(_ isActive: (String) -> Bool) -> Bool {
        switch self {
        case .constant(let value): return value
        case .inState(let id): return isActive(id)
        case .not(let inner): return !inner.evaluate(isActive)
        case .and(let a, let b): return a.evaluate(isActive) && b.evaluate(isActive)
        case .or(let a, let b): return a.evaluate(isActive) || b.evaluate(isActive)
        }
    }

    /// Recursive descent over the UTF-8 bytes; nesting is bounded so hostile text cannot
    /// exhaust the stack.
    private struct Parser {
        let bytes: [UInt8]
        var position = 0
        var depth = 0
        static let maximumDepth = 200

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func atEnd() -> Bool {
            skipSpace()
            return position == bytes.count
        }

        /// Consumes `token` (after spaces) if it comes next.
        mutating func take(_ token: String) -> Bool {
            skipSpace()
            let t = Array(token.utf8)
            guard position + t.count <= bytes.count, Array(bytes[position..<position + t.count]) == t else { return false }
            position += t.count
            return true
        }

        mutating func parseOr() -> NullCondition? {
            guard var left = parseAnd() else { return nil }
            while take("||") {
                guard let right = parseAnd() else { return nil }
                left = .or(left, right)
            }
            return left
        }

        mutating func parseAnd() -> NullCondition? {
            guard var left = parseUnary() else { return nil }
            while take("&&") {
                guard let right = parseUnary() else { return nil }
                left = .and(left, right)
            }
            return left
        }

        mutating func parseUnary() -> NullCondition? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { return nil }
            if take("!") {
                guard let inner = parseUnary() else { return nil }
                return .not(inner)
            }
            if take("(") {
                guard let inner = parseOr(), take(")") else { return nil }
                return inner
            }
            guard let word = identifier() else { return nil }
            switch word {
            case "true": return .constant(true)
            case "false": return .constant(false)
            case "In":
                guard take("("), let id = argument(), take(")") else { return nil }
                return .inState(id)
            default: return nil
            }
        }

        static func isIdentifierStart(_ b: UInt8) -> Bool {
            (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: "_") || b >= 0x80
        }

        static func isIdentifierByte(_ b: UInt8) -> Bool {
            isIdentifierStart(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: ":")
        }

        /// A name (`In`, `true`, or a bare state id: letters, digits, `_ . - :`, any non-ASCII).
        mutating func identifier() -> String? {
            skipSpace()
            guard position < bytes.count, Self.isIdentifierStart(bytes[position]) else { return nil }
            let start = position
            while position < bytes.count, Self.isIdentifierByte(bytes[position]) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        /// `In()`'s argument: `'id'`, `"id"` or a bare id.
        mutating func argument() -> String? {
            skipSpace()
            guard position < bytes.count else { return nil }
            let quote = bytes[position]
            guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") else { return identifier() }
            let start = position + 1
            guard let end = bytes[start...].firstIndex(of: quote), end > start else { return nil }
            position = end + 1
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }
}
