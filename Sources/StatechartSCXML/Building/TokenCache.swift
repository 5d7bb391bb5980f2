import Foundation
import Statechart

/// Single-token arrays by the bytes of their token, so that equal attribute values share one
/// array: one allocation per distinct name instead of one per attribute. What is checked about
/// a token (whether it is an event descriptor) is checked once per distinct token too.
///
/// A lookup touches the index's slot and one entry: a token of up to 16 bytes (nearly every id
/// and event name) is compared with the copy the entry holds, not with its first occurrence
/// somewhere in the document, and the entry holds the array too (on a large document each of
/// those would be a cache miss per attribute).
struct TokenCache {
    private struct Entry {
        /// The token's first 16 bytes, zero-padded (the whole token when `count <= 16`).
        var head: (UInt64, UInt64)
        var count: Int32
        /// `NameSyntax.isEventDescriptor` of the token: 0 not asked yet, 1 yes, 2 no.
        var descriptorCheck: UInt8 = 0
        /// Where the token's bytes start in ``TokenCache/longKeys`` when it is longer than 16 bytes.
        var longStart: Int32 = -1
        var tokens: [String]
    }

    /// Entries by the hash of their bytes (`HashIndex`).
    private var index: HashIndex
    private var entries: [Entry] = []
    /// The bytes of the tokens longer than 16 bytes.
    private var longKeys: [UInt8] = []

    /// A cache with room for about `capacity` distinct tokens before it grows.
    init(capacity: Int) {
        index = HashIndex(capacity: capacity)
        entries.reserveCapacity(capacity)
    }

    /// The first 16 bytes of `base[0..<count]`, zero-padded.
    @inline(__always)
    private static func head(_ base: UnsafePointer<UInt8>, count: Int) -> (UInt64, UInt64) {
        if count >= 16 {
            let raw = UnsafeRawPointer(base)
            return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: base, byteCount: count) }
        return words
    }

    /// The entry for the one token `base[0..<count]`, made on first use.
    mutating func entry(_ base: UnsafePointer<UInt8>, count: Int) -> Int {
        let key = UnsafeBufferPointer(start: base, count: count)
        let hash = HashIndex.hash(bytes: key)
        let head = Self.head(base, count: count)
        let known = entries.withUnsafeBufferPointer { entries in
            longKeys.withUnsafeBufferPointer { longKeys in
                index.find(hash) { position in
                    // Field by field: only plain values are read (no copy of the entry's array).
                    guard Int(entries[position].count) == count, entries[position].head == head else { return false }
                    return count <= 16
                        || memcmp(longKeys.baseAddress! + Int(entries[position].longStart) + 16, base + 16, count - 16) == 0
                }
            }
        }
        if let known { return known }
        var entry = Entry(head: head, count: Int32(count), tokens: [String(decoding: key, as: UTF8.self)])
        if count > 16 {
            entry.longStart = Int32(longKeys.count)
            longKeys.append(contentsOf: key)
        }
        index.insert(hash, entry: entries.count)
        entries.append(entry)
        return entries.count - 1
    }

    /// The array holding the token of `entry`.
    func tokens(_ entry: Int) -> [String] { entries[entry].tokens }

    /// Whether the token of `entry` is an event descriptor (`NameSyntax.isEventDescriptor`),
    /// worked out the first time it is asked.
    mutating func isEventDescriptor(_ entry: Int) -> Bool {
        if entries[entry].descriptorCheck == 0 {
            entries[entry].descriptorCheck = NameSyntax.isEventDescriptor(entries[entry].tokens[0]) ? 1 : 2
        }
        return entries[entry].descriptorCheck == 1
    }
}
