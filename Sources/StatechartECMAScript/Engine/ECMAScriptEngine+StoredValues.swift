import CDuktapeShim
import Statechart

/// Stored values: JS values the host keeps inside the heap under a key, out of the scripts'
/// reach (in a hidden object of Duktape's global stash). They carry values that are not
/// data (functions, `Date`s, objects shared by reference) from one place to another, e.g.
/// an event's `data` into `_event.data`, or `<foreach>`'s array copy into its items.
extension ECMAScriptEngine {
    /// Keeps a data value under `key` (replacing any previous one).
    ///
    /// ```swift
    /// try engine.store(.object(["name": .string("go")]), as: "event")
    /// ```
    public func store(_ value: DataValue, as key: String) throws(ScriptError) {
        let status = withUTF8(key) { key, keyLength in
            withEncoded(value) { dukshim_store(handle, key, keyLength, DUKSHIM_VALUE_DATA, $0, $1, -1) }
        }
        try check(status, source: key)
    }

    /// Evaluates `expression` and keeps its value, whatever it is, under `key`.
    ///
    /// ```swift
    /// try engine.store(evaluating: "function () { return 42; }", as: "answer")
    /// ```
    public func store(evaluating expression: String, as key: String) throws(ScriptError) {
        let status = withUTF8(key) { key, keyLength in
            withUTF8(expression) { dukshim_store(handle, key, keyLength, DUKSHIM_VALUE_EXPRESSION, $0, $1, -1) }
        }
        try check(status, source: expression)
    }

    /// The value stored under `key`, converted to data (see ``evaluate(_:)`` for the rules).
    ///
    /// ```swift
    /// try engine.storedValue("event")              // .object(["name": .string("go")])
    /// ```
    /// - Throws: ``ScriptError`` (`ReferenceError`) when nothing is stored under `key`,
    ///   (`TypeError`) when the value is not convertible.
    public func storedValue(_ key: String) throws(ScriptError) -> DataValue {
        let status = withUTF8(key) { dukshim_stored_value(handle, $0, $1) }
        try check(status, source: key)
        return try decodedResult(source: key) ?? .null
    }

    /// Whether a value is stored under `key`.
    ///
    /// ```swift
    /// engine.hasStoredValue("event")               // true
    /// ```
    public func hasStoredValue(_ key: String) -> Bool {
        var exists: Int32 = 0
        _ = withUTF8(key) { dukshim_has_stored(handle, $0, $1, &exists) }
        return exists != 0
    }

    /// Forgets the value stored under `key` (no effect when there is none).
    ///
    /// ```swift
    /// try engine.removeStoredValue("event")
    /// ```
    public func removeStoredValue(_ key: String) throws(ScriptError) {
        let status = withUTF8(key) { dukshim_remove_stored(handle, $0, $1) }
        try check(status, source: key)
    }

    /// Sets `member` of the object stored under `key` to the value stored under `valueKey`
    /// (by reference, nothing is converted).
    ///
    /// ```swift
    /// try engine.setStoredMember("data", of: "event", toStoredValue: "payload")
    /// ```
    /// - Throws: ``ScriptError`` when either value is missing or `key`'s value is not an object.
    public func setStoredMember(_ member: String, of key: String, toStoredValue valueKey: String) throws(ScriptError) {
        let status = withUTF8(key) { key, keyLength in
            withUTF8(member) { member, memberLength in
                withUTF8(valueKey) { dukshim_set_stored_member(handle, key, keyLength, member, memberLength, $0, $1) }
            }
        }
        try check(status, source: key)
    }

    /// Declares the global variable `name` holding the value stored under `key`.
    ///
    /// ```swift
    /// try engine.declare("answer", storedValue: "answer")
    /// ```
    public func declare(_ name: String, storedValue key: String) throws(ScriptError) {
        let status = withUTF8(name) { name, nameLength in
            withUTF8(key) { dukshim_declare(handle, name, nameLength, DUKSHIM_VALUE_STORED, $0, $1, -1) }
        }
        try check(status, source: name)
    }

    /// Assigns the value stored under `key` (or its element `element`, for arrays such as a
    /// ``storeForeachCopy(of:as:)`` copy) to `location`, with the checks of
    /// ``assign(location:expression:)``.
    ///
    /// ```swift
    /// try engine.assign(location: "item", storedValue: "items", element: 0)
    /// ```
    public func assign(location: String, storedValue key: String, element: Int? = nil) throws(ScriptError) {
        let index = Int64(element ?? -1)
        if let element, element < 0 {
            throw ScriptError(name: "RangeError", message: "element \(element) out of range", expression: location)
        }
        let target = try compiled(location, as: .location)
        let status = withUTF8(key) { dukshim_assign(handle, target, DUKSHIM_VALUE_STORED, $0, $1, index) }
        try check(status, source: location)
    }
}
