import Statechart
import XCTest

@testable import StatechartECMAScript

final class EvaluationTests: XCTestCase {
    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine()
    }

    func testArithmetic() throws {
        XCTAssertEqual(try engine.evaluate("1 + 2 * 3"), .number(7))
        XCTAssertEqual(try engine.evaluate("7 / 2"), .number(3.5))
        XCTAssertEqual(try engine.evaluate("Math.max(3, 9, 4)"), .number(9))
        XCTAssertEqual(try engine.evaluate("(0.1 + 0.2).toFixed(2)"), .string("0.30"))
        XCTAssertEqual(try engine.evaluate("-0"), .number(-0.0))
    }

    func testNonFiniteNumbersAreKept() throws {
        guard case .number(let nan) = try engine.evaluate("0 / 0") else { return XCTFail("not a number") }
        XCTAssertTrue(nan.isNaN)
        XCTAssertEqual(try engine.evaluate("1 / 0"), .number(.infinity))
        XCTAssertEqual(try engine.evaluate("-1 / 0"), .number(-.infinity))
    }

    func testStrings() throws {
        XCTAssertEqual(try engine.evaluate("'foo' + 'bar'"), .string("foobar"))
        XCTAssertEqual(try engine.evaluate("'a,b,c'.split(',').length"), .number(3))
        XCTAssertEqual(try engine.evaluate("'abc'.toUpperCase()"), .string("ABC"))
        XCTAssertEqual(try engine.evaluate("'x' + 1"), .string("x1"))
        XCTAssertEqual(try engine.evaluate("'with\\u0000nul'"), .string("with\u{0}nul"))
    }

    func testBooleansAndNull() throws {
        XCTAssertEqual(try engine.evaluate("1 < 2"), .bool(true))
        XCTAssertEqual(try engine.evaluate("!true"), .bool(false))
        XCTAssertEqual(try engine.evaluate("null"), .null)
    }

    func testObjectLiteralIsAnExpression() throws {
        XCTAssertEqual(try engine.evaluate("{a: 1}"), .object(["a": .number(1)]))
    }

    func testObjectsAndArraysRoundTrip() throws {
        let value: DataValue = .object([
            "name": .string("Ada"),
            "age": .number(36),
            "tags": .array([.string("math"), .bool(true), .null, .number(-1.5)]),
            "nested": .object(["empty": .object([:]), "list": .array([])]),
        ])
        try engine.declare("v", value: value)
        XCTAssertEqual(try engine.evaluate("v"), value)
        XCTAssertEqual(try engine.evaluate("v.tags[0]"), .string("math"))
        XCTAssertEqual(try engine.evaluate("v.nested.list.length"), .number(0))
        XCTAssertEqual(try engine.evaluate("Array.isArray(v.tags)"), .bool(true))
        XCTAssertEqual(try engine.evaluate("JSON.stringify(v.tags)"), .string(#"["math",true,null,-1.5]"#))
        XCTAssertEqual(
            try engine.evaluate("[1, [2, [3]], {k: 'v'}]"),
            .array([.number(1), .array([.number(2), .array([.number(3)])]), .object(["k": .string("v")])])
        )
    }

    func testUndefinedRepresentation() throws {
        XCTAssertNil(try engine.evaluateOptional("undefined"))
        XCTAssertNil(try engine.evaluateOptional("void 0"))
        XCTAssertEqual(try engine.evaluateOptional("null"), .null)
        XCTAssertEqual(try engine.evaluate("undefined"), .null)
        // Nested: like JSON, null in arrays, omitted from objects.
        XCTAssertEqual(try engine.evaluate("[1, undefined, , 3]"), .array([.number(1), .null, .null, .number(3)]))
        XCTAssertEqual(try engine.evaluate("({a: undefined, b: 2})"), .object(["b": .number(2)]))
    }

    func testToJSONIsHonoured() throws {
        XCTAssertEqual(try engine.evaluate("new Date(0)"), .string("1970-01-01T00:00:00.000Z"))
        XCTAssertEqual(try engine.evaluate("({toJSON: function () { return [42]; }})"), .array([.number(42)]))
    }

    func testInheritedAndNonEnumerableMembersAreSkipped() throws {
        let value = try engine.evaluate("""
            (function () {
                var proto = {inherited: 1};
                var o = Object.create(proto);
                o.own = 2;
                Object.defineProperty(o, 'hidden', {value: 3, enumerable: false});
                return o;
            })()
            """)
        XCTAssertEqual(value, .object(["own": .number(2)]))
    }

    func testTruthiness() throws {
        for falsy in ["false", "0", "-0", "''", "null", "undefined", "NaN", "0 / 0"] {
            XCTAssertFalse(try engine.evaluateBoolean(falsy), falsy)
        }
        for truthy in ["true", "1", "-1", "'0'", "'false'", "[]", "({})", "function () {}", "Infinity", "new Boolean(false)"] {
            XCTAssertTrue(try engine.evaluateBoolean(truthy), truthy)
        }
    }

    func testEvaluateString() throws {
        XCTAssertEqual(try engine.evaluateString("[1, 2]"), "1,2")
        XCTAssertEqual(try engine.evaluateString("undefined"), "undefined")
        XCTAssertEqual(try engine.evaluateString("null"), "null")
        XCTAssertEqual(try engine.evaluateString("({})"), "[object Object]")
        XCTAssertEqual(try engine.evaluateString("3.0"), "3")
        XCTAssertEqual(try engine.evaluateString("'text'"), "text")
    }

    func testExecuteScriptDeclaresGlobals() throws {
        try engine.execute(script: """
            var total = 0;
            for (var i = 1; i <= 4; i++) { total += i; }
            function double(x) { return 2 * x; }
            """)
        XCTAssertEqual(try engine.evaluate("total"), .number(10))
        XCTAssertEqual(try engine.evaluate("double(total)"), .number(20))
    }

    func testExpressionWithTrailingComment() throws {
        XCTAssertEqual(try engine.evaluate("1 + 1 // two"), .number(2))
    }

    func testStatementsAreNotExpressions() {
        XCTAssertThrowsError(try engine.evaluate("var a = 1; a")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "SyntaxError")
        }
    }

    func testCheckSyntaxDoesNotRun() throws {
        try engine.checkSyntax(expression: "undefinedFunction()")
        try engine.checkSyntax(script: "var neverDeclared = 1;")
        XCTAssertFalse(engine.isDeclared("neverDeclared"))
        XCTAssertThrowsError(try engine.checkSyntax(expression: "a +")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "SyntaxError")
        }
        XCTAssertThrowsError(try engine.checkSyntax(script: "var = ;")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "SyntaxError")
        }
    }
}
