import XCTest
@testable import StatechartSCXML

/// The cache of compiled expressions the null datamodel keeps by expression text.
final class ExpressionCacheTests: XCTestCase {
    func testFindsEveryTextItWasGivenAndNothingElse() {
        var cache = ExpressionCache<Int>()
        // Every length from 0 to 40 bytes (the hash reads 8, 4, 2 and 1 bytes at a time).
        let texts = (0..<500).map { String(repeating: "x", count: $0 % 41) + "\($0)" } + [""]
        for (value, text) in texts.enumerated() { cache[text] = value }
        for (value, text) in texts.enumerated() { XCTAssertEqual(cache[text], value, text) }
        XCTAssertNil(cache["In('nowhere')"])
        XCTAssertNil(cache["x"])
        cache["0"] = 42
        XCTAssertEqual(cache["0"], 42, "a text given again replaces its value")
    }

    func testTextsAreComparedAsStrings() {
        var cache = ExpressionCache<String>()
        cache["In('caf\u{E9}')"] = "precomposed"
        // Canonically equal but different bytes: a different hash, so a separate entry; both
        // answers are right for a cache of values computed from equal texts.
        XCTAssertNil(cache["In('cafe\u{301}')"])
        XCTAssertEqual(cache[String("In('caf\u{E9}')".unicodeScalars.map(Character.init))], "precomposed")
    }

    func testStartsOverPastItsLimit() {
        var cache = ExpressionCache<Int>(limit: 8)
        for i in 0..<8 { cache["t\(i)"] = i }
        XCTAssertEqual(cache["t7"], 7)
        cache["t8"] = 8
        XCTAssertEqual(cache["t8"], 8)
        XCTAssertNil(cache["t0"])
    }
}
