import Statechart
import StatechartExamples
import XCTest

final class TurnstileTests: XCTestCase {
    struct Gate: Turnstile.Hardware {
        let recorder: Recorder
        func unlock() { recorder.add("unlock") }
        func lock() { recorder.add("lock") }
        func soundAlarm() { recorder.add("alarm") }
        func refund() { recorder.add("refund") }
    }

    func testACoinUnlocksAndAPushLocksAgain() throws {
        let recorder = Recorder()
        let turnstile = try Turnstile(hardware: Gate(recorder: recorder), clock: TestClock())
        XCTAssertTrue(turnstile.isLocked)
        XCTAssertEqual(try turnstile.push(), .handled)         // targetless: the alarm sounds
        XCTAssertEqual(try turnstile.insertCoin(), .handled)
        XCTAssertEqual(try turnstile.insertCoin(), .handled)   // refunded
        XCTAssertFalse(turnstile.isLocked)
        XCTAssertEqual(try turnstile.push(), .handled)
        XCTAssertTrue(turnstile.isLocked)
        XCTAssertEqual(recorder.take(), ["alarm", "unlock", "refund", "lock"])
        XCTAssertEqual(turnstile.machine.configuration, [.locked])
    }

    func testTheChartCanAnswerBeforeSending() throws {
        let turnstile = try Turnstile(hardware: Gate(recorder: Recorder()), clock: TestClock())
        XCTAssertTrue(turnstile.machine.canHandle(.coin))
        let result = try turnstile.machine.transition(on: .coin)
        XCTAssertEqual(result.before, [.locked])
        XCTAssertEqual(result.after, [.unlocked])
        XCTAssertEqual(result.transitions.map(\.description), ["locked -coin-> unlocked"])
    }
}
