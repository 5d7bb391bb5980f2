import CDuktapeShim
import Statechart

extension ECMAScriptEngine {
    /// Declares (or redeclares) the global variable `name`, as `<data id="name">` does.
    ///
    /// ```swift
    /// try engine.declare("user", value: .object(["name": .string("Ada")]))
    /// try engine.evaluate("user.name")             // .string("Ada")
    /// ```
    /// - Throws: ``ScriptError`` (`TypeError`) when `name` is a read-only system variable or a
    ///   non-writable built-in such as `undefined`.
    public func declare(_ name: String, value: DataValue = .null) throws(ScriptError) {
        let status = withUTF8(name) { name, nameLength in
            withEncoded(value) { dukshim_declare(handle, name, nameLength, DUKSHIM_VALUE_DATA, $0, $1, -1) }
        }
        try check(status, source: name)
    }

    /// Declares the global variable `name` with the value of `expression`, which may be any
    /// JS value (a function, a `Date`, ...), as `<data id="name" expr="...">` does.
    ///
    /// ```swift
    /// try engine.declare("square", expression: "function (x) { return x * x; }")
    /// try engine.evaluate("square(4)")             // .number(16)
    /// ```
    public func declare(_ name: String, expression: String) throws(ScriptError) {
        // Not kept compiled: a variable is initialised once per session, often from a large literal.
        let status = withUTF8(name) { name, nameLength in
            withUTF8(expression) { dukshim_declare(handle, name, nameLength, DUKSHIM_VALUE_EXPRESSION, $0, $1, -1) }
        }
        try check(status, source: expression)
    }

    /// Assigns the value of `expression` to `location` (`<assign location expr>`).
    ///
    /// The assignment is performed in strict mode, so an undeclared location is a
    /// `ReferenceError` (SCXML: `error.execution`) instead of creating a global, and
    /// read-only system variables or frozen members raise a `TypeError`.
    ///
    /// ```swift
    /// try engine.declare("x", value: .number(1))
    /// try engine.assign(location: "x", expression: "x * 10")
    /// try engine.assign(location: "nope", expression: "1")   // throws ReferenceError
    /// ```
    public func assign(location: String, expression: String) throws(ScriptError) {
        let assignment = try compiled(location, as: .assignment, expression: expression,
                                      naming: "\(location) = \(expression)")
        try assign(compiled: assignment, naming: "\(location) = \(expression)")
    }

    /// Runs the assignment compiled as `id` (``compiled(_:as:expression:naming:)`` of kind
    /// `.assignment`), whose errors name `naming`.
    func assign(compiled id: Int32, naming: @autoclosure () -> String) throws(ScriptError) {
        try check(dukshim_call_compiled(handle, id, DUKSHIM_RESULT_NONE), source: naming())
    }

    /// Assigns a data value to `location`, with the checks of ``assign(location:expression:)``.
    ///
    /// ```swift
    /// try engine.assign(location: "user.tags", value: .array([.string("admin")]))
    /// ```
    public func assign(location: String, value: DataValue) throws(ScriptError) {
        let target = try compiled(location, as: .location)
        let status = withEncoded(value) { dukshim_assign(handle, target, DUKSHIM_VALUE_DATA, $0, $1, -1) }
        try check(status, source: location)
    }

    /// Whether `location` can be read: evaluating it throws no error. An identifier is
    /// declared once it is a global variable (even one holding `undefined`); `a.b` is valid
    /// when `a` is an object, whether or not it has a member `b` yet.
    ///
    /// ```swift
    /// engine.isDeclared("x")                       // false
    /// try engine.declare("x")
    /// engine.isDeclared("x")                       // true
    /// ```
    /// - Note: The location is evaluated, so it should have no side effects.
    public func isDeclared(_ location: String) -> Bool {
        (try? call(location, as: .expression, result: DUKSHIM_RESULT_NONE)) != nil
    }

    /// The value at `location` (an identifier or member expression) converted to data.
    ///
    /// ```swift
    /// try engine.value(of: "user.name")            // .string("Ada")
    /// ```
    /// - Throws: ``ScriptError`` (`ReferenceError`) for undeclared variables, or when the value
    ///   is not convertible (see ``evaluate(_:)``).
    public func value(of location: String) throws(ScriptError) -> DataValue {
        try evaluate(location)
    }
}
