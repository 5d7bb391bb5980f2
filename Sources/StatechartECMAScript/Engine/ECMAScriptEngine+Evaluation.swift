import CDuktapeShim
import Statechart

extension ECMAScriptEngine {
    /// Evaluates one expression (an SCXML `expr` or `cond`) and converts the result to data.
    ///
    /// `undefined` becomes `.null` (use ``evaluateOptional(_:)`` to tell them apart); nested
    /// `undefined`s become `.null` in arrays and are omitted from objects, as in JSON. `NaN`
    /// and the infinities are kept. Functions, symbols and cyclic structures cannot be
    /// converted and throw a `TypeError` (keep such values in the heap with
    /// ``store(evaluating:as:)``).
    ///
    /// ```swift
    /// try engine.evaluate("1 + 2")                 // .number(3)
    /// try engine.evaluate("{a: [1, 'x']}")         // .object(["a": .array([.number(1), .string("x")])])
    /// ```
    /// - Throws: ``ScriptError`` for syntax errors, exceptions and unconvertible results.
    public func evaluate(_ expression: String) throws(ScriptError) -> DataValue {
        try evaluateOptional(expression) ?? .null
    }

    /// Evaluates one expression like ``evaluate(_:)``, returning `nil` when its value is
    /// `undefined`.
    ///
    /// ```swift
    /// try engine.evaluateOptional("void 0")        // nil
    /// try engine.evaluateOptional("null")          // .null
    /// ```
    public func evaluateOptional(_ expression: String) throws(ScriptError) -> DataValue? {
        try call(expression, as: .expression, result: DUKSHIM_RESULT_DATA)
        return try decodedResult(source: expression)
    }

    /// Evaluates one expression and applies JS truthiness (ToBoolean), as SCXML `cond` needs.
    ///
    /// ```swift
    /// try engine.evaluateBoolean("''")             // false
    /// try engine.evaluateBoolean("[]")             // true
    /// ```
    public func evaluateBoolean(_ expression: String) throws(ScriptError) -> Bool {
        try evaluateBoolean(compiled: compiled(expression, as: .expression), source: expression)
    }

    /// ``evaluateBoolean(_:)`` of the expression compiled as `id` (``compiled(_:as:expression:naming:)``),
    /// whose errors name `source`.
    func evaluateBoolean(compiled id: Int32, source: @autoclosure () -> String) throws(ScriptError) -> Bool {
        try check(dukshim_call_compiled(handle, id, DUKSHIM_RESULT_BOOLEAN), source: source())
        var length = 0
        let bytes = dukshim_result(handle, &length)
        return length == 1 && bytes?.pointee == UInt8(ascii: "t")
    }

    /// Evaluates one expression and converts the result with JS ToString (for `<log>`).
    ///
    /// ```swift
    /// try engine.evaluateString("[1, 2]")          // "1,2"
    /// try engine.evaluateString("undefined")       // "undefined"
    /// ```
    public func evaluateString(_ expression: String) throws(ScriptError) -> String {
        try call(expression, as: .expression, result: DUKSHIM_RESULT_STRING)
        guard case .string(let string)? = try decodedResult(source: expression) else {
            throw ScriptError(name: "InternalError", message: "string conversion produced no string", expression: expression)
        }
        return string
    }

    /// Executes a program (statements, such as a `<script>` body) as global code: its `var`
    /// and function declarations become global variables.
    ///
    /// ```swift
    /// try engine.execute(script: "var total = 0; for (var i = 1; i <= 3; i++) total += i;")
    /// try engine.evaluate("total")                 // .number(6)
    /// ```
    public func execute(script: String) throws(ScriptError) {
        try call(script, as: .script, result: DUKSHIM_RESULT_NONE)
    }

    /// Compiles an expression without running it, reporting syntax errors early.
    ///
    /// ```swift
    /// try engine.checkSyntax(expression: "a +")    // throws SyntaxError
    /// ```
    public func checkSyntax(expression: String) throws(ScriptError) {
        try run(expression, kind: DUKSHIM_SOURCE_EXPRESSION, result: DUKSHIM_RESULT_NONE, compileOnly: true)
    }

    /// Compiles a script without running it, reporting syntax errors early.
    ///
    /// ```swift
    /// try engine.checkSyntax(script: "var x = ;")  // throws SyntaxError
    /// ```
    public func checkSyntax(script: String) throws(ScriptError) {
        try run(script, kind: DUKSHIM_SOURCE_SCRIPT, result: DUKSHIM_RESULT_NONE, compileOnly: true)
    }

    /// Runs a script once without keeping it compiled (the engine's own set-up code).
    func executeOnce(script: String) throws(ScriptError) {
        try run(script, kind: DUKSHIM_SOURCE_SCRIPT, result: DUKSHIM_RESULT_NONE)
    }

    func run(_ source: String, kind: Int32, result: Int32, compileOnly: Bool = false) throws(ScriptError) {
        let status = withUTF8(source) { dukshim_eval(handle, $0, $1, kind, result, compileOnly ? 1 : 0) }
        try check(status, source: source)
    }
}
