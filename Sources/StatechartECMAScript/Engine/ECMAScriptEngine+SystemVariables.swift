import CDuktapeShim
import Statechart

extension ECMAScriptEngine {
    /// Binds the read-only global `name`, for SCXML system variables (`_sessionid`, `_name`,
    /// `_ioprocessors`, `_event`). Calling it again replaces the value (the host may update
    /// `_event` for every event); scripts cannot.
    ///
    /// The variable is an accessor whose setter throws `TypeError`, so an assignment fails in
    /// sloppy and strict code alike (`_event = 1` in a `<script>`, `<assign location="_event">`),
    /// and `var _event` cannot redeclare it. The value is deep-frozen: `_event.name = 'x'`
    /// throws in strict code (`<assign>`) and is ignored in sloppy code.
    ///
    /// ```swift
    /// try engine.setReadOnly("_sessionid", value: .string("s-42"))
    /// try engine.assign(location: "_sessionid", expression: "'hack'")  // throws TypeError
    /// try engine.evaluate("_sessionid")                                // .string("s-42")
    /// ```
    public func setReadOnly(_ name: String, value: DataValue) throws(ScriptError) {
        let status = withUTF8(name) { name, nameLength in
            withEncoded(value) { dukshim_set_readonly(handle, name, nameLength, DUKSHIM_VALUE_DATA, $0, $1, -1) }
        }
        try check(status, source: name)
    }

    /// Binds the read-only global `name` to a value kept with ``store(_:as:)`` or
    /// ``store(evaluating:as:)``, which may hold anything (functions included). The value's own
    /// members are frozen; values nested deeper keep their mutability (so `_event.data`, set
    /// with ``setStoredMember(_:of:toStoredValue:)``, stays exactly what the sender made).
    ///
    /// ```swift
    /// try engine.store(.object(["name": .string("go"), "type": .string("internal")]), as: "event")
    /// try engine.store(evaluating: "({ callback: function () { return 1; } })", as: "payload")
    /// try engine.setStoredMember("data", of: "event", toStoredValue: "payload")
    /// try engine.setReadOnly("_event", storedValue: "event")
    /// try engine.evaluate("_event.data.callback()")                    // .number(1)
    /// ```
    public func setReadOnly(_ name: String, storedValue key: String) throws(ScriptError) {
        let status = withUTF8(name) { name, nameLength in
            withUTF8(key) { dukshim_set_readonly(handle, name, nameLength, DUKSHIM_VALUE_STORED, $0, $1, -1) }
        }
        try check(status, source: name)
    }
}
