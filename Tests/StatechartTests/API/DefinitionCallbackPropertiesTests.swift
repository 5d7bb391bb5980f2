import Statechart
import XCTest

/// The definitions keep their callbacks boxed (`ActionBox`, `GuardBox`); `onEntry`, `onExit`,
/// `actions`, `guardCondition` and `onStart` are properties over those boxes. Changing a
/// definition through them after it was made must change what the machine runs, in order, and
/// reading them must give back callbacks that do what was stored. And `isActive` by index reads
/// the core's configuration bits itself: a state past the first 64-bit word must answer too.
final class DefinitionCallbackPropertiesTests: XCTestCase {
    func testCallbacksChangedThroughThePropertiesRunInOrder() throws {
        let log = Log()
        let logging: (String) -> Action = { entry in { _ in log.add(entry) } }
        var idle = StateDefinition("idle", onEntry: [logging("enter idle 1")])
        idle.onEntry.append(logging("enter idle 2"))
        idle.onExit = [logging("exit idle")]
        var go = TransitionDefinition(on: "go", to: "busy")
        go.actions.append(logging("take go"))
        go.guardCondition = { _ in log.add("guard go"); return true }
        var stop = TransitionDefinition(on: "stop", guard: { _ in true }, to: "idle")
        stop.guardCondition = nil                       // enabled without a guard
        idle.transitions = [go]
        var busy = StateDefinition("busy", transitions: [stop])
        busy.onEntry.insert(logging("enter busy"), at: 0)
        var chart = ChartDefinition(name: "props", states: [idle, busy])
        chart.onStart = [logging("start")]

        // Read back: the stored callbacks, in order.
        XCTAssertEqual(idle.onEntry.count, 2)
        XCTAssertNotNil(go.guardCondition)
        XCTAssertNil(stop.guardCondition)
        XCTAssertEqual(chart.onStart.count, 1)

        let machine = Machine(try CompiledChart(chart))
        try machine.start()
        XCTAssertEqual(log.take(), ["start", "enter idle 1", "enter idle 2"])
        XCTAssertEqual(try machine.send("go"), .handled)
        XCTAssertEqual(log.take(), ["guard go", "exit idle", "take go", "enter busy"])
        XCTAssertEqual(try machine.send("stop"), .handled)
        XCTAssertEqual(log.take(), ["enter idle 1", "enter idle 2"])
        XCTAssertEqual(machine.configuration, ["idle"])
    }

    /// 100 sibling states (indices 1-100 after the root): `isActive` on states in the second
    /// configuration word (index 64 and up) from a typed guard, and from outside.
    func testIsActiveOfAStatePastTheFirstConfigurationWord() throws {
        enum Go: String, ChartEvent { case next, check }
        let log = Log()
        let machine = try StateMachine<Int, Go>(clock: TestClock()) {
            for state in 0..<100 {
                StateNode(state) {
                    On(.next, to: (state + 1) % 100)
                    On(.check, guard: { ctx in
                        log.add("\(state): 70 \(ctx.isActive(70)), 69 \(ctx.isActive(69)), 0 \(ctx.isActive(0))")
                        return false
                    })
                }
            }
        }
        try machine.start()
        for _ in 0..<70 { XCTAssertEqual(try machine.send(.next), .handled) }
        XCTAssertEqual(try machine.send(.check), .unhandled)
        XCTAssertEqual(try machine.send(.next), .handled)
        XCTAssertEqual(try machine.send(.check), .unhandled)
        XCTAssertEqual(log.take(), ["70: 70 true, 69 false, 0 false", "71: 70 false, 69 false, 0 false"])
        XCTAssertTrue(machine.isActive(71))
        XCTAssertFalse(machine.isActive(70))
        XCTAssertFalse(machine.isActive(100))          // not a state of the chart
    }
}
