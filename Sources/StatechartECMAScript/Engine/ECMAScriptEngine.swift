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
/// the engine refuses every later call (``hasFailedFatally``).
///
/// ## Limits
///
/// - **Time**: each operation (an evaluation, a script, an assignment, ...) stops after
///   ``timeLimit`` with `RangeError: execution timeout: ...`, also inside `try`/`catch`
///   (the error cannot be caught), `eval`, callbacks of built-ins and finalizers. The engine
///   stays usable. This works because the project links a Duktape built by
///   `scripts/build-duktape.sh` from Debian's source package with `DUK_USE_EXEC_TIMEOUT_CHECK`
///   (Debian's own `libduktape` cannot stop running bytecode); Duktape checks the clock every
///   256K bytecode instructions, and the build adds checks to built-ins that loop in C
///   (regular expression backtracking, property reads of `sort`, `indexOf`, ...). Built-ins
///   that do neither (`JSON.stringify`, `join`) end when they return: they are linear in the
///   data the memory limit allows.
/// - **Memory**: the heap's blocks (payload and bookkeeping) count against a
///   ``ECMAScriptMemoryBudget``, which several engines may share (the ECMAScript datamodel shares
///   one per SCXML document tree). An allocation past it is refused; Duktape collects garbage,
///   then throws `Error: alloc failed: ...` inside the running script.
///
/// ```swift
/// let engine = try ECMAScriptEngine(memoryLimit: 16 << 20, timeLimit: .milliseconds(100))
/// try engine.execute(script: "while (true) {}")   // throws RangeError after 100 ms
/// ```
public final class ECMAScriptEngine {
    /// The default heap limit: 256 MiB.
    ///
    /// ```swift
    /// let roomy = try ECMAScriptEngine(memoryLimit: 4 * ECMAScriptEngine.defaultMemoryLimit)
    /// ```
    public static let defaultMemoryLimit = 256 * 1024 * 1024

    /// The default time limit of one operation: 1 second.
    ///
    /// ```swift
    /// let patient = try ECMAScriptEngine(timeLimit: ECMAScriptEngine.defaultTimeLimit * 10)
    /// ```
    public static let defaultTimeLimit = Duration.seconds(1)

    /// The byte limit of the engine's memory budget (0: unlimited), shared with the other
    /// engines of the same budget.
    ///
    /// ```swift
    /// try ECMAScriptEngine(memoryLimit: 1 << 20).memoryLimit   // 1048576
    /// ```
    public var memoryLimit: Int { memoryBudget.limit }

    /// The budget this engine's heap counts against.
    ///
    /// ```swift
    /// let shared = engine.memoryBudget                          // for another engine
    /// let sibling = try ECMAScriptEngine(memoryBudget: shared)
    /// ```
    public let memoryBudget: ECMAScriptMemoryBudget

    let handle: OpaquePointer
    var hostFunctions: [([DataValue]) throws -> DataValue] = []
    var hostFunctionIDs: [String: Int32] = [:]
    var foreachDepth = 0
    /// Compiled sources by kind (``SourceKind``) and text: their ids in the engine.
    @exclusivity(unchecked) var compiledSources = CompiledSourceTable()   // the engine is used by one thread at a time
    /// Changes whenever the compiled sources are forgotten (``reserveCompiledRoom(_:)``): ids
    /// kept outside ``compiledSources`` are valid while it has the value they were obtained at.
    @exclusivity(unchecked) var compiledGeneration = 0

    /// Creates a heap with the standard built-ins and no variables, with a budget of its own.
    ///
    /// ```swift
    /// let engine = try ECMAScriptEngine(memoryLimit: 16 << 20, timeLimit: .seconds(2))
    /// ```
    /// - Parameters:
    ///   - memoryLimit: bytes the heap may hold (0: unlimited). Beyond it, scripts fail with
    ///     `Error: alloc failed: ...`.
    ///   - timeLimit: how long one operation may run (`nil`: no limit). Beyond it, scripts fail
    ///     with `RangeError: execution timeout: ...`.
    /// - Throws: ``ScriptError`` if the heap cannot be created.
    public convenience init(memoryLimit: Int = ECMAScriptEngine.defaultMemoryLimit,
                            timeLimit: Duration? = ECMAScriptEngine.defaultTimeLimit) throws(ScriptError) {
        try self.init(memoryBudget: ECMAScriptMemoryBudget(limit: memoryLimit), timeLimit: timeLimit)
    }

