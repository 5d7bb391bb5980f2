import CStateCore

/// Interned event names. Every prefix of a name ("a", "a.b" for "a.b.c") is interned before
/// the name itself, so the core matches descriptors by walking ids, never strings.
///
/// Names are found at run time (every `send` of a name) through the package's hash table
/// (`HashIndex`) keyed by their UTF-8 bytes: a name of at most 7 bytes is its own key (its bytes and its
/// length in one word, so one comparison decides), a longer one is keyed by a hash of its bytes
/// and compared byte by byte. No `Hasher`, no allocation. A name found there is byte for byte
/// an interned one. A miss is final only when both the name and every interned name are ASCII
/// (then `String` equality is byte equality); otherwise the lookup falls back to `String`
/// comparison, which follows Unicode canonical equivalence.
struct EventTable: Sendable {
    private(set) var names: [String] = []
    private(set) var prefixes: [UInt32] = []
    private var ids: [String: UInt32] = [:]

    /// The names by key (``key(_:count:)``); an entry is the name's id.
    private var slots = HashIndex()
    /// The UTF-8 bytes of the names longer than 7 bytes, one after another; name `i` starts at
    /// `starts[i]` and ends where name `i + 1` starts (short names take no bytes).
    private var longBytes: [UInt8] = []
    private var starts: [UInt32] = [0]
    /// Whether every interned name is ASCII.
    private var allASCII = true

    /// Tab, line feed, vertical tab, form feed, carriage return, space: the ASCII characters
    /// `Character.isWhitespace` accepts.
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// The id of `name`, interning it and its prefixes.
    @discardableResult
    mutating func intern(_ name: String) -> UInt32 {
        if let id = ids[name] { return id }
        var prefix = UInt32(SC_NONE)
        // In ASCII every byte is a character, so the last "." byte is the last "." character.
        let ascii = name.utf8.allSatisfy({ $0 < 0x80 })
        let dot = ascii ? name.utf8.lastIndex(of: UInt8(ascii: ".")) : name.lastIndex(of: ".")
        if let dot {
            prefix = intern(String(name[..<dot]))
        }
        let id = UInt32(names.count)
        names.append(name)
        prefixes.append(prefix)
        ids[name] = id
        if !ascii { allASCII = false }
        let bytes = Array(name.utf8)
        if bytes.count > Self.shortLength { longBytes.append(contentsOf: bytes) }
        starts.append(UInt32(longBytes.count))
        slots.insert(bytes.withUnsafeBufferPointer { Self.key($0.baseAddress, count: $0.count) }, entry: Int(id))
        return id
    }

    /// The id the core should see for an event named `name`: the name's own id when interned,
    /// else the id of its longest interned prefix (which matches exactly the same descriptors),
    /// else `SC_EVENT_UNKNOWN` (matched by `*` only).
    @inline(__always)
    func lookup(_ name: String) -> (id: UInt32, exact: Bool) {
        if let found = name.utf8.withContiguousStorageIfAvailable({ find($0) }), let found {
            return found
        }
        return lookupByString(name)
    }

    /// Names of at most this many bytes are their own keys.
    private static let shortLength = 7

    /// The key of the name made of `count` bytes at `bytes`: for a short name its bytes (the
    /// first in the low byte) and its length in the top byte; for a long one a hash of its
    /// bytes with `0xFF` in the top byte.
    @inline(__always)
    private static func key(_ bytes: UnsafePointer<UInt8>?, count: Int) -> UInt64 {
        guard let bytes else { return 0 }       // no bytes: the empty name
        let raw = UnsafeRawPointer(bytes)
        if count <= shortLength {
            // At most three loads (4, 2 and 1 bytes), none past the end.
            var word: UInt64 = 0
            var offset = 0
            if count & 4 != 0 {
                word = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
                offset = 4
            }
            if count & 2 != 0 {
                word |= UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
                    &<< UInt64(8 * offset)
                offset += 2
            }
            if count & 1 != 0 {
                word |= UInt64(bytes[offset]) &<< UInt64(8 * offset)
            }
            return word | UInt64(count) &<< 56
        }
        return HashIndex.hash(bytes: UnsafeBufferPointer(start: bytes, count: count)) | 0xFF &<< 56
    }

    /// The id of `name` when the table finds it byte for byte (the common case of ``lookup(_:)``
    /// answering `exact`); `nil` when only ``lookup(_:)`` can tell.
    @inline(__always)
    func exactID(_ name: String) -> UInt32? {
        name.utf8.withContiguousStorageIfAvailable { find($0.baseAddress, count: $0.count) } ?? nil
    }

    /// `lookup` through the table: the answer, or `nil` when only `String` comparison can tell.
    private func find(_ name: UnsafeBufferPointer<UInt8>) -> (id: UInt32, exact: Bool)? {
        if let id = find(name.baseAddress, count: name.count) { return (id, true) }
        return lookupByBytes(name)
    }

    /// The id of the name made of `count` bytes at `bytes`, if it is interned.
    @inline(__always)
    private func find(_ bytes: UnsafePointer<UInt8>?, count: Int) -> UInt32? {
        let key = Self.key(bytes, count: count)
        // A short name's key is the name itself: equal keys decide.
        let entry = slots.find(key) { count <= Self.shortLength || matches($0, bytes!, count: count) }
        return entry.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// Whether long name `id` is the `count` bytes at `bytes`.
    private func matches(_ id: Int, _ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        let start = Int(starts[id])
        guard Int(starts[id + 1]) - start == count else { return false }
        return longBytes.withUnsafeBufferPointer { stored in
            for i in 0..<count where stored[start + i] != bytes[i] { return false }
            return true
        }
    }

    /// A miss of the exact name: when both it and the table are ASCII, the longest interned
    /// prefix before a "." (or unknown); else `nil` (only `String` comparison can tell).
    private func lookupByBytes(_ name: UnsafeBufferPointer<UInt8>) -> (id: UInt32, exact: Bool)? {
        guard allASCII, name.allSatisfy({ $0 < 0x80 }) else { return nil }
        var end = name.count
        while end > 0 {
            end -= 1
            if name[end] == UInt8(ascii: "."), let id = find(name.baseAddress, count: end) {
                return (id, false)
            }
        }
        return (UInt32(SC_EVENT_UNKNOWN), false)
    }

    /// `lookup` by `String` equality (Unicode canonical equivalence).
    private func lookupByString(_ name: String) -> (id: UInt32, exact: Bool) {
        if let id = ids[name] { return (id, true) }
        var rest = Substring(name)
        while let dot = rest.lastIndex(of: ".") {
            rest = rest[..<dot]
            if let id = ids[String(rest)] { return (id, false) }
        }
        return (UInt32(SC_EVENT_UNKNOWN), false)
    }

    /// The descriptor id for an SCXML event descriptor: `*` is any event, `a.*` and `a.` mean `a`.
    mutating func descriptor(_ text: String) -> UInt32? {
        if let id = ids[text], Self.isPlainName(text) { return id }   // the common case: a known name
        var name = Substring(text)
        if name == "*" { return UInt32(SC_EVENT_ANY) }
        if name.hasSuffix(".*") { name = name.dropLast(2) }
        while name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, !name.contains("*"), !name.contains(where: \.isWhitespace) else { return nil }
        return intern(String(name))
    }

    /// Whether `text` is its own descriptor: ASCII, no whitespace, no `*`, not ending in ".".
    private static func isPlainName(_ text: String) -> Bool {
        text.utf8.last != UInt8(ascii: ".")
            && text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "*") && !isASCIIWhitespace($0) }
    }
}
