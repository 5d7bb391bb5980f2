import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// The time limit of one evaluation (issue 12, item 4): every kind of runaway script stops with
/// `RangeError: execution timeout`, cannot catch it, and leaves the engine (and the machine)
/// usable. Expected texts are the shim's message with the limit given here.
final class ScriptTimeLimitTests: XCTestCase {
    static let limit = Duration.milliseconds(100)
    static let timeout = "execution timeout: the script ran longer than its limit of 100 ms and was stopped"

    var engine: ECMAScriptEngine!

    override func setUpWithError() throws {
        engine = try ECMAScriptEngine(timeLimit: Self.limit)
    }

    /// Runs `script`, which must be stopped by the time limit (not earlier, not by anything else).
    func assertStopped(_ script: String, file: StaticString = #filePath, line: UInt = #line) {
        let started = ContinuousClock.now
        do {
            try engine.execute(script: script)
            XCTFail("`\(script)` finished", file: file, line: line)
        } catch {
            XCTAssertEqual(error.name, "RangeError", file: file, line: line)
            XCTAssertEqual(error.message, Self.timeout, file: file, line: line)
            XCTAssertEqual(error.expression, script, file: file, line: line)
        }
        let elapsed = ContinuousClock.now - started
        XCTAssertGreaterThanOrEqual(elapsed, Self.limit, "stopped before its limit", file: file, line: line)
        XCTAssertLessThan(elapsed, .seconds(30), "stopped far too late", file: file, line: line)
        XCTAssertEqual(try engine.evaluate("6 * 7"), .number(42), "engine unusable afterwards", file: file, line: line)
    }

    func testEmptyLoopsStop() {
        assertStopped("while (true) {}")
        assertStopped("for (;;) {}")
        assertStopped("do {} while (true);")
        assertStopped("var o = {a: 1}; for (;;) { for (var k in o) {} }")
        assertStopped("label: for (;;) { continue label; }")
    }

    func testUnboundedRecursionThatCatchesTheStackLimitStops() {
        // Each call catches the RangeError of the call stack limit and recurses again: without
        // a time limit this runs for an exponential time.
        assertStopped("function f() { try { f(); } catch (e) { f(); } } f();")
    }

    func testLongStringConcatenationStops() {
        assertStopped("var s = ''; for (var i = 0; ; i++) { s += 'x'; if (s.length > 4096) s = ''; }")
    }

    func testCodeBuiltAtRunTimeStops() {
        assertStopped("eval('while (true) {}');")
        assertStopped("new Function('for (;;) {}')();")
        assertStopped("[3, 1, 2].sort(function (a, b) { for (;;) {} });")
        assertStopped("var o = {}; Object.defineProperty(o, 'x', {get: function () { for (;;) {} }}); o.x;")
    }

    func testBuiltInsLoopingInCStop() {
        // Without the checks added by scripts/build-duktape.sh these run for tens of seconds
        // (the regular expression until Duktape's own step limit of 1e9) or minutes.
        assertStopped("/(a+)+$/.test(new Array(60).join('a') + '!');")
        assertStopped("Array.prototype.indexOf.call({length: 2147483647}, 1);")
        assertStopped("Array.prototype.forEach.call({length: 2147483647}, function () {});")
        assertStopped("var a = []; for (var i = 0; i < 300000; i++) a.push(i); a.sort(); a.sort(); a.sort(); a.sort();")
    }

    func testTheTimeoutCannotBeCaught() throws {
        assertStopped("var caught = 'no'; try { for (;;) {} } catch (e) { caught = 'yes'; for (;;) {} } finally { for (;;) {} }")
        // Hoisted, assigned before the loop; the catch block never ran an instruction.
        XCTAssertEqual(try engine.evaluate("caught"), .string("no"))
    }

    func testExpressionsAndAssignmentsStopToo() throws {
        XCTAssertThrowsError(try engine.evaluate("(function () { for (;;) {} })()")) { error in
            XCTAssertEqual((error as? ScriptError)?.message, Self.timeout)
        }
        XCTAssertThrowsError(try engine.evaluateBoolean("(function () { while (1) {} })()")) { error in
            XCTAssertEqual((error as? ScriptError)?.message, Self.timeout)
        }
        try engine.declare("x", value: .number(1))
        XCTAssertThrowsError(try engine.assign(location: "x", expression: "(function () { for (;;) {} })()")) { error in
            XCTAssertEqual((error as? ScriptError)?.message, Self.timeout)
        }
        XCTAssertEqual(try engine.evaluate("x"), .number(1))
    }

