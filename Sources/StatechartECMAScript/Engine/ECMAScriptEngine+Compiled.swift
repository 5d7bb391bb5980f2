import CDuktapeShim
import Statechart

/// Sources compiled once: the first evaluation of an expression, script or assignment location
/// compiles it into a function the engine keeps (`dukshim_compile`), or loads the bytecode
/// another engine of the process compiled from the same text (``CompiledSourceCache``); every
/// later one calls that function by its id, so a document's conditions and executable content parse no source text
/// after their first use. Errors name the source text as before (``ScriptError/expression``), and
/// a syntax error is reported by each use (nothing is kept for it).
extension ECMAScriptEngine {
    /// How many sources of each kind an engine keeps compiled. A document has a fixed set of
    /// expressions; past this many (texts built at run time by a host calling ``evaluate(_:)``
    /// with ever new text) the table starts over, so it stays bounded.
    static let compiledSourceLimit = 4_096

    /// What a source text is compiled as.
    enum SourceKind: Int {
        case expression, script, location

        var shimKind: Int32 {
            switch self {
            case .expression: DUKSHIM_SOURCE_EXPRESSION
            case .script: DUKSHIM_SOURCE_SCRIPT
            case .location: DUKSHIM_SOURCE_LOCATION
            }
        }
    }

    /// The id of `source` compiled as `kind`, compiled now if this is its first use; a syntax
    /// error names `naming` (by default the source).
    func compiled(_ source: String, as kind: SourceKind,
                  naming: @autoclosure () -> String? = nil) throws(ScriptError) -> Int32 {
        if let id = compiledSources[kind.rawValue][source] { return id }
        if compiledSourceCount >= Self.compiledSourceLimit {
            try check(dukshim_forget_compiled(handle), source: source)
            compiledSources = [[:], [:], [:]]
            compiledSourceCount = 0
        }
        var id: Int32 = -1
        let shared = CompiledSourceCache.Key(kind: kind.rawValue, source: source)
        if let bytecode = CompiledSourceCache.shared[shared],
           bytecode.withUnsafeBufferPointer({ dukshim_load_compiled(handle, $0.baseAddress, $0.count, &id) }) == DUKSHIM_OK {
            // Loaded: compiled by another engine (a session of the same document, most likely).
        } else {
            let status = withUTF8(source) { dukshim_compile(handle, $0, $1, kind.shimKind, &id) }
            if status != DUKSHIM_OK { throw lastError(source: naming() ?? source) }
            if dukshim_dump_compiled(handle, id) == DUKSHIM_OK {
                var length = 0
                let bytes = dukshim_result(handle, &length)
                CompiledSourceCache.shared[shared] = Array(UnsafeBufferPointer(start: bytes, count: length))
            }
        }
        compiledSources[kind.rawValue][source] = id
        compiledSourceCount += 1
        return id
    }

    /// Calls the compiled `source` (an expression or a script), leaving its result as `result`.
    func call(_ source: String, as kind: SourceKind, result: Int32) throws(ScriptError) {
        let id = try compiled(source, as: kind)
        try check(dukshim_call_compiled(handle, id, result), source: source)
    }
}
