import Statechart
import XCTest

@testable import StatechartECMAScript

final class ErrorTests: XCTestCase {
    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine()
    }

    private func scriptError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> ScriptError? {
        do {
            try body()
            XCTFail("expected a ScriptError", file: file, line: line)
        } catch let error as ScriptError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }

    func testSyntaxError() throws {
        let error = try XCTUnwrap(scriptError { _ = try engine.evaluate("1 +") })
        XCTAssertEqual(error.name, "SyntaxError")
        XCTAssertFalse(error.message.isEmpty)
        XCTAssertEqual(error.expression, "1 +")
        XCTAssertFalse(error.isFatal)
    }

    func testReferenceError() throws {
        let error = try XCTUnwrap(scriptError { _ = try engine.evaluate("x + 1") })
        XCTAssertEqual(error.name, "ReferenceError")
        XCTAssertEqual(error.message, "identifier 'x' undefined")
        XCTAssertEqual(error.expression, "x + 1")
        XCTAssertEqual(error.description, "ReferenceError: identifier 'x' undefined (in `x + 1`)")
    }

    func testTypeError() throws {
        let error = try XCTUnwrap(scriptError { _ = try engine.evaluate("null.foo") })
        XCTAssertEqual(error.name, "TypeError")
        XCTAssertTrue(error.message.contains("foo"), error.message)
    }

    func testErrorLineInScript() throws {
        let error = try XCTUnwrap(scriptError { try engine.execute(script: "var a = 1;\nvar b = 2;\nmissing();") })
        XCTAssertEqual(error.name, "ReferenceError")
        XCTAssertEqual(error.line, 3)
    }

    func testThrownValuesAndCustomErrors() throws {
        var error = try XCTUnwrap(scriptError { try engine.execute(script: "throw 'boom';") })
        XCTAssertEqual(error.name, "")
        XCTAssertEqual(error.message, "boom")
        XCTAssertEqual(error.description, "boom (in `throw 'boom';`)")

        error = try XCTUnwrap(scriptError { try engine.execute(script: "throw new RangeError('too far');") })
        XCTAssertEqual(error.name, "RangeError")
        XCTAssertEqual(error.message, "too far")

        error = try XCTUnwrap(scriptError {
            try engine.execute(script: "function MyError(m) { this.name = 'MyError'; this.message = m; } throw new MyError('mine');")
        })
        XCTAssertEqual(error.name, "MyError")
        XCTAssertEqual(error.message, "mine")

        error = try XCTUnwrap(scriptError { try engine.execute(script: "throw {code: 7};") })
        XCTAssertEqual(error.message, "[object Object]")
    }

    func testThrowingGettersOnTheErrorAreContained() throws {
        let error = try XCTUnwrap(scriptError {
            try engine.execute(script: "throw {get name() { throw new Error('nested'); }};")
        })
        XCTAssertEqual(error.name, "Error")
        XCTAssertFalse(engine.hasFailedFatally)
        XCTAssertEqual(try engine.evaluate("1"), .number(1))
    }

    func testThrowInsideNestedFunctionDoesNotCrash() throws {
        try engine.execute(script: """
            function level3() { throw new TypeError('deep'); }
            function level2() { return level3(); }
            function level1() { return [1, 2].map(function () { return level2(); }); }
            """)
        let error = try XCTUnwrap(scriptError { _ = try engine.evaluate("level1()") })
        XCTAssertEqual(error.name, "TypeError")
        XCTAssertEqual(error.message, "deep")
        XCTAssertEqual(try engine.evaluate("(function () { try { level1(); } catch (e) { return e.message; } })()"), .string("deep"))
        XCTAssertEqual(try engine.evaluate("2 + 2"), .number(4))
    }

    func testFunctionsAreNotConvertible() throws {
        let error = try XCTUnwrap(scriptError { _ = try engine.evaluate("function () {}") })
        XCTAssertEqual(error.name, "TypeError")
        XCTAssertEqual(error.message, "cannot convert a function to data")
        XCTAssertNotNil(scriptError { _ = try engine.evaluate("({f: Math.max})") })
        XCTAssertNotNil(scriptError { _ = try engine.evaluate("Symbol('s')") })
    }

    func testCyclicStructuresAreNotConvertible() throws {
        let error = try XCTUnwrap(scriptError { _ = try engine.evaluate("(function () { var a = {}; a.self = a; return a; })()") })
        XCTAssertEqual(error.name, "TypeError")
        XCTAssertTrue(error.message.contains("cyclic"), error.message)
        // Shared (non-cyclic) references are fine and are copied.
        XCTAssertEqual(
            try engine.evaluate("(function () { var s = {v: 1}; return [s, s]; })()"),
            .array([.object(["v": .number(1)]), .object(["v": .number(1)])])
        )
    }

    func testThrowingGetterDuringConversion() throws {
        let error = try XCTUnwrap(scriptError { _ = try engine.evaluate("({get bad() { throw new Error('getter'); }})") })
        XCTAssertEqual(error.message, "getter")
    }

    func testInfiniteRecursionIsARangeError() throws {
        let error = try XCTUnwrap(scriptError { _ = try engine.evaluate("(function f() { return 1 + f(); })()") })
        XCTAssertEqual(error.name, "RangeError")
        XCTAssertEqual(try engine.evaluate("'still alive'"), .string("still alive"))
    }

    func testMemoryLimitStopsRunawayAllocation() throws {
        let small = try ECMAScriptEngine(memoryLimit: 8 << 20)
        let error = try XCTUnwrap(scriptError { try small.execute(script: "var s = 'xxxxxxxx'; while (true) { s = s + s; }") })
        XCTAssertEqual(error.name, "Error")
        XCTAssertEqual(error.message, "alloc failed: the ECMAScript heaps of this document tree reached their memory limit of 8388608 bytes")
        XCTAssertLessThanOrEqual(small.memoryInUse, small.memoryLimit)
        try small.execute(script: "s = null;")
        try small.collectGarbage()
        XCTAssertEqual(try small.evaluate("[1, 2, 3].length"), .number(3))
    }

    func testFatalHandlerDoesNotCrashAndPoisonsTheEngine() throws {
        let error = engine.triggerFatalErrorForTesting("provoked")
        XCTAssertTrue(error.isFatal)
        XCTAssertTrue(error.message.contains("provoked"), error.message)
        XCTAssertTrue(engine.hasFailedFatally)
        let later = try XCTUnwrap(scriptError { _ = try engine.evaluate("1 + 1") })
        XCTAssertTrue(later.isFatal)
        XCTAssertFalse(engine.isDeclared("Math"))
        XCTAssertNil(engine.parseJSON("1"))
        engine = nil // destroying a poisoned engine frees its memory without Duktape
    }

    func testUncaughtErrorOutsideProtectedCallReachesTheFatalHandler() throws {
        let error = engine.throwUnprotectedForTesting()
        XCTAssertTrue(error.isFatal, error.description)
        XCTAssertTrue(engine.hasFailedFatally)
        // Other engines are unaffected.
        XCTAssertEqual(try ECMAScriptEngine().evaluate("6 * 7"), .number(42))
    }
}
