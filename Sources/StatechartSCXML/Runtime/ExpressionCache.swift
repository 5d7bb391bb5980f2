/// Values computed from expression texts (conditions, `expr` attributes), found again by the
/// text without `Hasher`: a document evaluates the same few texts over and over, and hashing
/// them with SipHash cost more than evaluating an `In()` condition.
///
/// Open addressing over a multiplicative hash of the text's UTF-8 bytes (eight at a time); a
/// hit is confirmed with `String` equality, which is immediate for the text the document
/// itself holds (the same string every time). Holds at most `limit` texts: past that it
/// starts over.
///
/// ```swift
/// var cache = ExpressionCache<NullExpression>()
/// if let known = cache[text] { return known }
/// cache[text] = parsed
/// ```
struct ExpressionCache<Value> {
    // Open addressing over indices into dense arrays, so a probe reads plain integers and
    // copies (retains) no text or value, and no optional of `Value` is ever tested.
    private var slots: [Int32] = Array(repeating: -1, count: 16)   // index into texts, -1: empty
    private var hashes: [UInt64] = []
    private var texts: [String] = []
    private var values: [Value] = []
    private let limit: Int

    init(limit: Int = 4_096) {
        self.limit = limit
    }

    @inline(__always)
    private static func hash(_ text: String) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable({ hash(bytes: $0) }) { return hash }
        return Array(text.utf8).withUnsafeBufferPointer { hash(bytes: $0) }
    }

    /// A multiplicative hash of `bytes`, eight at a time (no load past the end).
    private static func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
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
        var tail: UInt64 = 0, shift: UInt64 = 0
        if bytes.count - offset >= 4 {
            tail = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            offset += 4
            shift = 32
        }
        if bytes.count - offset >= 2 {
            tail |= UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) &<< shift
            offset += 2
            shift += 16
        }
        if bytes.count - offset >= 1 { tail |= UInt64(bytes[offset]) &<< shift }
        hash = (hash ^ tail) &* prime
        return hash ^ (hash >> 32)
    }

    /// The slot holding `text`, or the empty slot where it would go.
    @inline(__always)
    private func find(_ text: String, hash: UInt64) -> Int {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while true {
            let index = Int(slots[i])
            if index < 0 || (hashes[index] == hash && texts[index] == text) { return i }
            i = (i + 1) & mask
        }
    }

    subscript(text: String) -> Value? {
        get {
            let index = Int(slots[find(text, hash: Self.hash(text))])
            return index < 0 ? nil : values[index]
        }
        set {
            guard let newValue else { return }       // only ever added to
            if texts.count >= limit { self = ExpressionCache(limit: limit) }
            if (texts.count + 1) * 2 > slots.count { grow() }
            let hash = Self.hash(text)
            let i = find(text, hash: hash)
            if slots[i] >= 0 {
                values[Int(slots[i])] = newValue
                return
            }
            slots[i] = Int32(texts.count)
            hashes.append(hash)
            texts.append(text)
            values.append(newValue)
        }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, hash) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(index)
        }
    }
}
