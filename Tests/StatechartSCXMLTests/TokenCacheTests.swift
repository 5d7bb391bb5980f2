import XCTest
@testable import StatechartSCXML

/// The builder's cache of single-token attribute values (ids and event names): one shared array
/// per distinct token, compared by a 16-byte head kept in the entry and, past 16 bytes, by the
/// rest of the bytes.
final class TokenCacheTests: XCTestCase {
    private func entry(_ cache: inout TokenCache, _ text: String) -> Int {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { cache.entry($0.baseAddress!, count: $0.count) }
    }

    func testEqualTokensShareOneEntryAndOneArray() {
        var cache = TokenCache(capacity: 4)
        let first = entry(&cache, "door.open")
        let again = entry(&cache, "door.open")
        XCTAssertEqual(first, again)
        XCTAssertEqual(cache.tokens(first), ["door.open"])
        // The same storage, not only equal contents: that is what lets the compiler resolve a
        // list once.
        let a = cache.tokens(first), b = cache.tokens(again)
        XCTAssertEqual(a.withUnsafeBufferPointer { $0.baseAddress }, b.withUnsafeBufferPointer { $0.baseAddress })
    }

    func testTokensThatDifferOnlyAfterSixteenBytesAreApart() {
        var cache = TokenCache(capacity: 4)
        // 17 and 20 bytes with the same first 16 ("zone1.area2.room"), and tokens of exactly
        // 16 and 8 bytes whose heads are zero-padded.
        let texts = ["zone1.area2.room3", "zone1.area2.room4", "zone1.area2.room3.x", "zone1.area2.room",
                     "zone1.ar", "zone1.area2.room3"]
        let entries = texts.map { entry(&cache, $0) }
        XCTAssertEqual(entries, [0, 1, 2, 3, 4, 0])
        for (text, index) in zip(texts, entries) { XCTAssertEqual(cache.tokens(index), [text]) }
    }

    func testEveryLengthUpToFortyBytesFindsItsOwnEntry() {
        var cache = TokenCache(capacity: 2)   // grows several times on the way
        let texts = (1...40).map { String(repeating: "a", count: $0) } + (1...40).map { String(repeating: "a", count: $0 - 1) + "b" }
        let entries = texts.map { entry(&cache, $0) }
        XCTAssertEqual(entries, Array(0..<80))
        XCTAssertEqual(texts.map { entry(&cache, $0) }, Array(0..<80))
    }

    func testEventDescriptorCheckIsTheNameSyntaxAnswer() {
        var cache = TokenCache(capacity: 4)
        let valid = entry(&cache, "error.*")
        let invalid = entry(&cache, "a..b")
        XCTAssertTrue(cache.isEventDescriptor(valid))
        XCTAssertFalse(cache.isEventDescriptor(invalid))
        // Asked again: the remembered answer, the same.
        XCTAssertTrue(cache.isEventDescriptor(valid))
        XCTAssertFalse(cache.isEventDescriptor(invalid))
    }
}
