import CDuktapeShim
import Statechart

/// One ECMAScript (ES5.1 with parts of ES2015) interpreter: a Duktape heap with its own global
/// object, used by the SCXML ECMAScript datamodel (W3C SCXML, appendix B.2).
///
/// ```swift
/// let engine = try ECMAScriptEngine()
/// try engine.declare("count", value: .number(1))
/// try engine.assign(location: "count", expression: "count + 1")
/// try engine.evaluateBoolean("count === 2")              // true
/// try engine.setReadOnly("_sessionid", value: .string("s1"))
/// try engine.registerFunction("In") { args in .bool(args.first == .string("idle")) }
/// try engine.evaluate("In('idle') ? 'yes' : 'no'")      // .string("yes")
/// ```
///
/// ## Threading
///
/// An engine is **not thread-safe**: a Duktape heap must only be used by one thread at a
/// time, and scripts share global state. Create one engine per state machine session and
/// confine it to the machine's serial execution context (its actor or serial queue). The type
/// is deliberately not `Sendable`, so the compiler enforces that confinement; an engine that
/// was just created (or is otherwise disconnected) can still be handed over with `sending`.
///
/// Calls are re-entrant on the owning thread: a host function (``registerFunction(_:_:)``)
/// may call back into the engine that invoked it.
///
/// ## Safety
///
/// No script can crash the process: every operation runs in a Duktape protected call, and
/// script errors surface as ``ScriptError``. Duktape's fatal handler is installed as a last
/// resort; if it ever runs, the operation fails with a ``ScriptError/isFatal`` error and
/// the engine refuses every later call (``hasFailedFatally``). Runaway allocation is stopped
/// by ``memoryLimit`` (Duktape then throws `Error: alloc failed`, after a garbage collection).
///
/// - Important: Runaway *loops* cannot be interrupted. Debian's Duktape 2.7 (`duktape-dev`)
///   is built without `DUK_USE_EXEC_TIMEOUT_CHECK` (see `/usr/include/duk_config.h`), the
///   only hook Duktape offers to abort running bytecode, and the option is compiled into
///   `libduktape.so`. `while (true) {}` therefore blocks the calling thread forever. A timeout
///   needs a Duktape build with that option (then: an interrupt check in the shim).
public final class ECMAScriptEngine {
    /// The default heap limit: 256 MiB of script data.
    ///
    /// ```swift
    /// let roomy = try ECMAScriptEngine(memoryLimit: 4 * ECMAScriptEngine.defaultMemoryLimit)
    /// ```
    public static let defaultMemoryLimit = 256 * 1024 * 1024

    /// The heap limit in bytes given at creation (0: unlimited).
    ///
    /// ```swift
    /// try ECMAScriptEngine(memoryLimit: 1 << 20).memoryLimit   // 1048576
    /// ```
    public let memoryLimit: Int

    let handle: OpaquePointer
    var hostFunctions: [([DataValue]) throws -> DataValue] = []
    var hostFunctionIDs: [String: Int32] = [:]
    var foreachDepth = 0

    /// Creates a heap with the standard built-ins and no variables.
    ///
    /// ```swift
    /// let engine = try ECMAScriptEngine(memoryLimit: 16 << 20)
    /// ```
    /// - Parameter memoryLimit: bytes the heap may allocate (0: unlimited). Beyond it, scripts
    ///   fail with `Error: alloc failed`.
    /// - Throws: ``ScriptError`` if the heap cannot be created.
    public init(memoryLimit: Int = ECMAScriptEngine.defaultMemoryLimit) throws(ScriptError) {
        guard let handle = sc_duk_engine_create(max(0, memoryLimit)) else {
            throw ScriptError(name: "Error", message: "could not create a Duktape heap")
        }
        self.handle = handle
        self.memoryLimit = max(0, memoryLimit)
        // Unretained: the heap (and so every call coming back) never outlives `self`.
        sc_duk_engine_set_host(handle, Unmanaged.passUnretained(self).toOpaque()) { context, _, id, arguments, length in
            guard let context else { return SC_DUK_ERROR }
            let engine = Unmanaged<ECMAScriptEngine>.fromOpaque(context).takeUnretainedValue()
            return engine.callHostFunction(id: id, arguments: UnsafeRawBufferPointer(start: arguments, count: length))
        }
    }

    deinit {
        sc_duk_engine_destroy(handle)
    }

    /// `true` once Duktape's fatal handler ran; every call then throws a fatal ``ScriptError``.
    /// Discard the engine then (and, in SCXML terms, end the session).
    ///
    /// ```swift
    /// if engine.hasFailedFatally { engine = try ECMAScriptEngine() }
    /// ```
    public var hasFailedFatally: Bool {
        sc_duk_engine_is_poisoned(handle) != 0
    }

    /// Bytes currently allocated by the heap (about 100 KB for a fresh engine).
    ///
    /// ```swift
    /// print(engine.memoryInUse, "of", engine.memoryLimit)
    /// ```
    public var memoryInUse: Int {
        sc_duk_engine_memory_in_use(handle)
    }

    /// Runs a full garbage collection (Duktape also frees most garbage immediately, by
    /// reference counting).
    ///
    /// ```swift
    /// try engine.collectGarbage()
    /// ```
    public func collectGarbage() throws(ScriptError) {
        try check(sc_duk_collect_garbage(handle), source: "")
    }

    // MARK: - Plumbing shared by the extensions

    /// Throws the engine's last error unless `status` is success.
    func check(_ status: Int32, source: String) throws(ScriptError) {
        guard status != SC_DUK_OK else { return }
        throw lastError(source: source)
    }

    func lastError(source: String) -> ScriptError {
        let line = sc_duk_error_line(handle)
        return ScriptError(
            name: String(cString: sc_duk_error_name(handle)),
            message: String(cString: sc_duk_error_message(handle)),
            expression: source,
            line: line >= 0 ? Int(line) : nil
        )
    }

    /// Decodes the last operation's result; `nil` means `undefined`.
    func decodedResult(source: String) throws(ScriptError) -> DataValue? {
        var length = 0
        let bytes = sc_duk_result(handle, &length)
        do {
            return try ValueCoding.decode(UnsafeRawBufferPointer(start: bytes, count: length))
        } catch {
            var error = error
            error.expression = source
            throw error
        }
    }
}

/// Runs `body` with the UTF-8 bytes of `string` (a pointer that may be `nil` when empty).
func withUTF8<Result>(_ string: String, _ body: (UnsafePointer<CChar>?, Int) -> Result) -> Result {
    var string = string
    return string.withUTF8 { buffer in
        buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress, $0.count) }
    }
}

/// Runs `body` with the encoded bytes of `value`.
func withEncoded<Result>(_ value: DataValue, _ body: (UnsafeRawPointer?, Int) -> Result) -> Result {
    let bytes = ValueCoding.encode(value)
    return bytes.withUnsafeBytes { body($0.baseAddress, $0.count) }
}
