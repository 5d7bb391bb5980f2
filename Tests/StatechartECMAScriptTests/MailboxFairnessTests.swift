import Foundation
import Statechart
import Synchronization
import StatechartSCXML
import XCTest

/// A session whose children keep its mailbox full must still let the host in: each poke of the
/// session's worker processes what the mailbox held, then lets the machine go (issue 12,
/// defect 4; found by the scxml-ecma fuzz harness, Tests/Fuzz/findings/scxml-ecma/).
final class MailboxFairnessTests: XCTestCase {
    /// `s0` invokes two children that finish at once, and re-enters itself on every event: each
    /// `done.invoke` re-invokes both, forever (legal SCXML: the loop is the chart's own).
    static let reinvokingChart = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s0">
          <state id="s0">
            <onentry><log expr="'entered'"/></onentry>
            <invoke type="scxml"><content><scxml version="1.0" datamodel="ecmascript"><final id="f1"/></scxml></content></invoke>
            <invoke type="scxml"><content><scxml version="1.0" datamodel="ecmascript"><final id="f2"/></scxml></content></invoke>
            <transition event="stop" target="done"/>
            <transition event="*" target="s0"/>
          </state>
          <final id="done"/>
        </scxml>
        """

    func testTheHostGetsTheMachineWhileChildrenKeepItsMailboxFull() throws {
        var options = SCXMLMachine.Options.withECMAScript
        options.clock = TestClock()
        let machine = try SCXMLMachine(string: Self.reinvokingChart, fileName: "reinvoke.scxml", options: options)
        let entries = Mutex(0)
        machine.onLog { _, message in if message == "entered" { entries.withLock { $0 += 1 } } }
        try machine.start()
        // Wait until the loop runs on the session's worker (the log hook needs no machine).
        let deadline = Date().addingTimeInterval(30)
        while entries.withLock({ $0 }) < 20 && Date() < deadline { usleep(1_000) }
        XCTAssertGreaterThanOrEqual(entries.withLock { $0 }, 20, "the children's done.invoke events did not re-enter s0")
        // The host's calls must get through while the loop goes on. Done
        // on another thread so that a starved host fails the test instead of hanging it.
        let finished = DispatchSemaphore(value: 0)
        let results = Mutex<[String]>([])
        Thread {
            for _ in 0..<20 {
                _ = machine.isFinished
                _ = machine.configuration
            }
            let outcome = (try? machine.send("stop")).map { "\($0)" } ?? "threw"
            results.withLock { $0.append(outcome) }
            results.withLock { $0.append("finished: \(machine.isFinished)") }
            finished.signal()
        }.start()
        // A liveness bound, not a speed test: without the fix the host waits for the runaway
        // bound of tens of thousands of invocations (minutes under the sanitizers).
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "the host never got the machine")
        XCTAssertEqual(results.withLock { $0 }.last, "finished: true")
        machine.machine.stop()
    }
}