    func testEachEvaluationGetsTheWholeLimit() throws {
        // Four evaluations of about 40% of the limit each: none is stopped, the limit is not
        // shared between them.
        try engine.execute(script: """
            function spin(ms) { var end = Date.now() + ms; while (Date.now() < end) {} return ms; }
            """)
        for _ in 0..<4 {
            XCTAssertEqual(try engine.evaluate("spin(40)"), .number(40))
        }
    }

    func testAHostFunctionCallingBackSharesTheOuterDeadline() throws {
        let engine = try XCTUnwrap(engine)
        try engine.registerFunction("callBack") { [unowned engine] _ in
            try engine.evaluate("(function () { for (;;) {} })()")
        }
        assertStopped("var after = 'not reached'; try { callBack(); } catch (e) {} for (;;) {}")
    }

    func testTheLimitCanBeChangedAndSwitchedOff() throws {
        XCTAssertEqual(engine.timeLimit, Self.limit)
        engine.timeLimit = nil
        XCTAssertNil(engine.timeLimit)
        // 150 ms of work: past the old limit, allowed now.
        try engine.execute(script: "var end = Date.now() + 150; while (Date.now() < end) {}")
        engine.timeLimit = .milliseconds(20)
        XCTAssertThrowsError(try engine.execute(script: "for (;;) {}")) { error in
            XCTAssertEqual((error as? ScriptError)?.message,
                           "execution timeout: the script ran longer than its limit of 20 ms and was stopped")
        }
        XCTAssertEqual(try ECMAScriptEngine().timeLimit, .seconds(1))
    }

    // MARK: - In a document: error.execution, a legal configuration, a usable machine

    /// Options with the short limit.
    static func options() -> SCXMLMachine.Options {
        var options = SCXMLMachine.Options.withECMAScript
        options.scriptLimits.timePerEvaluation = limit
        return options
    }

    func testRunawayContentRaisesErrorExecutionAndTheDocumentGoesOn() throws {
        // One state per place a script runs; each fails its block (the log after it never
        // runs), the error event moves on.
        let loop = "(function () { for (;;) {} })()"
        let failing = [
            "<script>while (true) {}</script>",
            #"<log expr="\#(loop)"/>"#,
            #"<assign location="n" expr="\#(loop)"/>"#,
            #"<foreach array="\#(loop)" item="x"/>"#,
            #"<foreach array="[1, 2]" item="x"><script>do {} while (x);</script></foreach>"#,
            #"<send event="e" delayexpr="\#(loop)"/>"#,
        ]
        var states = "<datamodel><data id=\"n\" expr=\"0\"/></datamodel>\n"
        for (index, content) in failing.enumerated() {
            let next = index + 1 < failing.count ? "s\(index + 1)" : "guarded"
            states += """
                <state id="s\(index)">
                  <onentry>\(content)<log expr="'after \(index)'"/></onentry>
                  <transition event="error.execution" target="\(next)"><log expr="_event.data"/></transition>
                </state>

                """
        }
        states += """
            <state id="guarded">
              <transition cond="\(loop)" target="fail"/>
              <transition event="error.execution" target="idle"><log expr="_event.data"/></transition>
            </state>
            <state id="idle"><transition event="go" cond="n === 0" target="done"/></state>
            <final id="done"/><final id="fail"/>
            """
        let session = try TestSession(states, options: Self.options())
        try session.machine.start()
        let logs = session.waitForLogs(failing.count + 1, seconds: 30)
        // <assign> evaluates `location = expr`; a failing `cond` names its attribute.
        let expected = [
            "while (true) {}", loop, "n = \(loop)", loop, "do {} while (x);", loop,
        ].map { "RangeError: \(Self.timeout) (in `\($0)`)" }
            + [#"cond="\#(loop)": RangeError: \#(Self.timeout) (in `\#(loop)`)"#]
        XCTAssertEqual(logs, expected)
        XCTAssertEqual(session.machine.configuration, ["idle"])
        try session.machine.send("go")
        XCTAssertTrue(session.machine.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertEqual(session.machine.configuration, ["done"])
    }

    func testTheDefaultLimitIsOneSecondAndNilSwitchesItOff() throws {
        XCTAssertEqual(SCXMLMachine.Options().scriptLimits.timePerEvaluation, .seconds(1))
        var options = SCXMLMachine.Options.withECMAScript
        options.scriptLimits.timePerEvaluation = nil
        // 1.2 s of work in one <script>: allowed without a limit.
        let session = try TestSession("""
            <state id="s0">
              <onentry><script>var end = Date.now() + 1200; while (Date.now() &lt; end) {}</script><log expr="'finished'"/></onentry>
              <transition target="done"/>
            </state>
            <final id="done"/>
            """, options: options)
        XCTAssertEqual(try session.run(seconds: 30), ["finished"])
    }
}
