import Foundation
import Statechart

/// Single-token arrays by the bytes of their token, so that equal attribute values share one
/// array: one allocation per distinct name instead of one per attribute. What is checked about
/// a token (whether it is an event descriptor) is checked once per distinct token too.
struct TokenCache {
    /// One distinct token. Its bytes are copied into ``keyBytes`` so that a lookup compares
    /// against a small, dense buffer rather than wherever in the document the token first
    /// appeared (a cache miss per attribute on a large document).
    private struct Entry {
        var keyStart: Int32
        var keyCount: Int32
        /// `NameSyntax.isEventDescriptor` of the token: 0 not asked yet, 1 yes, 2 no.
        var descriptorCheck: UInt8 = 0
    }

    /// Entries by the hash of their bytes (`HashIndex`).
    private var index: HashIndex
    private var entries: [Entry] = []
    private var arrays: [[String]] = []
    private var keyBytes: [UInt8] = []

    /// A cache with room for about `capacity` distinct tokens before it grows.
    init(capacity: Int) {
        index = HashIndex(capacity: capacity)
        entries.reserveCapacity(capacity)
        arrays.reserveCapacity(capacity)
        keyBytes.reserveCapacity(capacity * 8)
    }

    /// The entry for the one token `base[0..<count]`, made on first use.
    mutating func entry(_ base: UnsafePointer<UInt8>, count: Int) -> Int {
        let key = UnsafeBufferPointer(start: base, count: count)
        let hash = HashIndex.hash(bytes: key)
        let known = keyBytes.withUnsafeBufferPointer { stored in
            index.find(hash) { position in
                let entry = entries[position]
                return Int(entry.keyCount) == count && memcmp(stored.baseAddress! + Int(entry.keyStart), base, count) == 0
            }
        }
        if let known { return known }
        index.insert(hash, entry: entries.count)
        entries.append(Entry(keyStart: Int32(keyBytes.count), keyCount: Int32(count)))
        keyBytes.append(contentsOf: key)
        arrays.append([String(decoding: key, as: UTF8.self)])
        return entries.count - 1
    }

    /// The array holding the token of `entry`.
    func tokens(_ entry: Int) -> [String] { arrays[entry] }

    /// Whether the token of `entry` is an event descriptor (`NameSyntax.isEventDescriptor`),
    /// worked out the first time it is asked.
    mutating func isEventDescriptor(_ entry: Int) -> Bool {
        if entries[entry].descriptorCheck == 0 {
            entries[entry].descriptorCheck = NameSyntax.isEventDescriptor(arrays[entry][0]) ? 1 : 2
        }
        return entries[entry].descriptorCheck == 1
    }
}
