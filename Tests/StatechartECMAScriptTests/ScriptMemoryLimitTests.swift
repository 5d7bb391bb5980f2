import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// The memory bound (issue 12, item 4): the heaps of one budget (in a document: of one document
/// tree) never hold more than its limit; a script growing without end fails with
/// `alloc failed`, inside the script, and the engine stays usable.
final class ScriptMemoryLimitTests: XCTestCase {
    static func allocFailed(_ limit: Int) -> String {
        "alloc failed: the ECMAScript heaps of this document tree reached their memory limit of \(limit) bytes"
    }

    /// Grows an array of 1 KB strings until something stops it. The array is local: once the
    /// error unwinds the function it is garbage (a global holding a full heap would leave no
    /// room even to compile the next expression).
    static let growForever = "var kb = new Array(1025).join('x'), n = 0; (function () { var a = []; for (;;) { a.push(kb + n); n++; } })();"

    /// The time limit of these tests: long, so only memory stops the scripts (on a loaded machine
    /// filling megabytes near the limit, with garbage collections, takes seconds).
    static let timeLimit = Duration.seconds(120)

    func testAnArrayGrowingForeverStopsAtTheLimit() throws {
        let limit = 8 << 20
        let engine = try ECMAScriptEngine(memoryLimit: limit, timeLimit: Self.timeLimit)
        XCTAssertThrowsError(try engine.execute(script: Self.growForever)) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "Error")
            XCTAssertEqual((error as? ScriptError)?.message, Self.allocFailed(limit))
        }
        XCTAssertLessThanOrEqual(engine.memoryBudget.inUse, limit)
        // It got close to the limit before failing: at least 7 MB of 1 KB strings survived.
        XCTAssertEqual(try engine.evaluateBoolean("n > 7 * 1024"), true)
        try engine.collectGarbage()
        XCTAssertLessThan(engine.memoryInUse, 1 << 20)
        XCTAssertEqual(try engine.evaluate("[1, 2, 3].length"), .number(3))
    }

    func testAScriptMayCatchTheFailureAndGoOn() throws {
        let engine = try ECMAScriptEngine(memoryLimit: 4 << 20, timeLimit: Self.timeLimit)
        try engine.execute(script: "var outcome; try { \(Self.growForever) } catch (e) { outcome = e.message; }")
        // Inside the script the error is Duktape's own: "alloc failed", or, when the heap had
        // no room left even for that error object, its preallocated DoubleError. The
        // explanation is added only when an error reaches the host.
        XCTAssertEqual(try engine.evaluateBoolean("outcome === 'alloc failed' || outcome === 'error in error handling'"), true)
        XCTAssertEqual(try engine.evaluate("n > 3 * 1024 ? 'filled' : n"), .string("filled"))
    }

    func testEnginesOfOneBudgetShareItsLimit() throws {
        let limit = 6 << 20
        let budget = ECMAScriptMemoryBudget(limit: limit)
        let first = try ECMAScriptEngine(memoryBudget: budget, timeLimit: Self.timeLimit)
        let second = try ECMAScriptEngine(memoryBudget: budget, timeLimit: Self.timeLimit)
        XCTAssertEqual(budget.inUse, first.memoryInUse + second.memoryInUse)
        // About 4 MB each: alone each fits, together they do not. The strings are built in a
        // function, so a refused fill leaves nothing behind (the budget's slack after a refusal
        // would otherwise depend on which allocation was refused).
        let fill = """
            var kept = (function () {
                var kb = new Array(1025).join('y'), strings = [];
                for (var i = 0; i < 4000; i++) { strings.push(kb + i); }
                return strings;
            })();
            """
        try first.execute(script: fill)
        XCTAssertThrowsError(try second.execute(script: fill)) { error in
            XCTAssertEqual((error as? ScriptError)?.message, Self.allocFailed(limit))
        }
        XCTAssertLessThanOrEqual(budget.inUse, limit)
        try first.execute(script: "kept = null;")
        try first.collectGarbage()
        try second.execute(script: fill)
        XCTAssertEqual(try second.evaluate("kept.length"), .number(4000))
    }

    func testABudgetTooSmallForAHeapRefusesTheEngine() {
        XCTAssertThrowsError(try ECMAScriptEngine(memoryLimit: 16 << 10)) { error in
            XCTAssertEqual((error as? ScriptError)?.message, "could not create a Duktape heap")
        }
    }

    // MARK: - In a document tree

    /// A parent that keeps about 3 MB and invokes a child that tries to build about 3 MB more;
    /// the child logs what happened and ends.
    func runParentAndChild(limit: Int) throws -> [String] {
        let child = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">"#
            + """
            <state id="c0">
              <onentry><script>var kb = new Array(1025).join('c'), built = (function () { var mine = []; for (var i = 0; i &lt; 3000; i++) { mine.push(kb + i); } return mine.length; })();</script>
                <log expr="'child built ' + built"/><raise event="built"/></onentry>
              <transition event="error.execution" target="end"><log expr="'child: ' + _event.data"/></transition>
              <transition event="built" target="end"/>
            </state>
            <final id="end"/>
            </scxml>
            """
        var options = SCXMLMachine.Options.withECMAScript
        options.scriptLimits.memoryPerDocumentTree = limit
        options.scriptLimits.timePerEvaluation = Self.timeLimit
        let session = try TestSession("""
            <datamodel><data id="kept" expr="(function () { var kb = new Array(1025).join('p'), a = []; for (var i = 0; i &lt; 3000; i++) { a.push(kb + i); } return a; })()"/></datamodel>
            <state id="s0">
              <invoke id="kid"><content>\(child)</content></invoke>
              <transition event="done.invoke.kid" target="done"><log expr="'parent still has ' + kept.length"/></transition>
            </state>
            <final id="done"/>
            """, options: options)
        return try session.run(seconds: 30)
    }

    func testTheHeapsOfADocumentTreeShareOneLimit() throws {
        let limit = 5 << 20
        let expression = "var kb = new Array(1025).join('c'), built = (function () { var mine = []; for (var i = 0; i < 3000; i++) { mine.push(kb + i); } return mine.length; })();"
        XCTAssertEqual(try runParentAndChild(limit: limit), [
            "child: Error: \(Self.allocFailed(limit)) (in `\(expression)`)", "parent still has 3000",
        ])
        // The same documents with room for both: the child's script runs.
        XCTAssertEqual(try runParentAndChild(limit: 32 << 20), ["child built 3000", "parent still has 3000"])
    }

    func testTheDefaultIs256MiBPerDocumentTree() {
        XCTAssertEqual(SCXMLMachine.Options().scriptLimits.memoryPerDocumentTree, 256 << 20)
        XCTAssertEqual(ECMAScriptEngine.defaultMemoryLimit, 256 << 20)
    }
}
