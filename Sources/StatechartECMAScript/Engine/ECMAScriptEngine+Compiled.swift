import CDuktapeShim
import Statechart

/// Sources compiled once: the first evaluation of an expression, script or assignment location
/// compiles it into a function the engine keeps (`dukshim_compile`), or loads the bytecode
/// another engine of the process compiled from the same text (``CompiledSourceCache``); every
/// later one calls that function by its id, so a document's conditions and executable content parse no source text
/// after their first use. Errors name the source text as before (``ScriptError/expression``), and
/// a syntax error is reported by each use (nothing is kept for it).
extension ECMAScriptEngine {
    /// How many sources an engine keeps compiled. A document has a fixed set of
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
        let key = CompiledSourceKey(kind: kind.rawValue, source: source)
        if let id = compiledSources[key] { return id }
        try reserveCompiledRoom(1)
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
        compiledSources[key] = id
        return id
    }

    /// Makes room for `count` more compiled sources, forgetting them all when the table is full.
    /// Ids obtained earlier are invalid after that: an operation that uses several ids reserves
    /// room for all of them first, so obtaining the later ones cannot invalidate the earlier.
    func reserveCompiledRoom(_ count: Int) throws(ScriptError) {
        guard compiledSources.count + count > Self.compiledSourceLimit else { return }
        try check(dukshim_forget_compiled(handle), source: "")
        compiledSources = [:]
    }

    /// Calls the compiled `source` (an expression or a script), leaving its result as `result`.
    func call(_ source: String, as kind: SourceKind, result: Int32) throws(ScriptError) {
        let id = try compiled(source, as: kind)
        try check(dukshim_call_compiled(handle, id, result), source: source)
    }
}

/// A compiled source's key: its kind and text, hashed once with FNV-1a over the UTF-8 bytes, so a
/// lookup feeds `Hasher` one integer instead of the whole text (the text is compared only on a
/// hash match, which is immediate for the document's own string).
struct CompiledSourceKey: Hashable {
    let kind: Int
    let source: String
    let textHash: UInt64

    init(kind: Int, source: String) {
        self.kind = kind
        self.source = source
        var source = source
        textHash = source.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
    }

    static func == (lhs: CompiledSourceKey, rhs: CompiledSourceKey) -> Bool {
        lhs.textHash == rhs.textHash && lhs.kind == rhs.kind && lhs.source == rhs.source
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(textHash)
        hasher.combine(kind)
    }
}
