import Foundation
@testable import StatechartCLI
import StatechartSCXML
import XCTest

/// `trace --verbose` writes each microstep as soon as it has ended (issue 28): a runaway
/// macrostep of 100,000 microsteps no longer keeps them all in memory until it stops.
final class MicrostepStreamingTests: XCTestCase {
    /// Lines written so far, and how many there were when the machine had changed state 1,000 times.
    private final class Probe: @unchecked Sendable {
        // @unchecked: every field is read and written holding `lock`.
        private let lock = NSLock()
        private var lines: [String] = []
        private var changes = 0
        private var linesAtThousandthChange: Int?
        func write(_ line: String) { lock.withLock { lines.append(line) } }
        func stateChanged() {
            lock.withLock {
                changes += 1
                if changes == 1000 { linesAtThousandthChange = lines.count }
            }
        }
        var snapshot: (lines: [String], atThousandth: Int?) { lock.withLock { (lines, linesAtThousandthChange) } }
    }

    func testMicrostepsAreWrittenWhileTheMacrostepRuns() throws {
        let machine = try SCXMLMachine(data: Data("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="a"><transition target="b"/></state>
              <state id="b"><transition target="a"/></state>
            </scxml>
            """.utf8), fileName: "runaway.scxml")
        let probe = Probe()
        let recorder = MicrostepRecorder(machine, output: probe.write)
        machine.machine.onStateChange { _, _ in probe.stateChanged() }     // after the recorder's observer
        XCTAssertThrowsError(try machine.machine.startStep())               // the step bound stops it
        let during = probe.snapshot
        // Start-up's microstep enters a (change 1); microstep k > 1 exits (change 2k - 2) and
        // enters (2k - 1). Change 1,000 is the exit that opens microstep 501, which writes
        // microstep 500: 500 lines while the macrostep is still running.
        XCTAssertEqual(during.atThousandth, 500)
        recorder.finishMicrostep()
        let all = probe.snapshot.lines
        XCTAssertEqual(all.count, during.lines.count + 1)
        XCTAssertEqual(all[1], "{\"microstep\": 2, \"event\": null, \"transitions\": [{\"source\": \"a\", \"targets\": [\"b\"]}], \"exited\": [\"a\"], \"entered\": [\"b\"], \"raised\": [], \"sent\": [], \"errors\": []}")
    }
}
