import Statechart

extension DataValue {
    /// How SCXML renders a value where a string is needed (event names, targets, logs).
    package var scxmlString: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return s
        case .array(let items): return items.map(\.scxmlString).joined(separator: ",")
        case .object: return "[object Object]"
        }
    }
}
