/// A JSON-like value: the payload SCXML events carry between sessions, datamodels and the host.
///
/// ```swift
/// let data: DataValue = .object(["x": .number(1), "tags": .array([.string("a")])])
/// if case .number(let x)? = data["x"] { print(x) }   // 1.0
/// ```
public enum DataValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DataValue])
    case object([String: DataValue])

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> DataValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}
