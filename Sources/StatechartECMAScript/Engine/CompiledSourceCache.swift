import Synchronization

/// Bytecode of the sources engines compiled (`duk_dump_function`), shared by every engine of the
/// process: the sessions of one document compile each of its expressions once between them and
/// load the bytecode after that, which costs a fraction of compiling. Bytecode is only ever
/// loaded into an engine of this process's Duktape build, never from outside.
///
/// Bounded: past ``byteLimit`` bytes of bytecode it starts over.
///
/// ```swift
/// if let bytecode = CompiledSourceCache.shared[key] { ... load ... }
/// CompiledSourceCache.shared[key] = dumped
/// ```
final class CompiledSourceCache: Sendable {
    struct Key: Hashable, Sendable {
        var kind: Int
        var source: String
        /// An assignment's expression (its `source` is the location); empty otherwise.
        var expression: String
    }

    static let shared = CompiledSourceCache()
    /// Bytecode bytes kept at most (the texts come with them).
    static let byteLimit = 4 << 20

    private struct State {
        var entries: [Key: [UInt8]] = [:]
        var bytes = 0
    }
    private let state = Mutex(State())

    subscript(key: Key) -> [UInt8]? {
        get { state.withLock { $0.entries[key] } }
        set {
            guard let newValue else { return }
            let size = newValue.count + key.source.utf8.count + key.expression.utf8.count
            guard size <= Self.byteLimit else { return }
            state.withLock { state in
                if state.bytes + size > Self.byteLimit { state = State() }
                if state.entries.updateValue(newValue, forKey: key) == nil { state.bytes += size }
            }
        }
    }
}
