import CDuktapeShim
import Statechart

extension ECMAScriptEngine {
    /// Parses JSON text with the engine's `JSON.parse`, for `<data>` and `<content>` bodies
    /// (SCXML B.2.2); `nil` when `text` is not valid JSON.
    ///
    /// ```swift
    /// engine.parseJSON(#"{"a": [1, true, null]}"#)  // .object(["a": .array([.number(1), .bool(true), .null])])
    /// engine.parseJSON("not json")                   // nil
    /// ```
    public func parseJSON(_ text: String) -> DataValue? {
        let status = withUTF8(text) { dukshim_parse_json(handle, $0, $1) }
        guard status == DUKSHIM_OK else { return nil }
        return try? decodedResult(source: text) ?? .null
    }
}
