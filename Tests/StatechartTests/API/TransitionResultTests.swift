import Statechart
import XCTest

/// Sending reports whether the event was handled; `transition(on:)` also reports the
/// transitions taken and the configurations before and after. `canHandle` asks without sending.
final class TransitionResultTests: XCTestCase {
    func player() throws -> StateMachine<S, E> {
        try StateMachine<S, E>(name: "player", clock: TestClock()) {
            StateNode(.stopped) { On(.start, to: .playing) }
            StateNode(.playing) {
                StateNode(.track1) { On(.next, to: .track2) }
                StateNode(.track2) { Always(to: .done) }
                Final(.done)
                On(.pause, to: .paused)
                OnDone(to: .stopped)
            }
            StateNode(.paused) { On(.resume, to: .playing) }
        }
    }

    func testHandledResultListsEveryTransitionOfTheMacrostepInOrder() throws {
        let m = try player()
        try m.start()
        try m.send(.start)
        let result = try m.transition(on: .next)
        XCTAssertTrue(result.isHandled)
        XCTAssertEqual(result.outcome, .handled)
        XCTAssertEqual(result.event, .next)
        XCTAssertEqual(result.before, [.track1])
        XCTAssertEqual(result.after, [.stopped])
        XCTAssertEqual(result.transitions.map(\.source), [.track1, .track2, .playing])
        XCTAssertEqual(result.transitions.map(\.targets), [[.track2], [.done], [.stopped]])
        XCTAssertEqual(result.transitions.map(\.event), [.next, nil, nil])
        XCTAssertEqual(result.transitions.map { $0.record.event?.name }, ["next", nil, "done.state.playing"])
        XCTAssertEqual(result.transitions.map(\.description),
                       ["track1 -next-> track2", "track2 -ε-> done", "playing -done.state.playing-> stopped"])
    }

    func testUnhandledResultKeepsTheConfiguration() throws {
        let m = try player()
        try m.start()
        let result = try m.transition(on: .pause)
        XCTAssertFalse(result.isHandled)
        XCTAssertEqual(result.outcome, .unhandled)
        XCTAssertEqual(result.transitions.count, 0)
        XCTAssertEqual(result.before, [.stopped])
        XCTAssertEqual(result.after, [.stopped])
    }

    func testResultFromInsideAnActionIsQueued() throws {
        final class Box: @unchecked Sendable { var result: StateMachine<S, E>.TransitionResult? }
        let box = Box()
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                On(.go, to: .b) { ctx in box.result = try? ctx.machine?.transition(on: .next) }
            }
            StateNode(.b) { On(.next, to: .c) }
            StateNode(.c)
        }
        try m.start()
        let outer = try m.transition(on: .go)
        XCTAssertEqual(box.result?.outcome, .queued)
        XCTAssertEqual(box.result?.transitions.count, 0)
        XCTAssertEqual(outer.transitions.map(\.event), [.go, .next])
        XCTAssertEqual(outer.after, [.c])
    }

    func testHaltedAndNotStartedOutcomes() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) { On(.go, to: .done) }
            Final(.done)
        }
        XCTAssertThrowsError(try m.send(.go)) { XCTAssertEqual($0 as? MachineError, .notStarted) }
        try m.start()
        XCTAssertEqual(try m.send(.go), .handled)
        XCTAssertTrue(m.isFinished)
        XCTAssertEqual(try m.send(.go), .halted)
        XCTAssertEqual(try m.transition(on: .go).outcome, .halted)
    }

    func testUntypedTransitionResult() throws {
        let m = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("locked", transitions: [TransitionDefinition(on: "coin", to: "unlocked")]),
            StateDefinition("unlocked", transitions: [TransitionDefinition(on: "push", to: "locked")]),
        ])))
        try m.start()
        let result = try m.transition(on: "coin")
        XCTAssertEqual(result.outcome, .handled)
        XCTAssertEqual(result.before, ["locked"])
        XCTAssertEqual(result.after, ["unlocked"])
        XCTAssertEqual(result.transitions.map(\.description), ["locked -coin-> unlocked"])
        XCTAssertEqual(result.description, "coin: handled [locked] -> [unlocked]")
        XCTAssertEqual(try m.transition(on: "coin").outcome, .unhandled)
    }

    func testCanHandleChecksTheActiveStatesAndTheirAncestors() throws {
        final class Flag: @unchecked Sendable { var open = false }
        let flag = Flag()
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                On(.reset, to: .a)
                StateNode(.a1) { On(.go, to: .b, guard: { _ in flag.open }) }
            }
            StateNode(.b)
        }
        XCTAssertFalse(m.canHandle(.reset))     // not started
        try m.start()
        XCTAssertTrue(m.canHandle(.reset))      // from the ancestor
        XCTAssertFalse(m.canHandle(.go))        // the guard does not hold
        XCTAssertTrue(m.canHandle(.go, evaluatingGuards: false))
        XCTAssertFalse(m.canHandle(.next))
        flag.open = true
        XCTAssertTrue(m.canHandle(.go))
        XCTAssertEqual(m.configuration, [.a1])  // nothing ran
    }

    func testCanHandleMatchesDescriptorsForUntypedMachines() throws {
        let m = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("s", transitions: [TransitionDefinition(on: "error", to: "s")]),
        ])))
        try m.start()
        XCTAssertTrue(m.canHandle("error.network"))
        XCTAssertTrue(m.canHandle("error"))
        XCTAssertFalse(m.canHandle("errors"))
    }
}
