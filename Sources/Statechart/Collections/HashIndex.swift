/// The package's one hash table: open addressing with linear probing over the entries an owner
/// keeps in its own dense arrays. The table holds, per slot, an entry's 64-bit hash and its
/// position in the owner's arrays; the owner says whether an entry is the one looked for.
///
/// Every lookup table of the package is one of these: interned event names (`EventTable`, on
/// the dispatch path), typed events and states by their bytes (`ByteKeyTable`, on the typed
/// send path), the compiler's memo of target and descriptor lists, and in StatechartSCXML
/// libxml2's interned strings by address, attribute tokens by their bytes, state ids and
/// expression texts. It is hand-written, rather than `Dictionary` or swift-collections'
/// `OrderedDictionary` (which hash with `Hasher`, SipHash), because those keys are bytes, raw
/// addresses or words that already are their own hash: a name of at most 7 bytes is one word,
/// and hashing it with `Hasher`, or making it a `String` first, costs more than the whole
/// lookup (ARCHITECTURE.md, "One hash table", has the measurement).
///
/// ```swift
/// var index = HashIndex()
/// var names: [String] = []
/// let hash = HashIndex.hash("go")
/// if index.find(hash, where: { names[$0] == "go" }) == nil {
///     index.insert(hash, entry: names.count)
///     names.append("go")
/// }
/// ```
///
/// Invariants: the slot count is a power of two at least twice ``count`` (so a probe always
/// reaches an empty slot); an entry sits in the first empty slot at or after its home slot
/// (the top bits of `hash &* φ`), with no empty slot in between; entries are only added (or all
/// removed). A slot's entry is -1 when it is empty.
///
/// - Complexity: ``find(_:where:)`` and ``insert(_:entry:)`` are O(1) on average.
@usableFromInline
package struct HashIndex: Sendable {
    @usableFromInline var slotHashes: [UInt64]
    @usableFromInline var slotEntries: [Int32]
    /// `64 - log2(slot count)`: a hash's home slot is the top bits of its multiplicative hash.
    @usableFromInline var shift: UInt64
    /// The number of entries.
    package private(set) var count = 0

    /// An empty table.
    package init() {
        slotHashes = Array(repeating: 0, count: 16)
        slotEntries = Array(repeating: -1, count: 16)
        shift = 60
    }

    /// An empty table with room for `capacity` entries before it grows.
    package init(capacity: Int) {
        var bits: UInt64 = 4
        while (1 << bits) < 2 * capacity { bits += 1 }
        slotHashes = Array(repeating: 0, count: 1 << Int(bits))
        slotEntries = Array(repeating: -1, count: 1 << Int(bits))
        shift = 64 - bits
    }

    /// The entry stored under `hash` for which `matches` is true, or `nil`. `matches` is asked
    /// only about entries whose hash is `hash`; when the hash is the key itself (a word, an
    /// address), pass `{ _ in true }`.
    @inlinable @inline(__always)
    package func find(_ hash: UInt64, where matches: (Int) -> Bool) -> Int? {
        slotEntries.withUnsafeBufferPointer { entries in
            slotHashes.withUnsafeBufferPointer { hashes in
                let mask = entries.count &- 1
                var slot = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) &>> shift)
                while true {
                    let entry = entries[slot]
                    if entry < 0 { return nil }
                    if hashes[slot] == hash && matches(Int(entry)) { return Int(entry) }
                    slot = (slot &+ 1) & mask
                }
            }
        }
    }

    /// Adds `entry` under `hash`. The caller has checked with ``find(_:where:)`` that no equal
    /// entry is present.
    package mutating func insert(_ hash: UInt64, entry: Int) {
        precondition(entry >= 0 && entry < Int(Int32.max), "HashIndex entries are Int32 positions")
        if (count + 1) * 2 > slotEntries.count { grow() }
        place(hash, Int32(entry))
        count += 1
    }

    /// Removes every entry, keeping the slots.
    package mutating func removeAll() {
        for slot in slotEntries.indices { slotEntries[slot] = -1 }
        count = 0
    }

    private mutating func place(_ hash: UInt64, _ entry: Int32) {
        let mask = slotEntries.count - 1
        var slot = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) &>> shift)
        while slotEntries[slot] >= 0 { slot = (slot + 1) & mask }
        slotHashes[slot] = hash
        slotEntries[slot] = entry
    }

    /// Doubles the slots and places every entry again from the hashes the slots hold.
    private mutating func grow() {
        let oldHashes = slotHashes, oldEntries = slotEntries
        slotHashes = Array(repeating: 0, count: oldEntries.count * 2)
        slotEntries = Array(repeating: -1, count: oldEntries.count * 2)
        shift -= 1
        for slot in oldEntries.indices where oldEntries[slot] >= 0 { place(oldHashes[slot], oldEntries[slot]) }
    }

    // MARK: - Hashing bytes

    /// A hash of `bytes`, eight at a time (multiplicative, no load past the end): the hash of
    /// every byte-keyed table, cheaper than `Hasher` for the short names and texts of a chart.
    package static func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let prime: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* prime
            hash ^= hash >> 29
            offset += 8
        }
        var tail: UInt64 = 0, tailShift: UInt64 = 0
        if bytes.count - offset >= 4 {
            tail = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            offset += 4
            tailShift = 32
        }
        if bytes.count - offset >= 2 {
            tail |= UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) &<< tailShift
            offset += 2
            tailShift += 16
        }
        if bytes.count - offset >= 1 { tail |= UInt64(bytes[offset]) &<< tailShift }
        hash = (hash ^ tail) &* prime
        return hash ^ (hash >> 32)
    }

    /// The hash of `text`'s UTF-8 bytes (``hash(bytes:)``).
    package static func hash(_ text: String) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable({ hash(bytes: $0) }) { return hash }
        return Array(text.utf8).withUnsafeBufferPointer { hash(bytes: $0) }
    }
}
