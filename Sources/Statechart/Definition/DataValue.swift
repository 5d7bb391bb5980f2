/// A JSON-like value: the payload SCXML events carry between sessions, datamodels and the host.
///
/// ```swift
/// let data: DataValue = .object(["x": .number(1), "tags": .array([.string("a")])])
/// if case .number(let x)? = data["x"] { print(x) }   // 1.0
/// ```
public enum DataValue: Sendable, Hashable, Codable {
    /// JSON `null`.
    case null
    /// A boolean.
    case bool(Bool)
    /// A number (JSON numbers are doubles).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([DataValue])
    /// An object.
    case object([String: DataValue])

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> DataValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}
