import CDuktapeShim
import Statechart

/// Sources compiled once: the first evaluation of an expression, script, assignment location or
/// whole `<assign>` compiles it into a function the engine keeps (`dukshim_compile`,
/// `dukshim_compile_assignment`), or loads the bytecode another engine of the process compiled
/// from the same text (``CompiledSourceCache``); every later one calls that function by its id,
/// so a document's conditions and executable content parse no source text after their first
/// use. Errors name the source text as before (``ScriptError/expression``), and a syntax error is
/// reported by each use (nothing is kept for it).
extension ECMAScriptEngine {
    /// How many sources an engine keeps compiled. A document has a fixed set of
    /// expressions; past this many (texts built at run time by a host calling ``evaluate(_:)``
    /// with ever new text) the table starts over, so it stays bounded.
    static let compiledSourceLimit = 4_096

    /// What a source text is compiled as.
    enum SourceKind: Int {
        /// An expression; a program (global code); an assignment target taking the value as its
        /// argument; `location = (expression)` as one function (the texts are the pair's).
        case expression, script, location, assignment

        var shimKind: Int32 {
            switch self {
            case .expression: DUKSHIM_SOURCE_EXPRESSION
            case .script: DUKSHIM_SOURCE_SCRIPT
            case .location: DUKSHIM_SOURCE_LOCATION
            case .assignment: DUKSHIM_SOURCE_LOCATION   // not used: dukshim_compile_assignment compiles it
            }
        }
    }

    /// The id of `source` compiled as `kind` (for `.assignment`, `source` is the location and
    /// `expression` the value), compiled now if this is its first use; a syntax error names
    /// `naming` (by default the source).
    func compiled(_ source: String, as kind: SourceKind, expression: String = "",
                  naming: @autoclosure () -> String? = nil) throws(ScriptError) -> Int32 {
        if let id = compiledSources.id(kind, source, expression) { return id }
        try reserveCompiledRoom(1)
        var id: Int32 = -1
        let shared = CompiledSourceCache.Key(kind: kind.rawValue, source: source, expression: expression)
        if let bytecode = CompiledSourceCache.shared[shared],
           bytecode.withUnsafeBufferPointer({ dukshim_load_compiled(handle, $0.baseAddress, $0.count, &id) }) == DUKSHIM_OK {
            // Loaded: compiled by another engine (a session of the same document, most likely).
        } else {
            let status = withUTF8(source) { source, sourceLength in
                if kind == .assignment {
                    return withUTF8(expression) { dukshim_compile_assignment(handle, source, sourceLength, $0, $1, &id) }
                }
                return dukshim_compile(handle, source, sourceLength, kind.shimKind, &id)
            }
            if status != DUKSHIM_OK { throw lastError(source: naming() ?? source) }
            if dukshim_dump_compiled(handle, id) == DUKSHIM_OK {
                var length = 0
                let bytes = dukshim_result(handle, &length)
                CompiledSourceCache.shared[shared] = Array(UnsafeBufferPointer(start: bytes, count: length))
            }
        }
        compiledSources.add(kind, source, expression, id: id)
        return id
    }

    /// Makes room for `count` more compiled sources, forgetting them all when the table is full.
    /// Ids obtained earlier are invalid after that: an operation that uses several ids reserves
    /// room for all of them first, so obtaining the later ones cannot invalidate the earlier.
    func reserveCompiledRoom(_ count: Int) throws(ScriptError) {
        guard compiledSources.count + count > Self.compiledSourceLimit else { return }
        try check(dukshim_forget_compiled(handle), source: "")
        compiledSources = CompiledSourceTable()
        compiledGeneration &+= 1
    }

    /// Calls the compiled `source` (an expression or a script), leaving its result as `result`.
    func call(_ source: String, as kind: SourceKind, result: Int32) throws(ScriptError) {
        let id = try compiled(source, as: kind)
        try check(dukshim_call_compiled(handle, id, result), source: source)
    }
}

/// An engine's compiled sources by kind and text(s), with their ids in the engine: entries in
/// dense arrays found through the package's one hash table (`HashIndex`, hashing the texts'
/// bytes eight at a time), confirmed by `String` equality, which is immediate for the text the
/// document itself holds (the same string every time). A class, so a lookup through the engine's
/// stored property copies nothing.
final class CompiledSourceTable {
    // Unchecked: the table belongs to one engine, which one thread uses at a time.
    @exclusivity(unchecked) private var index = HashIndex()
    @exclusivity(unchecked) private var kinds: [ECMAScriptEngine.SourceKind] = []
    @exclusivity(unchecked) private var sources: [String] = []
    @exclusivity(unchecked) private var expressions: [String] = []
    @exclusivity(unchecked) private var ids: [Int32] = []

    var count: Int { ids.count }

    private static func hash(_ kind: ECMAScriptEngine.SourceKind, _ source: String, _ expression: String) -> UInt64 {
        var hash = HashIndex.hash(source) &+ UInt64(kind.rawValue)
        if !expression.isEmpty { hash = (hash &* 0x9E37_79B9_7F4A_7C15) ^ HashIndex.hash(expression) }
        return hash
    }

    func id(_ kind: ECMAScriptEngine.SourceKind, _ source: String, _ expression: String) -> Int32? {
        index.find(Self.hash(kind, source, expression), where: {
            kinds[$0] == kind && sources[$0] == source && expressions[$0] == expression
        }).map { ids[$0] }
    }

    /// Adds an entry; the caller found none for these texts (``id(_:_:_:)``).
    func add(_ kind: ECMAScriptEngine.SourceKind, _ source: String, _ expression: String, id: Int32) {
        index.insert(Self.hash(kind, source, expression), entry: ids.count)
        kinds.append(kind)
        sources.append(source)
        expressions.append(expression)
        ids.append(id)
    }
}
