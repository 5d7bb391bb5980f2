import Foundation
import Statechart
@testable import StatechartECMAScript
@testable import StatechartSCXML
import XCTest

/// Expressions, conditions, locations and scripts compiled once and called for every later
/// evaluation (issue 29): errors keep naming where they happened, the time limit still stops a
/// runaway evaluation, and `_event` is the same object for every read of one event.
final class CompiledSourceTests: XCTestCase {
    /// A condition whose evaluation throws, run on three entries of its state: every error names
    /// the `<if>`'s position in the document and the failing text, not only the first.
    func testAnErrorInACompiledConditionNamesItsPositionEveryTime() throws {
        let session = try TestSession("""
            <datamodel><data id="round" expr="0"/></datamodel>
            <state id="s">
              <onentry>
                <assign location="round" expr="round + 1"/>
                <if cond="nope.field"><log expr="'then'"/></if>
              </onentry>
              <transition event="error.execution" cond="round &lt; 3" target="s"><log expr="_event.data"/></transition>
              <transition event="error.execution" target="done"><log expr="_event.data"/></transition>
            </state>
            <final id="done"/>
            """)
        let expected = #"<if cond="nope.field"> at test.scxml:6:5: ReferenceError: identifier 'nope' undefined (in `nope.field`)"#
        XCTAssertEqual(try session.run(), [expected, expected, expected])
    }

