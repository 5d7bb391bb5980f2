import Foundation
import Statechart

extension DataValue {
    /// Parses JSON text (any JSON value, not only objects); `nil` when it is not JSON.
    ///
    /// ```swift
    /// DataValue(json: #"{"a": [1, "x"]}"#)   // .object(["a": .array([.number(1), .string("x")])])
    /// ```
    public init?(json text: String) {
        guard let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        self.init(foundation: object)
    }

    init?(foundation object: Any) {
        switch object {
        case is NSNull: self = .null
        case let number as NSNumber:
            // JSON booleans arrive as NSNumbers of ObjC type "c" (char), on Linux and Darwin alike.
            if String(cString: number.objCType) == "c" { self = .bool(number.boolValue) } else { self = .number(number.doubleValue) }
        case let string as String: self = .string(string)
        case let array as [Any]:
            var items: [DataValue] = []
            for item in array {
                guard let value = DataValue(foundation: item) else { return nil }
                items.append(value)
            }
            self = .array(items)
        case let dictionary as [String: Any]:
            var members: [String: DataValue] = [:]
            for (key, item) in dictionary {
                guard let value = DataValue(foundation: item) else { return nil }
                members[key] = value
            }
            self = .object(members)
        default: return nil
        }
    }

    /// Compact JSON text, object keys sorted so output is stable.
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n):
            if n.isNaN || n.isInfinite { return "null" }
            return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return Self.quote(s)
        case .array(let items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { Self.quote($0) + ":" + members[$0]!.jsonText }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal for `text` (also a valid ECMAScript 5 string literal).
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Valid JSON either way; escaped so the literal is also an ECMAScript 5 string literal.
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
