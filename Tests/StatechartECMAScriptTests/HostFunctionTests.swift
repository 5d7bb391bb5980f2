import Statechart
import XCTest

@testable import StatechartECMAScript

final class HostFunctionTests: XCTestCase {
    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine()
    }

    private struct SwiftFailure: Error, CustomStringConvertible {
        var description: String { "swift side failed" }
    }

    func testCalledWithArgumentsAndReturnsValues() throws {
        var received: [[DataValue]] = []
        try engine.registerFunction("record") { arguments in
            received.append(arguments)
            return .object(["count": .number(Double(arguments.count))])
        }
        XCTAssertEqual(try engine.evaluate("record(1, 'two', [3], {four: 4}, null, undefined).count"), .number(6))
        XCTAssertEqual(try engine.evaluate("record().count"), .number(0))
        XCTAssertEqual(received, [
            [.number(1), .string("two"), .array([.number(3)]), .object(["four": .number(4)]), .null, .null],
            [],
        ])
    }

    func testInLikeFunction() throws {
        let active: Set<String> = ["s1", "s1.a"]
        try engine.registerFunction("In") { arguments in
            guard case .string(let state)? = arguments.first else {
                throw ScriptError(name: "TypeError", message: "In() expects a state id")
            }
            return .bool(active.contains(state))
        }
        XCTAssertTrue(try engine.evaluateBoolean("In('s1') && In('s1.a')"))
        XCTAssertFalse(try engine.evaluateBoolean("In('s2')"))
        XCTAssertThrowsError(try engine.evaluate("In(42)")) { error in
            let error = error as? ScriptError
            XCTAssertEqual(error?.name, "TypeError")
            XCTAssertEqual(error?.message, "In() expects a state id")
        }
    }

    func testSwiftErrorsBecomeCatchableJSExceptions() throws {
        try engine.registerFunction("fail") { _ in throw SwiftFailure() }
        try engine.registerFunction("failTyped") { _ in throw ScriptError(name: "RangeError", message: "out of range") }
        try engine.registerFunction("failCustom") { _ in throw ScriptError(name: "HostError", message: "custom") }

        XCTAssertEqual(
            try engine.evaluate("(function () { try { fail(); return 'no'; } catch (e) { return [e.name, e.message, e instanceof Error]; } })()"),
            .array([.string("Error"), .string("swift side failed"), .bool(true)])
        )
        XCTAssertEqual(
            try engine.evaluate("(function () { try { failTyped(); } catch (e) { return [e.name, e instanceof RangeError]; } })()"),
            .array([.string("RangeError"), .bool(true)])
        )
        XCTAssertEqual(
            try engine.evaluate("(function () { try { failCustom(); } catch (e) { return e.name + ': ' + e.message; } })()"),
            .string("HostError: custom")
        )
        // Uncaught, they surface as ScriptError.
        XCTAssertThrowsError(try engine.evaluate("fail()")) { error in
            XCTAssertEqual((error as? ScriptError)?.message, "swift side failed")
        }
    }

    func testUnconvertibleArgumentsThrowInTheScript() throws {
        var called = false
        try engine.registerFunction("take") { _ in
            called = true
            return .null
        }
        XCTAssertEqual(
            try engine.evaluate("(function () { try { take(function () {}); } catch (e) { return e.name; } })()"),
            .string("TypeError")
        )
        XCTAssertFalse(called)
    }

    func testReentrantCallsIntoTheEngine() throws {
        try engine.declare("base", value: .number(10))
        try engine.registerFunction("addBase") { [unowned engine = engine!] arguments in
            guard case .number(let n)? = arguments.first else { return .null }
            let base = try engine.evaluate("base")
            guard case .number(let b) = base else { return .null }
            return .number(n + b)
        }
        try engine.registerFunction("evalInner") { [unowned engine = engine!] arguments in
            guard case .string(let source)? = arguments.first else { return .null }
            return try engine.evaluate(source)
        }
        XCTAssertEqual(try engine.evaluate("addBase(5)"), .number(15))
        XCTAssertEqual(try engine.evaluate("evalInner('addBase(1) + evalInner(\"2\")')"), .number(13))
        // A nested failure propagates as a JS exception of the same kind.
        XCTAssertEqual(
            try engine.evaluate("(function () { try { evalInner('nope'); } catch (e) { return e.name + ': ' + e.message; } })()"),
            .string("ReferenceError: identifier 'nope' undefined")
        )
    }

    func testReregisteringReplacesTheFunction() throws {
        try engine.registerFunction("version") { _ in .number(1) }
        try engine.registerFunction("version") { _ in .number(2) }
        XCTAssertEqual(try engine.evaluate("version()"), .number(2))
        XCTAssertEqual(engine.hostFunctions.count, 1)
    }

    func testHostFunctionsAreFunctions() throws {
        try engine.registerFunction("hostFn") { _ in .string("ok") }
        XCTAssertEqual(try engine.evaluate("typeof hostFn"), .string("function"))
        XCTAssertEqual(try engine.evaluate("[1, 2].map(function () { return hostFn(); })"), .array([.string("ok"), .string("ok")]))
        XCTAssertEqual(try engine.evaluate("hostFn.name"), .string("hostFn"))
    }
}