    /// Only a content block with an `<assign>` keeps slots for prepared assignments (one per
    /// element of the block, two here); the other blocks run their elements as they are, and
    /// every block runs in document order on each of its runs.
    func testOnlyBlocksWithAnAssignmentKeepPreparedSlots() throws {
        let session = try TestSession("""
            <datamodel><data id="n" expr="0"/></datamodel>
            <state id="s">
              <onentry><log expr="'enter ' + n"/><raise event="go"/></onentry>
              <transition event="go" cond="n &lt; 2" target="s"><assign location="n" expr="n + 1"/><log expr="'n=' + n"/></transition>
              <transition event="go" target="done"><log expr="'last ' + n"/></transition>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), ["enter 0", "n=1", "enter 1", "n=2", "enter 2", "last 2"])
        XCTAssertEqual(session.machine.session.preparedAssignments.count, 2)
    }

    /// A script run again reports the line of its error again (the line inside the script, from
    /// the compiled function, not from a first compilation only), also in a second engine, which
    /// loads the first one's bytecode instead of compiling.
    func testAScriptErrorKeepsItsLineOnEveryRun() throws {
        for _ in 0..<2 { try assertErrorLineKept() }
    }

    private func assertErrorLineKept() throws {
        let engine = try ECMAScriptEngine()
        let script = "var a = 1;\nvar b = 2;\nundefinedFunction();"
        for _ in 0..<3 {
            XCTAssertThrowsError(try engine.execute(script: script)) { error in
                XCTAssertEqual(error as? ScriptError, ScriptError(name: "ReferenceError", message: "identifier 'undefinedFunction' undefined",
                                                                  expression: script, line: 3))
            }
        }
        XCTAssertEqual(try engine.evaluate("a + b"), .number(3), "the statements before the error ran")
    }

    /// A syntax error is reported by every use (nothing is kept compiled for it), with its text.
    func testASyntaxErrorIsReportedByEveryUse() throws {
        let engine = try ECMAScriptEngine()
        for _ in 0..<2 {
            XCTAssertThrowsError(try engine.evaluateBoolean("1 +")) { error in
                XCTAssertEqual((error as? ScriptError)?.name, "SyntaxError")
                XCTAssertEqual((error as? ScriptError)?.expression, "1 +")
            }
        }
        try engine.declare("x", value: .number(1))
        XCTAssertThrowsError(try engine.assign(location: "x +", expression: "2")) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "SyntaxError")
            XCTAssertEqual((error as? ScriptError)?.expression, "x + = 2")
        }
        XCTAssertEqual(try engine.evaluate("x"), .number(1))
    }

    /// More distinct texts than an engine keeps compiled: the table starts over, and neither an
    /// assignment (two compiled texts) nor a `<foreach>` (whose body compiles new texts between
    /// its steps) ever runs a function compiled from another text.
    func testRenewingTheCompiledTableNeverMixesUpFunctions() throws {
        let engine = try ECMAScriptEngine()
        try engine.declare("x", value: .number(0))
        for i in 0..<(ECMAScriptEngine.compiledSourceLimit + 50) {
            try engine.assign(location: "x", expression: "\(i) + 0")
            XCTAssertEqual(try engine.evaluate("x"), .number(Double(i)))
        }
        var seen: [DataValue] = []
        try engine.foreach(array: "[10, 20, 30]", item: "item", index: "i") {
            for j in 0..<(ECMAScriptEngine.compiledSourceLimit / 2) { _ = try engine.evaluate("\(j) * 1") }
            seen.append(try engine.evaluate("[item, i]"))
        }
        XCTAssertEqual(seen, [.array([.number(10), .number(0)]), .array([.number(20), .number(1)]), .array([.number(30), .number(2)])])
    }

    /// A condition and an `<assign>` prepared once (``SCXMLDatamodel/prepareCondition(_:)``) keep
    /// meaning their own texts after the engine forgot every compiled source (more distinct texts
    /// than it keeps), and their errors name their texts as an evaluation by text does.
    func testPreparedSourcesOutliveTheCompiledTableStartingOver() throws {
        let model = try ECMAScriptDatamodel(services: PlainServices())
        try model.initialize([SCXMLData(sourceLocation: .init(file: "test.scxml", line: 1, column: 1), id: "n", value: .expression("0"))])
        let below = try XCTUnwrap(model.prepareCondition("n < 2;"))
        let increment = try XCTUnwrap(model.prepareAssignment(SCXMLAssign(
            sourceLocation: .init(file: "test.scxml", line: 2, column: 1), location: "n", value: .expression("n + 1"))))
        let failing = try XCTUnwrap(model.prepareCondition("n.missing.field"))
        XCTAssertNil(model.prepareCondition("n <"), "a syntax error is left to the evaluation by text")
        var results: [Bool] = []
        for round in 0..<3 {
            results.append(try model.evaluateCondition(prepared: below))
            try model.assign(prepared: increment)
            for i in 0..<(ECMAScriptEngine.compiledSourceLimit / 2 + 10) { _ = try model.evaluate("\(round * 10_000 + i) * 1") }
        }
        XCTAssertEqual(results, [true, true, false])
        XCTAssertEqual(try model.evaluate("n"), .number(3))
        var prepared: ScriptError?
        var byText: ScriptError?
        XCTAssertThrowsError(try model.evaluateCondition(prepared: failing)) { prepared = $0 as? ScriptError }
        XCTAssertThrowsError(try model.evaluateCondition("n.missing.field")) { byText = $0 as? ScriptError }
        XCTAssertEqual(prepared?.expression, "n.missing.field")
        XCTAssertEqual(prepared?.name, "TypeError")
        XCTAssertEqual(prepared, byText, "the same error as by text")
    }

    /// The same expression, fast the first times and then running away: the time limit stops
    /// the compiled function (the clock starts at the executor's first check, not per call).
    func testARunawayCompiledExpressionIsStoppedWithinItsLimit() throws {
        let limit = Duration.milliseconds(100)
        let engine = try ECMAScriptEngine(timeLimit: limit)
        try engine.declare("spin", value: .bool(false))
        let expression = "(function () { while (spin) {} return 'done'; })()"
        for _ in 0..<3 { XCTAssertEqual(try engine.evaluate(expression), .string("done")) }
        try engine.assign(location: "spin", value: .bool(true))
        for _ in 0..<2 {
            let started = ContinuousClock.now
            XCTAssertThrowsError(try engine.evaluate(expression)) { error in
                XCTAssertEqual((error as? ScriptError)?.message,
                               "execution timeout: the script ran longer than its limit of 100 ms and was stopped")
            }
            let elapsed = ContinuousClock.now - started
            XCTAssertGreaterThanOrEqual(elapsed, limit, "stopped before its limit")
            XCTAssertLessThan(elapsed, .seconds(30), "stopped far too late")
        }
        try engine.assign(location: "spin", value: .bool(false))
        XCTAssertEqual(try engine.evaluate(expression), .string("done"), "the engine is usable afterwards")
    }

    /// Two sessions of one parsed document: what one assigns, declares or defines in a script
    /// never shows in the other, although both run the same compiled texts.
    func testTwoSessionsOfOneDocumentDoNotShareVariables() throws {
        let document = try SCXMLParser.parse(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s">
              <datamodel><data id="n" expr="0"/></datamodel>
              <state id="s">
                <transition event="add">
                  <assign location="n" expr="n + _event.data.by"/>
                  <script>if (typeof leaked === 'undefined') { var leaked = n; }</script>
                  <log expr="n + ' ' + leaked + ' ' + (typeof globalThisSession)"/>
                </transition>
                <transition event="mark"><script>globalThisSession = 1;</script></transition>
              </state>
            </scxml>
            """)
        let logs = [LogLines(), LogLines()]
        let machines = try logs.map { log in
            let machine = try SCXMLMachine(document: document, options: .withECMAScript)
            machine.onLog { _, message in log.append(message) }
            try machine.start()
            return machine
        }
        _ = try machines[0].send("mark")
        _ = try machines[0].send("add", data: .object(["by": .number(5)]))
        _ = try machines[1].send("add", data: .object(["by": .number(1)]))
        _ = try machines[0].send("add", data: .object(["by": .number(5)]))
        _ = try machines[1].send("add", data: .object(["by": .number(1)]))
        XCTAssertEqual(logs[0].all, ["5 5 number", "10 5 number"])
        XCTAssertEqual(logs[1].all, ["1 1 undefined", "2 1 undefined"])
    }

