import Dispatch
import Foundation
import Statechart
import Synchronization
import XCTest
@testable import StatechartSCXML

/// Runaway work that the step bound of one macrostep cannot see: a chart that sends itself an
/// event on every entry (each event is a new macrostep), one that sends two (its queue grows
/// without end), and slow steps that a wall-clock timeout must stop (`Machine.interrupt()`).
final class RunawayBoundTests: XCTestCase {
    /// `a` sends `again` to itself on entry, `copies` times; `again` re-enters `a`; `stop` ends.
    private func selfSending(copies: Int, options: SCXMLMachine.Options = .init()) throws -> SCXMLMachine {
        let sends = String(repeating: #"<send event="again"/>"#, count: copies)
        return try SCXMLMachine(string: """
            \(scxmlRoot) initial="a">
              <state id="a">
                <onentry><log label="entered"/>\(sends)</onentry>
                <transition event="again" target="a"/>
                <transition event="stop" target="done"/>
              </state>
              <final id="done"/>
            </scxml>
            """, fileName: "test.scxml", options: options)
    }

    func testSelfSendOnEveryEntryStopsStartUpAtTheDefaultBound() throws {
        // Before the bound, start() never returned.
        let machine = try selfSending(copies: 1)
        let entries = Atomic<Int>(0)
        machine.onLog { _, _ in entries.add(1, ordering: .relaxed) }
        XCTAssertThrowsError(try machine.start()) { error in
            // One `again` is always queued: each of the 10,000 processed re-queues one.
            XCTAssertEqual(error as? MachineError, .tooManyQueuedEvents(limit: 10_000, discarded: 1, configuration: ["a"]))
            XCTAssertEqual("\(error)", "the chart kept sending events to itself: one send processed 10000 queued events (MachineOptions.maximumQueuedEventsPerSend) and 1 more were discarded; stopped in [a]")
        }
        // The initial entry plus one re-entry per processed event.
        XCTAssertEqual(entries.load(ordering: .relaxed), 10_001)
        // Legal and still usable: the discarded `again` does not come back.
        XCTAssertEqual(try machine.send("stop"), .handled)
        XCTAssertEqual(machine.configuration, ["done"])
        XCTAssertTrue(machine.isFinished)
    }

    func testFanOutIsBoundedToo() throws {
        // Two sends per entry: after k events, 2 + 2k were queued and k processed, so 2 + k
        // wait. With a bound of 5: 5 processed, 7 discarded, 6 entries.
        var options = SCXMLMachine.Options()
        options.machine.maximumQueuedEventsPerSend = 5
        let machine = try selfSending(copies: 2, options: options)
        let entries = Atomic<Int>(0)
        machine.onLog { _, _ in entries.add(1, ordering: .relaxed) }
        XCTAssertThrowsError(try machine.start()) { error in
            XCTAssertEqual(error as? MachineError, .tooManyQueuedEvents(limit: 5, discarded: 7, configuration: ["a"]))
        }
        XCTAssertEqual(entries.load(ordering: .relaxed), 6)
        // A host's send is bounded the same way, on its own: its event re-enters `a` (queueing
        // 2), then 5 queued events are processed (queueing 10): 6 entries, 7 left.
        entries.store(0, ordering: .relaxed)
        XCTAssertThrowsError(try machine.send("again")) { error in
            XCTAssertEqual(error as? MachineError, .tooManyQueuedEvents(limit: 5, discarded: 7, configuration: ["a"]))
        }
        XCTAssertEqual(entries.load(ordering: .relaxed), 6)
    }

    func testBoundLetsAChartThatStopsSendingFinish() throws {
        // Exactly the bound: 3 queued events, each processed, then stable.
        var options = SCXMLMachine.Options()
        options.machine.maximumQueuedEventsPerSend = 3
        let machine = try SCXMLMachine(string: """
            \(scxmlRoot) initial="s0">
              <state id="s0"><onentry><send event="next"/></onentry><transition event="next" target="s1"/></state>
              <state id="s1"><onentry><send event="next"/></onentry><transition event="next" target="s2"/></state>
              <state id="s2"><onentry><send event="next"/></onentry><transition event="next" target="s3"/></state>
              <final id="s3"/>
            </scxml>
            """, fileName: "test.scxml", options: options)
        try machine.start()
        XCTAssertEqual(machine.configuration, ["s3"])
    }

    /// `a` re-enters itself forever through an eventless transition, logging each entry.
    private func eventlessLoop() throws -> SCXMLMachine {
        try SCXMLMachine(string: """
            \(scxmlRoot) initial="idle">
              <state id="idle"><transition event="go" target="a"/></state>
              <state id="a">
                <onentry><log label="entered"/></onentry>
                <transition target="a"/>
                <transition event="leave" target="idle"/>
              </state>
            </scxml>
            """, fileName: "test.scxml")
    }

    func testInterruptStopsARunawayMacrostepBetweenMicrosteps() throws {
        // Interrupted from its own third entry: exactly three entries, then the error, and
        // the configuration is the state just entered.
        let machine = try eventlessLoop()
        let entries = Atomic<Int>(0)
        let core = machine.machine
        machine.onLog { _, _ in
            if entries.add(1, ordering: .relaxed).newValue == 3 { core.interrupt() }
        }
        try machine.start()
        XCTAssertThrowsError(try machine.send("go")) { error in
            XCTAssertEqual(error as? MachineError, .interrupted(configuration: ["a"]))
            XCTAssertEqual("\(error)", "interrupted between two microsteps; stopped in [a]")
        }
        XCTAssertEqual(entries.load(ordering: .relaxed), 3)
        XCTAssertTrue(core.isInterrupted)
        // Still interrupted: `leave`'s own microstep runs, nothing after it is needed.
        XCTAssertEqual(try machine.send("leave"), .handled)
        XCTAssertEqual(machine.configuration, ["idle"])
        // Still interrupted: `go` enters `a` once, then the loop stops at its first step.
        XCTAssertThrowsError(try machine.send("go")) { error in
            XCTAssertEqual(error as? MachineError, .interrupted(configuration: ["a"]))
        }
        XCTAssertEqual(entries.load(ordering: .relaxed), 4)
        // Cleared: the loop runs to the step bound again, 100,000 microsteps after `go`'s own.
        core.clearInterrupt()
        XCTAssertFalse(core.isInterrupted)
        XCTAssertEqual(try machine.send("leave"), .handled)
        XCTAssertThrowsError(try machine.send("go")) { error in
            XCTAssertEqual(error as? MachineError, .runaway(steps: 100_000, configuration: ["a"]))
        }
        XCTAssertEqual(entries.load(ordering: .relaxed), 4 + 1 + 100_000)
    }

    func testInterruptFromAnotherThreadStopsSlowSteps() throws {
        // 100,000 entries of 1 ms each would take 100 s to reach the step bound; the
        // interrupt from a timer thread stops the macrostep within a step of it.
        let machine = try eventlessLoop()
        let entries = Atomic<Int>(0)
        machine.onLog { _, _ in
            entries.add(1, ordering: .relaxed)
            usleep(1_000)
        }
        try machine.start()
        let core = machine.machine
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { core.interrupt() }
        let started = DispatchTime.now()
        XCTAssertThrowsError(try machine.send("go")) { error in
            XCTAssertEqual(error as? MachineError, .interrupted(configuration: ["a"]))
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        XCTAssertLessThan(seconds, 20, "the interrupt was not honoured")
        XCTAssertLessThan(entries.load(ordering: .relaxed), 100_000)
    }
}
