import Foundation

/// Single-token arrays by the bytes of their token, so that equal attribute values share one
/// array: one allocation per distinct name instead of one per attribute.
struct TokenCache {
    // Open addressing; parallel arrays, so a probe reads no array of tokens.
    private var hashes: [UInt64] = []
    private var slots: [Int32] = []
    private var starts: [UnsafePointer<UInt8>] = []
    private var counts: [Int] = []
    private var entryHashes: [UInt64] = []
    private var tokens: [[String]] = []
    private var mask = 0

    /// The array holding the one token `base[0..<count]` (bytes that live as long as the cache)
    /// whose FNV-1a hash is `hash`.
    mutating func tokens(_ base: UnsafePointer<UInt8>, count: Int, hash: UInt64) -> [String] {
        if !slots.isEmpty {
            var index = Int(truncatingIfNeeded: hash >> 32) & mask
            while slots[index] >= 0 {
                let entry = Int(slots[index])
                if hashes[index] == hash && counts[entry] == count && memcmp(starts[entry], base, count) == 0 {
                    return tokens[entry]
                }
                index = (index + 1) & mask
            }
        }
        let value = [String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)]
        insert(hash, base, count, value)
        return value
    }

    private mutating func insert(_ hash: UInt64, _ base: UnsafePointer<UInt8>, _ count: Int, _ value: [String]) {
        if (tokens.count + 1) * 2 > slots.count {
            let capacity = max(256, slots.count * 2)
            hashes = Array(repeating: 0, count: capacity)
            slots = Array(repeating: -1, count: capacity)
            mask = capacity - 1
            for position in tokens.indices {
                var index = Int(truncatingIfNeeded: entryHashes[position] >> 32) & mask
                while slots[index] >= 0 { index = (index + 1) & mask }
                slots[index] = Int32(position)
                hashes[index] = entryHashes[position]
            }
        }
        var index = Int(truncatingIfNeeded: hash >> 32) & mask
        while slots[index] >= 0 { index = (index + 1) & mask }
        slots[index] = Int32(tokens.count)
        hashes[index] = hash
        starts.append(base)
        counts.append(count)
        entryHashes.append(hash)
        tokens.append(value)
    }
}
