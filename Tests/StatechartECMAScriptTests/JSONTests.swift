import Statechart
import XCTest

@testable import StatechartECMAScript

final class JSONTests: XCTestCase {
    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine()
    }

    func testParsesValues() {
        XCTAssertEqual(
            engine.parseJSON(#"{"a": [1, true, null, "s"], "b": {"c": -2.5e3}}"#),
            .object(["a": .array([.number(1), .bool(true), .null, .string("s")]), "b": .object(["c": .number(-2500)])])
        )
        XCTAssertEqual(engine.parseJSON("42"), .number(42))
        XCTAssertEqual(engine.parseJSON(#""text""#), .string("text"))
        XCTAssertEqual(engine.parseJSON("null"), .null)
        XCTAssertEqual(engine.parseJSON("  [ ]  "), .array([]))
        XCTAssertEqual(engine.parseJSON(#""\u00e9\ud83d\ude00""#), .string("é😀"))
    }

    func testRejectsInvalidJSON() {
        for text in ["", "not json", "{a: 1}", "[1, 2", "'single'", "undefined", "function () {}", "1 2"] {
            XCTAssertNil(engine.parseJSON(text), text)
        }
    }

    func testProtoKeyIsAnOrdinaryMember() throws {
        XCTAssertEqual(engine.parseJSON(#"{"__proto__": {"x": 1}}"#), .object(["__proto__": .object(["x": .number(1)])]))
        try engine.declare("d", value: .object(["__proto__": .number(5)]))
        XCTAssertEqual(try engine.evaluate("Object.keys(d)"), .array([.string("__proto__")]))
        XCTAssertEqual(try engine.evaluate("Object.getPrototypeOf(d) === Object.prototype"), .bool(true))
    }

    func testParsedDataCanBeDeclared() throws {
        let data = try XCTUnwrap(engine.parseJSON(#"{"items": [1, 2, 3]}"#))
        try engine.declare("payload", value: data)
        XCTAssertEqual(try engine.evaluate("payload.items.length"), .number(3))
    }
}