    /// `_event` is one object per session, frozen to scripts, showing the event being processed:
    /// every read gives the same object (and, within one event, the same `data` object), a later
    /// event changes its members, an event's own `data` object keeps its contents, and scripts
    /// can neither replace `_event` nor change its members.
    func testEventIsOneFrozenObjectShowingTheCurrentEvent() throws {
        let session = try TestSession("""
            <datamodel><data id="first"/><data id="firstData"/><data id="before" expr="typeof _event"/></datamodel>
            <state id="s">
              <transition event="one" target="t">
                <assign location="first" expr="_event"/>
                <assign location="firstData" expr="_event.data"/>
                <log expr="(_event === first) + ' ' + (_event.data === first.data) + ' ' + Object.isFrozen(_event)"/>
                <script>_event.data.seen = true;</script>
                <log expr="_event.data.seen + ' ' + Object.keys(_event).join()"/>
              </transition>
            </state>
            <state id="t">
              <onentry><log expr="'before ' + before"/></onentry>
              <transition event="two" target="u">
                <log expr="(_event === first) + ' ' + _event.name + ' ' + first.name + ' ' + JSON.stringify(_event.data) + ' ' + JSON.stringify(firstData)"/>
                <log expr="(function () { try { _event = 1; return 'assigned'; } catch (e) { return e.name; } })()"/>
                <log expr="(function () { 'use strict'; try { _event.name = 'x'; return 'assigned'; } catch (e) { return e.name + ' ' + _event.name; } })()"/>
              </transition>
            </state>
            <state id="u">
              <onentry><raise event="finish"/></onentry>
              <transition event="error.execution" target="done"><log expr="'error: ' + _event.data"/></transition>
              <transition event="finish" target="done"/>
            </state>
            <final id="done"/>
            """)
        try session.machine.start()
        _ = try session.machine.send("one", data: .object(["k": .number(1)]))
        _ = try session.machine.send("two")
        XCTAssertEqual(session.logs, [
            "true true true",
            "true name,type,sendid,origin,origintype,invokeid,data",
            "before undefined",
            #"true two two undefined {"k":1,"seen":true}"#,
            "TypeError",
            "TypeError two",
        ])
    }

    /// Fields an event lacks read as undefined although the event before had them, and `raw` is a
    /// member exactly while the bound event has one (the object stays frozen either way).
    func testEventMembersFollowEachBinding() throws {
        let engine = try ECMAScriptEngine()
        try engine.installEventBinding()
        XCTAssertEqual(try engine.evaluate("typeof _event"), .string("undefined"), "before the first binding")
        let describe = "[_event.name, String(_event.sendid), String(_event.origin), String(_event.data && _event.data.n), Object.keys(_event).join(), Object.isFrozen(_event)].join(' ')"
        engine.bindEvent("a", type: "external", sendID: "s1", origin: "o1", originType: nil, invokeID: nil, raw: "RAW")
        engine.bindEventData(.object(["n": .number(1)]))
        XCTAssertEqual(try engine.evaluate(describe),
                       .string("a s1 o1 1 name,type,sendid,origin,origintype,invokeid,data,raw true"))
        engine.bindEvent("b", type: "external", sendID: nil, origin: "o1", originType: nil, invokeID: nil, raw: nil)
        XCTAssertEqual(try engine.evaluate(describe),
                       .string("b undefined o1 undefined name,type,sendid,origin,origintype,invokeid,data true"))
        engine.bindEvent("b", type: "external", sendID: "s2", origin: nil, originType: nil, invokeID: nil, raw: "R2")
        XCTAssertEqual(try engine.evaluate(describe + " + ' ' + _event.raw"),
                       .string("b s2 undefined undefined name,type,sendid,origin,origintype,invokeid,data,raw true R2"))
    }
}

/// Services of a session that has no host functions, processors or resources.
private final class PlainServices: SCXMLSessionServices {
    let sessionID = "session"
    let name: String? = nil
    let documentTree = SCXMLDocumentTree()
    var hostFunctions: [String: SCXMLHostFunction] { [:] }
    var scriptLimits: SCXMLScriptLimits { SCXMLScriptLimits() }
    func isActive(_ id: String) -> Bool { false }
    func loadResource(_ uri: String) throws -> String { throw SCXMLExecutionError("no resources") }
}
