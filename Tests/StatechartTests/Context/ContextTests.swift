import Foundation
import Statechart
import XCTest

/// The machine's context: read by guards, updated by actions in the order they run, captured
/// and restored by snapshots.
final class ContextTests: XCTestCase {
    struct Tally: Sendable, Codable, Equatable {
        var steps: [String] = []
        var attempts = 0
    }

    func testUpdatesHappenInTheOrderActionsRun() throws {
        let machine = try StateMachine<S, E>(clock: TestClock(), context: Tally()) {
            StateNode(.a, initial: .a1) {
                OnExit { ctx in ctx.updateContext(Tally.self) { $0.steps.append("exit a") } }
                StateNode(.a1) {
                    OnExit { ctx in ctx.updateContext(Tally.self) { $0.steps.append("exit a1") } }
                    On(.go, to: .b) { ctx in ctx.updateContext(Tally.self) { $0.steps.append("take go") } }
                }
            }
            StateNode(.b, initial: .b1) {
                OnEntry { ctx in ctx.updateContext(Tally.self) { $0.steps.append("enter b") } }
                OnEntry { ctx in
                    // A later action sees the earlier one's update within the same microstep.
                    let seen = ctx.context(as: Tally.self)!.steps.count
                    ctx.updateContext(Tally.self) { $0.steps.append("second entry saw \(seen)") }
                }
                StateNode(.b1) { OnEntry { ctx in ctx.updateContext(Tally.self) { $0.steps.append("enter b1") } } }
            }
        }
        try machine.start()
        XCTAssertEqual(machine.context(as: Tally.self), Tally())
        try machine.send(.go)
        XCTAssertEqual(machine.context(as: Tally.self)?.steps,
                       ["exit a1", "exit a", "take go", "enter b", "second entry saw 4", "enter b1"])
    }

    func testGuardsReadTheContextActionsUpdated() throws {
        let machine = try StateMachine<S, E>(clock: TestClock(), context: Tally()) {
            StateNode(.running) {
                On(.tick, to: .running, guard: { ctx in ctx.context(as: Tally.self)!.attempts < 2 }) { ctx in
                    ctx.updateContext(Tally.self) { $0.attempts += 1 }
                }
                On(.tick, to: .done)
            }
            StateNode(.done)
        }
        try machine.start()
        try machine.send(.tick)
        try machine.send(.tick)
        XCTAssertEqual(machine.configuration, [.running])
        XCTAssertEqual(machine.context(as: Tally.self)?.attempts, 2)
        try machine.send(.tick)          // the guard now fails: the fallback transition runs
        XCTAssertEqual(machine.configuration, [.done])
        XCTAssertEqual(machine.context(as: Tally.self)?.attempts, 2)
    }

    func testSnapshotRoundTripCarriesTheContext() throws {
        let chart = try TypedChart<S, E>(name: "counter") {
            StateNode(.idle) { On(.start, to: .running) }
            StateNode(.running) {
                On(.tick) { ctx in ctx.updateContext(Tally.self) { $0.attempts += 1 } }
                On(.stop, to: .done, guard: { ctx in ctx.context(as: Tally.self)!.attempts >= 3 })
            }
            StateNode(.done)
        }
        let original = StateMachine(chart, clock: TestClock(), context: Tally())
        try original.start()
        try original.send(.start)
        try original.send(.tick)
        try original.send(.tick)
        let json = try JSONEncoder().encode(try original.snapshot(context: Tally.self))
        let decoded = try JSONDecoder().decode(StateMachine<S, E>.ContextSnapshot<Tally>.self, from: json)
        XCTAssertEqual(decoded.context, Tally(steps: [], attempts: 2))
        XCTAssertEqual(decoded.machine.activeStates, [.running])
        let restored = try StateMachine(chart, restoring: decoded, clock: TestClock())
        for machine in [original, restored] {
            XCTAssertEqual(try machine.send(.stop), .unhandled)      // 2 ticks are not enough
            try machine.send(.tick)
            XCTAssertEqual(try machine.send(.stop), .handled)
            XCTAssertEqual(machine.configuration, [.done])
            XCTAssertEqual(machine.context(as: Tally.self)?.attempts, 3)
        }
    }

    func testSnapshotOfTheWrongContextTypeIsAClearError() throws {
        let machine = try StateMachine<S, E>(clock: TestClock(), context: 7) { StateNode(.idle) }
        try machine.start()
        XCTAssertThrowsError(try machine.snapshot(context: Tally.self)) { error in
            XCTAssertEqual(error as? SnapshotError,
                           .contextMismatch(expected: String(reflecting: Tally.self), found: "Swift.Int"))
        }
    }

    func testAMachineMadeWithoutAContextHasNoneToReadOrSnapshot() throws {
        let machine = try StateMachine<S, E>(clock: TestClock()) { StateNode(.idle) }
        try machine.start()
        XCTAssertNil(machine.context(as: Tally.self))
        XCTAssertThrowsError(try machine.snapshot(context: Tally.self)) { error in
            XCTAssertEqual(error as? SnapshotError,
                           .contextMismatch(expected: String(reflecting: Tally.self), found: "no context"))
        }
    }
}
