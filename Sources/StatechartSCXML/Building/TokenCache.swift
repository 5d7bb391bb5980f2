import Foundation
import Statechart

/// Single-token arrays by the bytes of their token, so that equal attribute values share one
/// array: one allocation per distinct name instead of one per attribute.
struct TokenCache {
    /// Entries by the hash of their bytes (`HashIndex`).
    private var index = HashIndex(capacity: 128)
    private var starts: [UnsafePointer<UInt8>] = []
    private var counts: [Int] = []
    private var tokens: [[String]] = []

    /// The array holding the one token `base[0..<count]` (bytes that live as long as the cache).
    mutating func tokens(_ base: UnsafePointer<UInt8>, count: Int) -> [String] {
        let hash = HashIndex.hash(bytes: UnsafeBufferPointer(start: base, count: count))
        let known = index.find(hash) { counts[$0] == count && memcmp(starts[$0], base, count) == 0 }
        if let known { return tokens[known] }
        let value = [String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)]
        index.insert(hash, entry: tokens.count)
        starts.append(base)
        counts.append(count)
        tokens.append(value)
        return value
    }
}
