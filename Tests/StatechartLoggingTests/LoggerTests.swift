import Logging
import Statechart
import StatechartLogging
import StatechartSCXML
import XCTest

/// Machines log to the swift-log Logger the app provides: errors, unhandled events,
/// transitions when asked, and SCXML `<log>`.
final class LoggerTests: XCTestCase {
    enum Phase: Hashable, Sendable { case idle, running, a, b }
    enum Signal: ChartEvent { case start, stray }

    func testTransitionsAndUnhandledEventsAreLoggedAtTheirLevels() throws {
        let (logger, records) = RecordingLogHandler.logger()
        let machine = try StateMachine<Phase, Signal>(name: "job", clock: TestClock()) {
            StateNode(.idle) { On(.start, to: .running) }
            StateNode(.running)
        }
        machine.log(to: logger, transitions: .debug, unhandled: .notice)
        try machine.start()
        try machine.send(.start)
        try machine.send(.stray)
        XCTAssertEqual(records.all, [
            .init(level: .debug, message: "idle -start-> running", metadata: ["chart": "job"]),
            .init(level: .notice, message: "unhandled event 'stray'", metadata: ["chart": "job"]),
        ])
    }

    func testWithoutTransitionLevelsOnlyErrorsAndUnhandledEventsAreLogged() throws {
        let (logger, records) = RecordingLogHandler.logger(level: .info)
        let machine = try StateMachine<Phase, Signal>(name: "job", clock: TestClock()) {
            StateNode(.idle) { On(.start, to: .running) }
            StateNode(.running)
        }
        machine.log(to: logger)          // unhandled at .debug: below the logger's .info
        try machine.start()
        try machine.send(.start)
        try machine.send(.stray)
        XCTAssertEqual(records.all, [])
    }

    func testAnErrorNoCallerReceivesIsLoggedAsAnError() throws {
        let (logger, records) = RecordingLogHandler.logger()
        let clock = TestClock()
        var options = MachineOptions()
        options.maximumStepsPerMacrostep = 10
        let machine = try StateMachine<Phase, Signal>(name: "loop", options: options, clock: clock) {
            StateNode(.idle) { After(.seconds(1), to: .a) }
            StateNode(.a) { Always(to: .b) }
            StateNode(.b) { Always(to: .a) }
        }
        machine.log(to: logger, unhandled: nil)
        try machine.start()
        clock.advance(by: .seconds(1))          // the timer's macrostep runs away: no caller to throw to
        XCTAssertEqual(records.all.count, 1)
        XCTAssertEqual(records.all.first?.level, .error)
        XCTAssertEqual(records.all.first?.metadata, ["chart": "loop"])
        XCTAssertTrue(records.all.first?.message.hasPrefix("runaway macrostep: more than 10 microsteps") == true,
                      records.all.first?.message ?? "nothing logged")
    }

    func testSCXMLLogGoesToTheLoggerWithItsLabel() throws {
        let (logger, records) = RecordingLogHandler.logger()
        let machine = try SCXMLMachine(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="s"><onentry><log label="greeting"/></onentry>
                <transition event="go" target="t"/></state>
              <state id="t"/>
            </scxml>
            """, fileName: "log.scxml")
        machine.log(to: logger, level: .notice, transitions: .trace)
        try machine.start()
        try machine.send("go")
        XCTAssertEqual(records.all, [
            .init(level: .notice, message: "", metadata: ["label": "greeting"]),
            .init(level: .trace, message: "s -go-> t", metadata: ["chart": machine.machine.chart.name]),
        ])
    }
}
