/// Values computed from expression texts (conditions, `expr` attributes), found again by the
/// text without `Hasher`: a document evaluates the same few texts over and over, and hashing
/// them with SipHash cost more than evaluating an `In()` condition.
///
/// Open addressing over an FNV-1a hash of the text's UTF-8 bytes; a hit is confirmed with
/// `String` equality, which is immediate for the text the document itself holds (the same
/// string every time). Holds at most `limit` texts: past that it starts over.
///
/// ```swift
/// var cache = ExpressionCache<NullExpression>()
/// if let known = cache[text] { return known }
/// cache[text] = parsed
/// ```
struct ExpressionCache<Value> {
    // Parallel arrays, so a probe reads a hash without copying (retaining) a text or a value.
    private var hashes: [UInt64] = Array(repeating: 0, count: 16)
    private var texts: [String?] = Array(repeating: nil, count: 16)
    private var values: [Value?] = Array(repeating: nil, count: 16)
    private var count = 0
    private let limit: Int

    init(limit: Int = 4_096) {
        self.limit = limit
    }

    @inline(__always)
    private static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        if let done = text.utf8.withContiguousStorageIfAvailable({ bytes -> UInt64 in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            return hash
        }) {
            return done
        }
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    @inline(__always)
    private static func slot(of hash: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The slot holding `text`, or the empty slot where it would go.
    @inline(__always)
    private func find(_ text: String, hash: UInt64) -> Int {
        let mask = hashes.count - 1
        var i = Self.slot(of: hash, mask: mask)
        while texts[i] != nil {
            if hashes[i] == hash && texts[i] == text { return i }
            i = (i + 1) & mask
        }
        return i
    }

    subscript(text: String) -> Value? {
        get {
            values[find(text, hash: Self.hash(text))]
        }
        set {
            guard let newValue else { return }       // only ever added to
            if count >= limit { self = ExpressionCache(limit: limit) }
            if (count + 1) * 2 > hashes.count { grow() }
            let hash = Self.hash(text)
            let i = find(text, hash: hash)
            if texts[i] == nil { count += 1 }
            hashes[i] = hash
            texts[i] = text
            values[i] = newValue
        }
    }

    private mutating func grow() {
        let (oldHashes, oldTexts, oldValues) = (hashes, texts, values)
        let capacity = hashes.count * 2
        hashes = Array(repeating: 0, count: capacity)
        texts = Array(repeating: nil, count: capacity)
        values = Array(repeating: nil, count: capacity)
        for j in oldTexts.indices where oldTexts[j] != nil {
            var i = Self.slot(of: oldHashes[j], mask: capacity - 1)
            while texts[i] != nil { i = (i + 1) & (capacity - 1) }
            hashes[i] = oldHashes[j]
            texts[i] = oldTexts[j]
            values[i] = oldValues[j]
        }
    }
}
