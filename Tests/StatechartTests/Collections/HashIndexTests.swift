import XCTest
@testable import Statechart

/// The package's one hash table, against a naive `Dictionary` and in its corner cases.
final class HashIndexTests: XCTestCase {
    func testFindsEveryEntryAfterGrowingAndNothingElse() {
        var index = HashIndex()
        var keys: [UInt64] = []
        // Multiples of 2^40 all share their low bits: a weak hash would pile them up.
        for i in 0..<1_000 {
            let key = UInt64(i) << 40
            XCTAssertNil(index.find(key, where: { _ in true }))
            index.insert(key, entry: keys.count)
            keys.append(key)
        }
        XCTAssertEqual(index.count, 1_000)
        for (entry, key) in keys.enumerated() {
            XCTAssertEqual(index.find(key, where: { _ in true }), entry)
        }
        XCTAssertNil(index.find(1, where: { _ in true }))
        XCTAssertNil(index.find(1_000 << 40, where: { _ in true }))
    }

    func testEntriesWithTheSameHashAreToldApartByTheOwner() {
        var index = HashIndex()
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q"]
        // Every name under hash 7: one probe sequence, longer than the initial 16 slots' half.
        for (entry, _) in names.enumerated() { index.insert(7, entry: entry) }
        for (entry, name) in names.enumerated() {
            XCTAssertEqual(index.find(7, where: { names[$0] == name }), entry, name)
        }
        XCTAssertNil(index.find(7, where: { names[$0] == "z" }))
        XCTAssertNil(index.find(8, where: { _ in true }))
    }

    func testAgreesWithADictionary() {
        var generator = SystemRandomNumberGenerator()
        var index = HashIndex(capacity: 4)
        var reference: [UInt64: Int] = [:]
        for _ in 0..<5_000 {
            // Keys from a small range, so many are inserted twice and found again.
            let key = UInt64.random(in: 0..<3_000, using: &generator) &* 0x1_0000_0001
            let found = index.find(key, where: { _ in true })
            XCTAssertEqual(found, reference[key])
            if found == nil {
                index.insert(key, entry: reference.count)
                reference[key] = reference.count
            }
        }
        XCTAssertEqual(index.count, reference.count)
        for (key, entry) in reference { XCTAssertEqual(index.find(key, where: { _ in true }), entry) }
    }

    func testRemoveAllEmptiesTheTable() {
        var index = HashIndex()
        for i in 0..<40 { index.insert(UInt64(i), entry: i) }
        index.removeAll()
        XCTAssertEqual(index.count, 0)
        for i in 0..<40 { XCTAssertNil(index.find(UInt64(i), where: { _ in true })) }
        index.insert(3, entry: 0)
        XCTAssertEqual(index.find(3, where: { _ in true }), 0)
    }

    func testHashReadsEveryByteOfEveryLength() {
        // Lengths 0 to 40 cover the 8-, 4-, 2- and 1-byte reads; changing any one byte, or the
        // length, changes the hash.
        var seen: Set<UInt64> = []
        for length in 0...40 {
            let bytes = [UInt8](repeating: 0x61, count: length)
            let hash = bytes.withUnsafeBufferPointer { HashIndex.hash(bytes: $0) }
            XCTAssertTrue(seen.insert(hash).inserted, "length \(length)")
            for position in 0..<length {
                var changed = bytes
                changed[position] = 0x62
                let other = changed.withUnsafeBufferPointer { HashIndex.hash(bytes: $0) }
                XCTAssertNotEqual(other, hash, "length \(length), byte \(position)")
            }
        }
        XCTAssertEqual(HashIndex.hash("caf\u{E9}"), Array("caf\u{E9}".utf8).withUnsafeBufferPointer { HashIndex.hash(bytes: $0) })
    }
}
