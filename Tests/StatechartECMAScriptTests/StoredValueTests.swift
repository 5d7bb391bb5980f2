import Statechart
import XCTest

@testable import StatechartECMAScript

final class StoredValueTests: XCTestCase {
    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine()
    }

    func testStoreDataAndReadBack() throws {
        XCTAssertFalse(engine.hasStoredValue("k"))
        try engine.store(.array([.number(1), .string("x")]), as: "k")
        XCTAssertTrue(engine.hasStoredValue("k"))
        XCTAssertEqual(try engine.storedValue("k"), .array([.number(1), .string("x")]))
        try engine.removeStoredValue("k")
        XCTAssertFalse(engine.hasStoredValue("k"))
        XCTAssertThrowsError(try engine.storedValue("k")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "ReferenceError")
        }
        try engine.removeStoredValue("never stored")
    }

    func testStoredValuesAreInvisibleToScripts() throws {
        try engine.store(.string("secret"), as: "hidden")
        XCTAssertFalse(engine.isDeclared("hidden"))
        XCTAssertEqual(try engine.evaluate("JSON.stringify(Object.keys(this)).indexOf('secret')"), .number(-1))
    }

    func testNonDataValuesKeepTheirIdentity() throws {
        try engine.declare("shared", expression: "{count: 0, bump: function () { this.count++; }}")
        try engine.store(evaluating: "shared", as: "ref")
        XCTAssertThrowsError(try engine.storedValue("ref")) // has a function: not data
        try engine.declare("alias", storedValue: "ref")
        try engine.execute(script: "alias.bump(); alias.bump();")
        XCTAssertEqual(try engine.evaluate("shared.count"), .number(2))
        XCTAssertEqual(try engine.evaluate("alias === shared"), .bool(true))

        try engine.declare("target")
        try engine.assign(location: "target", storedValue: "ref")
        XCTAssertEqual(try engine.evaluate("target === shared"), .bool(true))
    }

    func testSetStoredMemberRequiresObjects() throws {
        try engine.store(.number(1), as: "number")
        try engine.store(.object([:]), as: "object")
        XCTAssertThrowsError(try engine.setStoredMember("m", of: "number", toStoredValue: "object")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "TypeError")
        }
        XCTAssertThrowsError(try engine.setStoredMember("m", of: "object", toStoredValue: "missing"))
        try engine.setStoredMember("m", of: "object", toStoredValue: "number")
        XCTAssertEqual(try engine.storedValue("object"), .object(["m": .number(1)]))
    }

    func testFailedStoreKeepsThePreviousValue() throws {
        try engine.store(.string("old"), as: "k")
        XCTAssertThrowsError(try engine.store(evaluating: "missing", as: "k"))
        XCTAssertEqual(try engine.storedValue("k"), .string("old"))
    }
}
