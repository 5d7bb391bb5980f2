import CDuktapeShim

/// Hooks for tests only: they provoke Duktape's fatal handler on purpose.
extension ECMAScriptEngine {
    /// Calls `duk_fatal` inside an operation; returns the resulting error.
    func triggerFatalErrorForTesting(_ message: String) -> ScriptError {
        _ = dukshim_debug_fatal(handle, message)
        return lastError(source: "")
    }

    /// Throws a JS error outside any protected call (Duktape then calls the fatal handler).
    /// Must not be called from inside a host function.
    func throwUnprotectedForTesting() -> ScriptError {
        _ = dukshim_debug_throw_unprotected(handle)
        return lastError(source: "")
    }
}
