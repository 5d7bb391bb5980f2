import Statechart
import XCTest

@testable import StatechartECMAScript

final class VariableTests: XCTestCase {
    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine()
    }

    func testDeclareAndRead() throws {
        try engine.declare("count", value: .number(1))
        try engine.declare("empty")
        XCTAssertEqual(try engine.value(of: "count"), .number(1))
        XCTAssertEqual(try engine.value(of: "empty"), .null)
        XCTAssertEqual(try engine.evaluate("typeof count"), .string("number"))
        // Redeclaring replaces the value.
        try engine.declare("count", value: .string("again"))
        XCTAssertEqual(try engine.value(of: "count"), .string("again"))
    }

    func testDeclareWithExpressionKeepsAnyValue() throws {
        try engine.declare("square", expression: "function (x) { return x * x; }")
        XCTAssertEqual(try engine.evaluate("square(5)"), .number(25))
        XCTAssertThrowsError(try engine.declare("broken", expression: "nope()"))
        XCTAssertFalse(engine.isDeclared("broken"))
    }

    func testDeclaringNonWritableBuiltinFails() {
        XCTAssertThrowsError(try engine.declare("undefined", value: .number(1))) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "TypeError")
        }
    }

    func testAssignExpression() throws {
        try engine.declare("x", value: .number(2))
        try engine.assign(location: "x", expression: "x * 21")
        XCTAssertEqual(try engine.value(of: "x"), .number(42))
    }

    func testAssignValueToMembers() throws {
        try engine.declare("obj", value: .object(["a": .number(1)]))
        try engine.assign(location: "obj.b", value: .array([.string("x")]))
        try engine.assign(location: "obj['c d']", value: .bool(true))
        try engine.assign(location: "obj.b[1]", expression: "'y'")
        XCTAssertEqual(
            try engine.value(of: "obj"),
            .object(["a": .number(1), "b": .array([.string("x"), .string("y")]), "c d": .bool(true)])
        )
    }

    func testAssignToUndeclaredLocationFails() throws {
        XCTAssertThrowsError(try engine.assign(location: "undeclared", expression: "1")) { error in
            let error = error as? ScriptError
            XCTAssertEqual(error?.name, "ReferenceError")
            XCTAssertEqual(error?.message, "identifier 'undeclared' undefined")
        }
        XCTAssertThrowsError(try engine.assign(location: "undeclared", value: .number(1)))
        XCTAssertFalse(engine.isDeclared("undeclared"), "a failed assignment must not create a global")
        // Members of undefined values are not locations either.
        try engine.declare("obj", value: .object([:]))
        XCTAssertThrowsError(try engine.assign(location: "obj.missing.deeper", value: .number(1))) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "TypeError")
        }
    }

    func testAssignWithInvalidLocationOrExpressionFails() throws {
        try engine.declare("x", value: .number(1))
        XCTAssertThrowsError(try engine.assign(location: "1", expression: "2"))
        XCTAssertThrowsError(try engine.assign(location: "x +", expression: "2"))
        XCTAssertThrowsError(try engine.assign(location: "x", expression: "return 5"))
        XCTAssertThrowsError(try engine.assign(location: "", expression: "1"))
        XCTAssertEqual(try engine.value(of: "x"), .number(1))
    }

    func testAssignmentIsStrictButScriptsAreNot() throws {
        try engine.declare("frozen", expression: "Object.freeze({a: 1})")
        XCTAssertThrowsError(try engine.assign(location: "frozen.a", value: .number(2))) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "TypeError")
        }
        // Sloppy scripts may still create implicit globals, as in browsers.
        try engine.execute(script: "implicitGlobal = 5;")
        XCTAssertEqual(try engine.value(of: "implicitGlobal"), .number(5))
    }

    func testIsDeclared() throws {
        XCTAssertFalse(engine.isDeclared("x"))
        try engine.execute(script: "var x;")
        XCTAssertTrue(engine.isDeclared("x"), "a variable holding undefined is declared")
        try engine.declare("obj", value: .object(["a": .number(1)]))
        XCTAssertTrue(engine.isDeclared("obj.a"))
        XCTAssertTrue(engine.isDeclared("obj.notYet"))
        XCTAssertFalse(engine.isDeclared("obj.notYet.deeper"))
        XCTAssertFalse(engine.isDeclared("1abc"))
        XCTAssertTrue(engine.isDeclared("Math"))
    }

    func testValueOfUndeclaredLocationThrows() {
        XCTAssertThrowsError(try engine.value(of: "nothing")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "ReferenceError")
        }
    }
}
