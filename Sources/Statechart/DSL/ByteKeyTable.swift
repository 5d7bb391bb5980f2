/// Maps small, trivially copyable values (payload-free enums, typically) to `UInt32` values by
/// their bytes: typed events to interned event ids for the send path, typed states to state
/// indices for `isActive` in guards. The replacement for hashing, with no allocation and no
/// string work.
///
/// A value of at most one byte indexes a 256-entry array directly; values of two to eight
/// bytes go through a small open-addressing table (multiplicative hash, linear probing, load
/// at most one half). Only values the chart registered are present; a miss (`UInt32.max`)
/// sends the caller down the general path, which is always correct. Equal bytes imply equal
/// values for the trivially copyable types the table accepts, so a hit is never wrong.
@usableFromInline
struct ByteKeyTable: Sendable {
    /// Bytes of the key type, or -1 when the table is disabled.
    @usableFromInline let keySize: Int
    /// keySize <= 1: id by byte value.
    @usableFromInline let direct: [UInt32]
    /// keySize > 1: open-addressing slots; `values[i] == UInt32.max` marks an empty slot.
    @usableFromInline let keys: [UInt64]
    @usableFromInline let values: [UInt32]
    @usableFromInline let shift: UInt64

    static let disabled = ByteKeyTable(keySize: -1, direct: [], keys: [], values: [], shift: 0)

    private init(keySize: Int, direct: [UInt32], keys: [UInt64], values: [UInt32], shift: UInt64) {
        self.keySize = keySize
        self.direct = direct
        self.keys = keys
        self.values = values
        self.shift = shift
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
            self.init(keySize: size, direct: direct, keys: [], values: [], shift: 0)
            return
        }
        var bits: UInt64 = 1
        while (1 << bits) < max(2 * raw.count, 2) { bits += 1 }
        let capacity = 1 << Int(bits)
        var keys = [UInt64](repeating: 0, count: capacity)
        var values = [UInt32](repeating: .max, count: capacity)
        let shift = 64 - bits
        for (key, id) in raw {
            var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while values[i] != .max && keys[i] != key { i = (i + 1) & (capacity - 1) }
            keys[i] = key
            values[i] = id
        }
        self.init(keySize: size, direct: [], keys: keys, values: values, shift: shift)
    }

    @inlinable @inline(__always)
    static func bytes<Key>(of value: Key) -> UInt64 {
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
        guard keySize >= 0 else { return .max }
        let key = Self.bytes(of: value)
        if keySize <= 1 { return direct[Int(truncatingIfNeeded: key)] }
        let mask = keys.count - 1
        var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while true {
            let id = values[i]
            if id == .max || keys[i] == key { return id }
            i = (i + 1) & mask
        }
    }
}