    /// Creates a heap that counts against a shared budget.
    ///
    /// ```swift
    /// let budget = ECMAScriptMemoryBudget(limit: 64 << 20)
    /// let a = try ECMAScriptEngine(memoryBudget: budget)
    /// let b = try ECMAScriptEngine(memoryBudget: budget)     // a and b hold 64 MiB at most together
    /// ```
    /// - Throws: ``ScriptError`` if the heap cannot be created (also when the budget has no
    ///   room for a fresh heap, about 100 KB).
    public init(memoryBudget: ECMAScriptMemoryBudget,
                timeLimit: Duration? = ECMAScriptEngine.defaultTimeLimit) throws(ScriptError) {
        guard let handle = dukshim_engine_create(memoryBudget.handle, Self.nanoseconds(timeLimit)) else {
            throw ScriptError(name: "Error", message: memoryBudget.limit > 0 && memoryBudget.inUse > 0
                ? "could not create a Duktape heap (memory budget: \(memoryBudget.inUse) of \(memoryBudget.limit) bytes in use)"
                : "could not create a Duktape heap")
        }
        self.handle = handle
        self.memoryBudget = memoryBudget
        // Unretained: the heap (and so every call coming back) never outlives `self`.
        dukshim_engine_set_host(handle, Unmanaged.passUnretained(self).toOpaque()) { context, _, id, arguments, length in
            guard let context else { return DUKSHIM_ERROR }
            let engine = Unmanaged<ECMAScriptEngine>.fromOpaque(context).takeUnretainedValue()
            return engine.callHostFunction(id: id, arguments: UnsafeRawBufferPointer(start: arguments, count: length))
        }
    }

    /// How long one operation may run before it is stopped with `RangeError: execution
    /// timeout` (`nil`: no limit; precision: milliseconds). Applies from the next operation on.
    ///
    /// ```swift
    /// engine.timeLimit = .milliseconds(50)
    /// try engine.execute(script: "for (;;) {}")            // throws after 50 ms
    /// ```
    public var timeLimit: Duration? {
        get {
            let nanoseconds = dukshim_engine_time_limit(handle)
            return nanoseconds == 0 ? nil : .nanoseconds(Int64(clamping: nanoseconds))
        }
        set { dukshim_engine_set_time_limit(handle, Self.nanoseconds(newValue)) }
    }

    /// `nil` and non-positive durations mean "no limit" (0); at least 1 ns otherwise.
    static func nanoseconds(_ duration: Duration?) -> UInt64 {
        guard let duration, duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return UInt64.max / 2 }
        return max(1, whole &+ UInt64(attoseconds / 1_000_000_000))
    }

    deinit {
        dukshim_engine_destroy(handle)
    }

    /// `true` once Duktape's fatal handler ran; every call then throws a fatal ``ScriptError``.
    /// Discard the engine then (and, in SCXML terms, end the session).
    ///
    /// ```swift
    /// if engine.hasFailedFatally { engine = try ECMAScriptEngine() }
    /// ```
    public var hasFailedFatally: Bool {
        dukshim_engine_is_poisoned(handle) != 0
    }

    /// Bytes currently held by this heap, with the shim's bookkeeping (about 100 KB for a
    /// fresh engine); the budget's ``ECMAScriptMemoryBudget/inUse`` adds up all its engines.
    ///
    /// ```swift
    /// print(engine.memoryInUse, "of", engine.memoryLimit)
    /// ```
    public var memoryInUse: Int {
        dukshim_engine_memory_in_use(handle)
    }

    /// Runs a full garbage collection (Duktape also frees most garbage immediately, by
    /// reference counting).
    ///
    /// ```swift
    /// try engine.collectGarbage()
    /// ```
    public func collectGarbage() throws(ScriptError) {
        try check(dukshim_collect_garbage(handle), source: "")
    }

    // MARK: - Plumbing shared by the extensions

    /// Throws the engine's last error unless `status` is success.
    func check(_ status: Int32, source: @autoclosure () -> String) throws(ScriptError) {
        guard status != DUKSHIM_OK else { return }
        throw lastError(source: source())
    }

    func lastError(source: String) -> ScriptError {
        let line = dukshim_error_line(handle)
        return ScriptError(
            name: String(cString: dukshim_error_name(handle)),
            message: String(cString: dukshim_error_message(handle)),
            expression: source,
            line: line >= 0 ? Int(line) : nil
        )
    }

    /// Decodes the last operation's result; `nil` means `undefined`.
    func decodedResult(source: String) throws(ScriptError) -> DataValue? {
        var length = 0
        let bytes = dukshim_result(handle, &length)
        defer { dukshim_result_trim(handle) }   // no payload-sized buffer kept in the engine
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
