/// State ids and their indices: open addressing over an FNV-1a hash of the UTF-8 bytes (cheaper
/// than `Hasher` for the short ids of a document), confirmed by `String` equality.
struct IDTable {
    private var hashes: [UInt64] = []
    private var keys: [String] = []
    private var values: [Int32] = []
    private var count = 0

    @inline(__always)
    private static func hash(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        if let done = key.utf8.withContiguousStorageIfAvailable({ bytes -> UInt64 in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            return hash
        }) {
            return done
        }
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    @inline(__always)
    private func slot(_ key: String, _ hash: UInt64) -> Int {
        let mask = values.count - 1
        var index = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while values[index] >= 0 {
            if hashes[index] == hash && keys[index] == key { return index }
            index = (index + 1) & mask
        }
        return index
    }

    /// The index stored for `key`.
    subscript(key: String) -> Int? {
        guard count > 0 else { return nil }
        let index = slot(key, Self.hash(key))
        return values[index] >= 0 ? Int(values[index]) : nil
    }

    /// Stores `value` for `key` unless it has one; returns the value it already had.
    mutating func insert(_ key: String, _ value: Int) -> Int? {
        if (count + 1) * 2 > values.count { grow() }
        let hash = Self.hash(key)
        let index = slot(key, hash)
        if values[index] >= 0 { return Int(values[index]) }
        hashes[index] = hash
        keys[index] = key
        values[index] = Int32(value)
        count += 1
        return nil
    }

    private mutating func grow() {
        let oldHashes = hashes, oldKeys = keys, oldValues = values
        let capacity = max(64, values.count * 2)
        hashes = Array(repeating: 0, count: capacity)
        keys = Array(repeating: "", count: capacity)
        values = Array(repeating: -1, count: capacity)
        for old in oldValues.indices where oldValues[old] >= 0 {
            let index = slot(oldKeys[old], oldHashes[old])
            hashes[index] = oldHashes[old]
            keys[index] = oldKeys[old]
            values[index] = oldValues[old]
        }
    }
}
