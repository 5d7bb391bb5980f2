import Statechart

/// State ids and the index of the first state with each: `HashIndex` over a hash of the id's
/// UTF-8 bytes (cheaper than `Hasher` for the short ids of a document), confirmed by `String`
/// equality.
struct StateIDTable {
    private var index = HashIndex()
    private var keys: [String] = []
    private var values: [Int32] = []

    /// Makes room for `capacity` ids before the table grows.
    mutating func reserveCapacity(_ capacity: Int) {
        guard capacity > keys.count, keys.isEmpty else { return }
        index = HashIndex(capacity: capacity)
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// The index stored for `key`.
    subscript(key: String) -> Int? {
        guard let entry = index.find(HashIndex.hash(key), where: { keys[$0] == key }) else { return nil }
        return Int(values[entry])
    }

    /// Stores `value` for `key` unless it has one; returns the value it already had.
    mutating func insert(_ key: String, _ value: Int) -> Int? {
        let hash = HashIndex.hash(key)
        if let entry = index.find(hash, where: { keys[$0] == key }) { return Int(values[entry]) }
        index.insert(hash, entry: keys.count)
        keys.append(key)
        values.append(Int32(value))
        return nil
    }
}
