import Statechart
import XCTest

/// A macrostep that never becomes stable is stopped after a bounded number of steps with an
/// error, between two microsteps, leaving a legal configuration and a usable machine.
final class RunawayTests: XCTestCase {
    final class Flag: @unchecked Sendable { var on = true }

    func testEventlessPingPongStopsWithAnError() throws {
        let flag = Flag()
        let chart = try CompiledChart(ChartDefinition(states: [
            StateDefinition("idle", transitions: [TransitionDefinition(on: "go", to: "a")]),
            StateDefinition("a", transitions: [TransitionDefinition(guard: { _ in flag.on }, to: ["b"])]),
            StateDefinition("b", transitions: [TransitionDefinition(guard: { _ in flag.on }, to: ["a"]),
                                               TransitionDefinition(on: "calm", to: "idle")]),
        ]))
        let m = Machine(chart, options: MachineOptions(maximumStepsPerMacrostep: 50))
        try m.start()
        XCTAssertThrowsError(try m.send("go")) { error in
            guard case MachineError.runaway(let steps, let configuration)? = error as? MachineError else {
                return XCTFail("expected runaway, got \(error)")
            }
            XCTAssertEqual(steps, 50)
            // 50 steps: the first microstep of the bound goes a -> b, alternating.
            XCTAssertEqual(configuration, ["a"])
        }
        XCTAssertEqual(m.configuration, ["a"])
        flag.on = false
        try m.send("go")        // a is active: unhandled, the loop is broken by the guard now
        XCTAssertEqual(m.configuration, ["a"])
    }

    func testRaisedEventPingPongStopsWithAnError() throws {
        let chart = try CompiledChart(ChartDefinition(states: [
            StateDefinition("a", transitions: [TransitionDefinition(on: ["ping"], to: ["b"], actions: [{ $0.raise("pong") }])]),
            StateDefinition("b", transitions: [TransitionDefinition(on: ["pong"], to: ["a"], actions: [{ $0.raise("ping") }])]),
        ]))
        let m = Machine(chart, options: MachineOptions(maximumStepsPerMacrostep: 20))
        try m.start()
        XCTAssertThrowsError(try m.send("ping")) { error in
            guard case MachineError.runaway? = error as? MachineError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(m.configuration.count, 1)
        XCTAssertTrue(m.isActive("a") != m.isActive("b"))
    }

    func testRunawayAtStartIsReported() throws {
        let chart = try CompiledChart(ChartDefinition(states: [
            StateDefinition("a", transitions: [TransitionDefinition(to: ["b"])]),
            StateDefinition("b", transitions: [TransitionDefinition(to: ["a"])]),
        ]))
        let m = Machine(chart, options: MachineOptions(maximumStepsPerMacrostep: 10))
        XCTAssertThrowsError(try m.start()) { error in
            XCTAssertEqual("\(error)", "runaway macrostep: more than 10 microsteps and internal events without becoming stable; stopped in [\(m.configuration[0])]")
        }
    }
}
