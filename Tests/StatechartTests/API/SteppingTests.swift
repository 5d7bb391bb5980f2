import Statechart
import XCTest

/// `startStep()` and `step(_:)`: one macrostep at a time, the machine's self-sent events held
/// until `processQueuedEvents()` (what `statechart trace` prints between).
final class SteppingTests: XCTestCase {
    func testStartStepHoldsWhatStartUpSentToTheMachine() throws {
        let chart = try CompiledChart(ChartDefinition(name: "boot", states: [
            StateDefinition("booting", transitions: [TransitionDefinition(on: "ready", to: "idle")],
                            onEntry: [{ ctx in ctx.send("ready") }]),
            StateDefinition("idle", transitions: [TransitionDefinition(on: "go", to: "running")]),
            StateDefinition("running"),
        ]))
        let machine = Machine(chart)
        try machine.startStep()
        XCTAssertEqual(machine.configuration, ["booting"])
        XCTAssertTrue(machine.hasQueuedEvents)
        try machine.processQueuedEvents()
        XCTAssertEqual(machine.configuration, ["idle"])
        XCTAssertFalse(machine.hasQueuedEvents)
        XCTAssertThrowsError(try machine.startStep()) { XCTAssertEqual($0 as? MachineError, .alreadyStarted) }

        let started = Machine(chart)
        try started.start()     // start() runs them at once
        XCTAssertEqual(started.configuration, ["idle"])
    }
}
