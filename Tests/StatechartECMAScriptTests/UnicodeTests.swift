import Statechart
import XCTest

@testable import StatechartECMAScript

final class UnicodeTests: XCTestCase {
    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine()
    }

    func testStringsRoundTrip() throws {
        let samples = ["héllo", "日本語", "😀 emoji", "👩‍👩‍👧 family", "Ω≈ç√∫", "mixed 1 ä 😀 z", "", "\u{FFFD}", "tab\tnew\nline"]
        for sample in samples {
            try engine.declare("s", value: .string(sample))
            XCTAssertEqual(try engine.evaluate("s"), .string(sample), sample)
            XCTAssertEqual(try engine.evaluate("s + ''"), .string(sample), sample)
            XCTAssertEqual(try engine.evaluateString("s"), sample, sample)
        }
    }

    func testNonBMPCharactersAreSurrogatePairsInScripts() throws {
        try engine.declare("fromSwift", value: .string("😀"))
        XCTAssertEqual(try engine.evaluate("fromSwift.length"), .number(2))
        XCTAssertEqual(try engine.evaluate("fromSwift === '😀'"), .bool(true))
        XCTAssertEqual(try engine.evaluate("fromSwift === '\\uD83D\\uDE00'"), .bool(true))
        XCTAssertEqual(try engine.evaluate("fromSwift.charCodeAt(0)"), .number(0xD83D))
        XCTAssertEqual(try engine.evaluate("'\\uD83D\\uDE00'"), .string("😀"))
        XCTAssertEqual(try engine.evaluate("String.fromCharCode(0xD83D, 0xDE00) + '!'"), .string("😀!"))
    }

    func testLoneSurrogatesBecomeReplacementCharacters() throws {
        XCTAssertEqual(try engine.evaluate("'a' + String.fromCharCode(0xD800) + 'b'"), .string("a\u{FFFD}b"))
        XCTAssertEqual(try engine.evaluate("'\\uDC00'"), .string("\u{FFFD}"))
    }

    func testUnicodeKeysIdentifiersAndMessages() throws {
        try engine.declare("data", value: .object(["clé": .string("välue"), "🔑": .number(1)]))
        XCTAssertEqual(try engine.evaluate("data['clé']"), .string("välue"))
        XCTAssertEqual(try engine.evaluate("data['🔑']"), .number(1))
        XCTAssertEqual(try engine.evaluate("Object.keys(data).sort()"), .array([.string("clé"), .string("🔑")]))
        try engine.declare("café", value: .number(3))
        XCTAssertEqual(try engine.evaluate("café * 2"), .number(6))
        XCTAssertThrowsError(try engine.execute(script: "throw new Error('échec 😀');")) { error in
            XCTAssertEqual((error as? ScriptError)?.message, "échec 😀")
        }
        try engine.registerFunction("echo") { $0.first ?? .null }
        XCTAssertEqual(try engine.evaluate("echo('ünï 😀').length"), .number(6))
    }
}
