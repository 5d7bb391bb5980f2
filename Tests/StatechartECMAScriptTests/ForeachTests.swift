import Statechart
import XCTest

@testable import StatechartECMAScript

final class ForeachTests: XCTestCase {
    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine()
    }

    func testItems() throws {
        XCTAssertEqual(try engine.foreachItems("[1, 'two', {three: 3}]"), [.number(1), .string("two"), .object(["three": .number(3)])])
        XCTAssertEqual(try engine.foreachItems("[]"), [])
        XCTAssertFalse(engine.hasStoredValue("\u{0}foreachItems"))
    }

    func testNonArraysAreRejected() {
        for expression in ["5", "'abc'", "({length: 2})", "null", "undefined"] {
            XCTAssertThrowsError(try engine.foreachItems(expression), expression) { error in
                let error = error as? ScriptError
                XCTAssertEqual(error?.name, "TypeError")
                XCTAssertEqual(error?.expression, expression)
            }
        }
        XCTAssertThrowsError(try engine.foreachItems("missing")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "ReferenceError")
        }
    }

    func testIterationUsesAShallowCopy() throws {
        try engine.declare("list", expression: "[{v: 1}, {v: 2}]")
        try engine.declare("seen", expression: "[]")
        try engine.foreach(array: "list", item: "item", index: "i") {
            // Growing the original array does not extend the iteration...
            try engine.execute(script: "list.push({v: 99}); seen.push(i + ':' + item.v); item.v *= 10;")
        }
        XCTAssertEqual(try engine.evaluate("seen"), .array([.string("0:1"), .string("1:2")]))
        // ...while the items are the same objects (shallow copy), so their changes show.
        XCTAssertEqual(try engine.evaluate("list[0].v + list[1].v"), .number(30))
        XCTAssertEqual(try engine.evaluate("list.length"), .number(4))
        XCTAssertEqual(try engine.evaluate("i"), .number(1))
    }

    func testForeachDeclaresItemAndIndexAndKeepsFunctions() throws {
        XCTAssertFalse(engine.isDeclared("fn"))
        var results: [DataValue] = []
        try engine.foreach(array: "[function () { return 'a'; }, function () { return 'b'; }]", item: "fn") {
            results.append(try engine.evaluate("fn()"))
        }
        XCTAssertEqual(results, [.string("a"), .string("b")])
        XCTAssertTrue(engine.isDeclared("fn"))
    }

    func testStoredCopyAndElementAssignment() throws {
        try engine.declare("source", expression: "[10, 20, 30]")
        try engine.declare("item")
        let count = try engine.storeForeachCopy(of: "source", as: "loop")
        XCTAssertEqual(count, 3)
        try engine.execute(script: "source.length = 0;")
        try engine.assign(location: "item", storedValue: "loop", element: 2)
        XCTAssertEqual(try engine.value(of: "item"), .number(30))
        XCTAssertThrowsError(try engine.assign(location: "item", storedValue: "loop", element: 3)) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "RangeError")
        }
        XCTAssertThrowsError(try engine.assign(location: "item", storedValue: "loop", element: -1))
    }

    func testInvalidItemOrIndexFailsBeforeIterating() {
        // W3C test 152's shape: an illegal item is an error even when nothing would be assigned.
        for name in ["'continue'", "continue", "1abc", "undeclared.member", "a b", ""] {
            var ran = false
            XCTAssertThrowsError(try engine.foreach(array: "[]", item: name) { ran = true }, name) { error in
                XCTAssertEqual((error as? ScriptError)?.name, "SyntaxError", name)
            }
            XCTAssertThrowsError(try engine.foreach(array: "[1]", item: "ok", index: name) { ran = true }, name)
            XCTAssertFalse(ran, name)
        }
        XCTAssertFalse(engine.isDeclared("ok"))
        XCTAssertTrue(ECMAScriptEngine.isAssignableIdentifier("$valid_1"))
        XCTAssertTrue(ECMAScriptEngine.isAssignableIdentifier("café"))
    }

    func testNestedForeach() throws {
        try engine.declare("pairs", expression: "[]")
        try engine.foreach(array: "[1, 2]", item: "a") {
            try engine.foreach(array: "['x', 'y']", item: "b") {
                try engine.execute(script: "pairs.push(a + b);")
            }
        }
        XCTAssertEqual(try engine.evaluate("pairs.join(' ')"), .string("1x 1y 2x 2y"))
    }

    func testBodyErrorEndsTheLoop() throws {
        var iterations = 0
        XCTAssertThrowsError(try engine.foreach(array: "[1, 2, 3]", item: "n") {
            iterations += 1
            _ = try engine.evaluate("n === 2 ? missing : n")
        })
        XCTAssertEqual(iterations, 2)
    }
}
