import Statechart
import XCTest

@testable import StatechartECMAScript

final class SystemVariableTests: XCTestCase {
    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine()
        try engine.setReadOnly("_sessionid", value: .string("session-1"))
        try engine.setReadOnly("_name", value: .string("machine"))
        try engine.setReadOnly("_ioprocessors", value: .object([
            "http://www.w3.org/TR/scxml/#SCXMLEventProcessor": .object(["location": .string("#_scxml_session-1")]),
        ]))
        try engine.setReadOnly("_event", value: .object(["name": .string("go"), "data": .object(["n": .number(1)])]))
    }

    func testSystemVariablesAreReadable() throws {
        XCTAssertEqual(try engine.evaluate("_sessionid"), .string("session-1"))
        XCTAssertEqual(try engine.evaluate("_name"), .string("machine"))
        XCTAssertEqual(try engine.evaluate("_event.data.n"), .number(1))
        XCTAssertEqual(
            try engine.evaluate("_ioprocessors['http://www.w3.org/TR/scxml/#SCXMLEventProcessor'].location"),
            .string("#_scxml_session-1")
        )
        XCTAssertTrue(engine.isDeclared("_event"))
    }

    func testAssignFailsForEverySystemVariable() throws {
        // W3C test 329's shape: every system variable rejects <assign>, and keeps its value.
        for name in ["_sessionid", "_name", "_ioprocessors", "_event"] {
            XCTAssertThrowsError(try engine.assign(location: name, expression: "'changed'"), name) { error in
                let error = error as? ScriptError
                XCTAssertEqual(error?.name, "TypeError")
                XCTAssertEqual(error?.message, "cannot assign to read-only system variable '\(name)'")
            }
            XCTAssertThrowsError(try engine.assign(location: name, value: .number(1)), name)
        }
        XCTAssertEqual(try engine.evaluate("_sessionid"), .string("session-1"))
        XCTAssertEqual(try engine.evaluate("_event.name"), .string("go"))
    }

    func testScriptsCannotAssignEvenInSloppyMode() throws {
        XCTAssertThrowsError(try engine.execute(script: "_sessionid = 'x';")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "TypeError")
        }
        XCTAssertThrowsError(try engine.execute(script: "'use strict'; _name = 'x';"))
        XCTAssertThrowsError(try engine.execute(script: "var _event = 5;"))
        XCTAssertThrowsError(try engine.evaluate("_sessionid += 'x'"))
        XCTAssertThrowsError(try engine.execute(script: "'use strict'; delete _event;"))
        XCTAssertThrowsError(try engine.execute(script: "Object.defineProperty(this, '_event', {value: 1});"))
        XCTAssertNoThrow(try engine.execute(script: "delete _event;"))
        XCTAssertEqual(try engine.evaluate("_sessionid"), .string("session-1"))
        XCTAssertEqual(try engine.evaluate("_event.name"), .string("go"))
    }

    func testSystemVariableContentsAreFrozen() throws {
        XCTAssertThrowsError(try engine.assign(location: "_event.name", expression: "'hacked'")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "TypeError")
        }
        XCTAssertThrowsError(try engine.assign(location: "_event.data.n", expression: "2"))
        try engine.execute(script: "_event.data.n = 3;") // sloppy: silently ignored
        XCTAssertEqual(try engine.evaluate("_event"), .object(["name": .string("go"), "data": .object(["n": .number(1)])]))
    }

    func testDeclareAndRegisterCannotShadowSystemVariables() {
        XCTAssertThrowsError(try engine.declare("_event", value: .null)) { error in
            XCTAssertEqual((error as? ScriptError)?.message, "cannot redeclare read-only system variable '_event'")
        }
        XCTAssertThrowsError(try engine.registerFunction("_name") { _ in .null })
    }

    func testHostCanReplaceTheValue() throws {
        try engine.setReadOnly("_event", value: .object(["name": .string("next")]))
        XCTAssertEqual(try engine.evaluate("_event.name"), .string("next"))
        XCTAssertThrowsError(try engine.assign(location: "_event", expression: "null"))
    }

    func testStoredEventDataKeepsNonDataValues() throws {
        try engine.store(evaluating: "({callback: function (x) { return x + 1; }, list: [1]})", as: "payload")
        try engine.store(.object(["name": .string("withData"), "type": .string("internal")]), as: "event")
        try engine.setStoredMember("data", of: "event", toStoredValue: "payload")
        try engine.setReadOnly("_event", storedValue: "event")

        XCTAssertEqual(try engine.evaluate("_event.data.callback(41)"), .number(42))
        // The event object itself is frozen, its data is the sender's value, untouched.
        XCTAssertThrowsError(try engine.assign(location: "_event.name", value: .string("x")))
        XCTAssertThrowsError(try engine.assign(location: "_event.data", value: .null))
        try engine.assign(location: "_event.data.list[1]", value: .number(2))
        XCTAssertEqual(try engine.evaluate("_event.data.list"), .array([.number(1), .number(2)]))
        XCTAssertThrowsError(try engine.evaluate("_event")) { error in
            XCTAssertEqual((error as? ScriptError)?.message, "cannot convert a function to data")
        }
    }
}
