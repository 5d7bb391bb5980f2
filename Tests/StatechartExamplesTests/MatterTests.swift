import Statechart
import StatechartExamples
import XCTest

final class MatterTests: XCTestCase {
    func testPhaseChangesAndTheirSideEffects() throws {
        let recorder = Recorder()
        let matter = try Matter.machine(clock: TestClock()) { recorder.add($0) }
        XCTAssertEqual(matter.configuration, [.solid])

        let melt = try matter.transition(on: .melt)
        XCTAssertTrue(melt.isHandled)
        XCTAssertEqual(melt.before, [.solid])
        XCTAssertEqual(melt.after, [.liquid])
        XCTAssertEqual(melt.transitions.map(\.source), [.solid])

        let condense = try matter.transition(on: .condense)     // Tinder's Transition.Invalid
        XCTAssertFalse(condense.isHandled)
        XCTAssertEqual(condense.outcome, .unhandled)
        XCTAssertEqual(condense.after, [.liquid])

        try matter.send(.vaporize)
        try matter.send(.condense)
        try matter.send(.freeze)
        XCTAssertEqual(recorder.take(), ["melted", "vaporized", "condensed", "frozen"])
        XCTAssertEqual(matter.configuration, [.solid])
    }

    func testEveryInvalidEventIsReported() throws {
        let recorder = Recorder()
        let matter = try Matter.machine(clock: TestClock()) { _ in }
        matter.onUnhandled { recorder.add("invalid \($0)") }
        for event in [Matter.Event.freeze, .vaporize, .condense, .melt, .melt] { try matter.send(event) }
        XCTAssertEqual(recorder.take(), ["invalid freeze", "invalid vaporize", "invalid condense", "invalid melt"])
    }
}
