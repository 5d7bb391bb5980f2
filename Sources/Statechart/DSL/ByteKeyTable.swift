/// Maps small, trivially copyable values (payload-free enums, typically) to `UInt32` values by
/// their bytes: typed events to interned event ids for the send path, typed states to state
/// indices for `isActive` in guards. The replacement for hashing, with no allocation and no
/// string work.
///
/// A value of at most one byte indexes a 256-entry array directly; values of two to eight
/// bytes go through the package's hash table (`HashIndex`), keyed by the value's bytes as one
/// word (so equal words decide). Only values the chart registered are present; a miss (`UInt32.max`)
/// sends the caller down the general path, which is always correct. Equal bytes imply equal
/// values for the trivially copyable types the table accepts, so a hit is never wrong.
@usableFromInline
struct ByteKeyTable: Sendable {
    /// Bytes of the key type, or -1 when the table is disabled.
    @usableFromInline let keySize: Int
    /// keySize <= 1: id by byte value.
    @usableFromInline let direct: [UInt32]
    /// keySize > 1: the values' bytes; an entry is a position in `ids`.
    @usableFromInline let index: HashIndex
    @usableFromInline let ids: [UInt32]

    static let disabled = ByteKeyTable(keySize: -1, direct: [], index: HashIndex(), ids: [])

    private init(keySize: Int, direct: [UInt32], index: HashIndex, ids: [UInt32]) {
        self.keySize = keySize
        self.direct = direct
        self.index = index
        self.ids = ids
    }

    /// A table of `entries` keyed by the bytes of `Key`, or ``disabled`` when `Key` is not
    /// trivially copyable or is larger than eight bytes. Values must not be `UInt32.max`.
    init<Key>(_ entries: [(key: Key, id: UInt32)], of keyType: Key.Type) {
        guard _isPOD(Key.self), MemoryLayout<Key>.size <= 8 else {
            self = .disabled
            return
        }
        let size = MemoryLayout<Key>.size
        let raw = entries.map { (Self.bytes(of: $0.key), $0.id) }
        if size <= 1 {
            var direct = [UInt32](repeating: .max, count: 256)
            for (key, id) in raw { direct[Int(key)] = id }
            self.init(keySize: size, direct: direct, index: HashIndex(), ids: [])
            return
        }
        var index = HashIndex(capacity: raw.count)
        var ids: [UInt32] = []
        for (key, id) in raw {
            if let known = index.find(key, where: { _ in true }) {
                ids[known] = id     // the last registration of a value wins
            } else {
                index.insert(key, entry: ids.count)
                ids.append(id)
            }
        }
        self.init(keySize: size, direct: [], index: index, ids: ids)
    }

    @inlinable @inline(__always)
    static func bytes<Key>(of value: Key) -> UInt64 {
        // A one-byte key (a payload-free enum of up to 256 cases, in code specialized for it)
        // is its byte: no copy through memory, which kept a stack slot and its protector.
        if MemoryLayout<Key>.size == 1 { return UInt64(unsafeBitCast(value, to: UInt8.self)) }
        if MemoryLayout<Key>.size == 0 { return 0 }
        var key: UInt64 = 0
        withUnsafeBytes(of: value) { source in
            withUnsafeMutableBytes(of: &key) { $0.copyMemory(from: source) }
        }
        return UInt64(littleEndian: key)     // the first byte is the low byte on every platform
    }

    /// Whether the table can look keys up at all.
    @inlinable var isEnabled: Bool { keySize >= 0 }

    /// The id registered for `value`, or `UInt32.max`. `Key` must be the type the table was
    /// built for.
    @inlinable @inline(__always)
    func id<Key>(for value: Key) -> UInt32 {
        // A table is direct exactly when its key type is trivially copyable and at most one
        // byte (`init`): known where this is specialized, so the send of a payload-free enum
        // tests nothing before its load (it tested `keySize`, a load and a branch per send).
        if Self.isDirect(Key.self) { return directID(for: value) }
        guard keySize >= 0 else { return .max }
        // Inline too: a call taking the table would copy it (56 bytes) to memory on every send.
        guard let entry = index.find(Self.bytes(of: value), where: { _ in true }) else { return .max }
        return ids[entry]
    }

    /// Whether a table of keys of type `Key` is direct: keys of at most one byte, trivially
    /// copyable, looked up by ``directID(for:)``. From the type alone, so that code specialized
    /// for it keeps one path.
    @inlinable @inline(__always)
    static func isDirect<Key>(_ keyType: Key.Type) -> Bool {
        MemoryLayout<Key>.size <= 1 && _isPOD(Key.self)
    }

    /// ``id(for:)`` when ``isDirect(_:)``: one load from the 256-entry array, no bounds check (a
    /// key of at most one byte is below 256).
    @inlinable @inline(__always)
    func directID<Key>(for value: Key) -> UInt32 {
        direct.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped[Int(truncatingIfNeeded: Self.bytes(of: value))] }
    }
}
