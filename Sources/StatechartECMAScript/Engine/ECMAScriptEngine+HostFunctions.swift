import CDuktapeShim
import Statechart

extension ECMAScriptEngine {
    /// Defines the global function `name`, implemented in Swift (the datamodel's `In()`).
    ///
    /// Arguments arrive converted to data (`undefined` as `.null`); an argument that is not
    /// convertible (a function, a cyclic object) makes the call throw a `TypeError` in the
    /// script before `body` runs. The return value goes back to the script. An error thrown by
    /// `body` becomes a JS exception the script can catch: a ``ScriptError`` keeps its name
    /// and message, any other error becomes an `Error` with its description as message.
    /// `body` may call back into the engine. Registering a name again replaces the function.
    ///
    /// ```swift
    /// let active: Set<String> = ["idle"]
    /// try engine.registerFunction("In") { arguments in
    ///     guard case .string(let state)? = arguments.first else {
    ///         throw ScriptError(name: "TypeError", message: "In() expects a state id")
    ///     }
    ///     return .bool(active.contains(state))
    /// }
    /// try engine.evaluateBoolean("In('idle')")    // true
    /// ```
    /// - Throws: ``ScriptError`` (`TypeError`) when `name` is a read-only system variable.
    public func registerFunction(_ name: String, _ body: @escaping ([DataValue]) throws -> DataValue) throws(ScriptError) {
        let existing = hostFunctionIDs[name]
        let id = existing ?? Int32(hostFunctions.count)
        let status = withUTF8(name) { dukshim_register_function(handle, $0, $1, id) }
        try check(status, source: name)
        if existing != nil {
            hostFunctions[Int(id)] = body
        } else {
            hostFunctions.append(body)
            hostFunctionIDs[name] = id
        }
    }

    /// Called by the shim's trampoline when a script calls a host function.
    func callHostFunction(id: Int32, arguments: UnsafeRawBufferPointer) -> Int32 {
        let decoded: DataValue?
        do {
            decoded = try ValueCoding.decode(arguments)
        } catch {
            return reportHostError(name: error.name, message: error.message)
        }
        guard case .array(let values)? = decoded, hostFunctions.indices.contains(Int(id)) else {
            return reportHostError(name: "Error", message: "unknown host function")
        }
        let body = hostFunctions[Int(id)]
        do {
            let result = try body(values)
            return withEncoded(result) { bytes, length in
                dukshim_host_set_result(handle, bytes?.assumingMemoryBound(to: UInt8.self), length)
            }
        } catch let error as ScriptError {
            return reportHostError(name: error.name, message: error.message)
        } catch {
            return reportHostError(name: "Error", message: String(describing: error))
        }
    }

    private func reportHostError(name: String, message: String) -> Int32 {
        _ = dukshim_host_set_error(handle, name, message)
        return DUKSHIM_ERROR
    }
}
