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

    /// Grows an array of 1 KB strings until something stops it.
    static let growForever = "var a = []; for (var i = 0; ; i++) { a.push(new Array(1025).join('x') + i); }"

    func testAnArrayGrowingForeverStopsAtTheLimit() throws {
        let limit = 8 << 20
        let engine = try ECMAScriptEngine(memoryLimit: limit, timeLimit: .seconds(60))
        XCTAssertThrowsError(try engine.execute(script: Self.growForever)) { error in
            XCTAssertEqual((error as? ScriptError)?.name, "Error")
            XCTAssertEqual((error as? ScriptError)?.message, Self.allocFailed(limit))
        }
        XCTAssertLessThanOrEqual(engine.memoryBudget.inUse, limit)
        // It got close to the limit before failing: at least 7 MB of 1 KB strings survived.
        XCTAssertEqual(try engine.evaluateBoolean("a.length > 7 * 1024"), true)
        try engine.execute(script: "a = null;")
        try engine.collectGarbage()
        XCTAssertLessThan(engine.memoryInUse, 1 << 20)
        XCTAssertEqual(try engine.evaluate("[1, 2, 3].length"), .number(3))
    }

    func testAScriptMayCatchTheFailureAndGoOn() throws {
        let engine = try ECMAScriptEngine(memoryLimit: 4 << 20)
        try engine.execute(script: "var outcome; try { \(Self.growForever) } catch (e) { a = null; outcome = e.message; }")
        // Inside the script the error is Duktape's own; the explanation is added when it
        // reaches the host.
        XCTAssertEqual(try engine.evaluate("outcome"), .string("alloc failed"))
    }

    func testEnginesOfOneBudgetShareItsLimit() throws {
        let limit = 6 << 20
        let budget = ECMAScriptMemoryBudget(limit: limit)
        let first = try ECMAScriptEngine(memoryBudget: budget)
        let second = try ECMAScriptEngine(memoryBudget: budget)
        XCTAssertEqual(budget.inUse, first.memoryInUse + second.memoryInUse)
        // About 4 MB each: alone each fits, together they do not.
        let fill = "var kept = []; for (var i = 0; i < 4000; i++) { kept.push(new Array(1025).join('y') + i); }"
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
              <onentry><script>var mine = []; for (var i = 0; i &lt; 3000; i++) { mine.push(new Array(1025).join('c') + i); }</script>
                <log expr="'child built ' + mine.length"/><raise event="built"/></onentry>
              <transition event="error.execution" target="end"><log expr="'child: ' + _event.data"/></transition>
              <transition event="built" target="end"/>
            </state>
            <final id="end"/>
            </scxml>
            """
        var options = SCXMLMachine.Options.withECMAScript
        options.scriptLimits.memoryPerDocumentTree = limit
        let session = try TestSession("""
            <datamodel><data id="kept" expr="(function () { var a = []; for (var i = 0; i &lt; 3000; i++) { a.push(new Array(1025).join('p') + i); } return a; })()"/></datamodel>
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
        let expression = "var mine = []; for (var i = 0; i < 3000; i++) { mine.push(new Array(1025).join('c') + i); }"
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
