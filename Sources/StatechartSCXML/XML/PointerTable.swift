/// Libxml2's interned strings (names, prefixes, namespace URIs live in the parser's dictionary or
/// in its namespace table) by address, so each distinct one is converted once per document.
struct PointerTable {
    private var keys: [UInt]
    private var values: [Int32]
    private var mask: Int
    private var count = 0

    init() {
        keys = Array(repeating: 0, count: 64)
        values = Array(repeating: 0, count: 64)
        mask = 63
    }

    @inline(__always)
    private func slot(_ key: UInt) -> Int { Int(truncatingIfNeeded: (key >> 3) &* 0x9E37_79B9_7F4A_7C15 >> 40) & mask }

    func find(_ key: UInt) -> Int32? {
        var index = slot(key)
        while true {
            let candidate = keys[index]
            if candidate == key { return values[index] }
            if candidate == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    mutating func insert(_ key: UInt, _ value: Int32) {
        if (count + 1) * 2 > keys.count { grow() }
        var index = slot(key)
        while keys[index] != 0 { index = (index + 1) & mask }
        keys[index] = key
        values[index] = value
        count += 1
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        mask = keys.count - 1
        count = 0
        for (index, key) in oldKeys.enumerated() where key != 0 { insert(key, oldValues[index]) }
    }
}
