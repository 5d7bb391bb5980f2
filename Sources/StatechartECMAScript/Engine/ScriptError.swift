/// An ECMAScript error raised while evaluating, executing or assigning, with the script's own
/// error name and message and the source text that failed.
///
/// The SCXML ECMAScript datamodel turns every `ScriptError` into `error.execution`.
///
/// ```swift
/// do {
///     _ = try engine.evaluate("x + 1")
/// } catch {
///     print(error.name)         // "ReferenceError"
///     print(error.message)      // "identifier 'x' undefined"
///     print(error.expression)   // "x + 1"
/// }
/// ```
public struct ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JS error's `name`: `"SyntaxError"`, `"ReferenceError"`, `"TypeError"`, `"RangeError"`,
    /// `"Error"` or a custom name; empty when a script threw something that is not an error
    /// object (`throw "boom"`); `"FatalError"` when the engine became unusable.
    public var name: String
    /// The JS error's `message` (for a thrown non-error value: its string form).
    public var message: String
    /// The expression, script, location or JSON text that failed.
    public var expression: String
    /// The line of the error within `expression`, when Duktape reports one.
    public var line: Int?

    /// Creates an error; host functions may throw one to choose the JS error's name.
    ///
    /// ```swift
    /// throw ScriptError(name: "TypeError", message: "In() expects a state id")
    /// ```
    public init(name: String, message: String, expression: String = "", line: Int? = nil) {
        self.name = name
        self.message = message
        self.expression = expression
        self.line = line
    }

    /// The name of errors reporting that Duktape's fatal handler ran (see ``isFatal``).
    public static let fatalErrorName = "FatalError"

    /// `true` when the engine hit a fatal error; every later call on it fails the same way.
    public var isFatal: Bool { name == Self.fatalErrorName }

    /// `"ReferenceError: identifier 'x' undefined"`, followed by the failing source.
    public var description: String {
        let head = name.isEmpty ? message : "\(name): \(message)"
        return expression.isEmpty ? head : "\(head) (in `\(expression)`)"
    }
}
