import Foundation
import Statechart
import XCTest

/// Snapshots capture configuration, history, queued and delayed events as Codable values; a
/// machine restored from one continues exactly as the original does.
final class SnapshotTests: XCTestCase {
    /// A media player with deep history, a parallel region and a timer, logging every action.
    func player(_ log: Log, clock: TestClock) throws -> TypedChart<S, E> {
        func logged(_ name: String) -> ChartContent<S, E> {
            ChartContent<S, E>.logging(name, to: log)
        }
        return try TypedChart<S, E>(name: "player") {
            StateNode(.off) {
                logged("off")
                On(.start, to: .h)
            }
            Parallel(.on) {
                logged("on")
                StateNode(.player) {
                    logged("player")
                    History(.h, .deep, default: .stopped)
                    StateNode(.stopped) { logged("stopped"); On(.go, to: .playing) }
                    StateNode(.playing) {
                        logged("playing")
                        StateNode(.track1) { logged("track1"); On(.next, to: .track2) }
                        StateNode(.track2) { logged("track2"); After(.seconds(30), to: .track1) }
                        On(.pause, to: .paused)
                    }
                    StateNode(.paused) { logged("paused"); On(.resume, to: .playing) }
                }
                StateNode(.deep) {
                    StateNode(.a) { logged("a"); On(.toggle, to: .b) }
                    StateNode(.b) { logged("b"); On(.toggle, to: .a) }
                }
                On(.stop, to: .off)
                On(.tick) { ctx in
                    log.add("tick")
                    ctx.send(.tick, after: .seconds(10), id: "tick")
                }
            }
        }
    }

    /// Drives `machine` through `events`, advancing `clock` by `step` after each.
    func drive(_ machine: StateMachine<S, E>, _ clock: TestClock, _ events: [E], step: Duration = .seconds(7)) throws {
        for event in events {
            try machine.send(event)
            clock.advance(by: step)
        }
    }

    func testARestoredMachineContinuesExactlyAsTheOriginal() throws {
        let prefix: [E] = [.start, .go, .next, .toggle, .tick, .stop]
        let suffix: [E] = [.start, .pause, .resume, .toggle, .next, .tick, .stop, .start, .next]
        // The original runs prefix + suffix.
        let originalLog = Log(), originalClock = TestClock()
        let original = StateMachine(try player(originalLog, clock: originalClock), clock: originalClock)
        try original.start()
        try drive(original, originalClock, prefix, step: .seconds(2))
        originalClock.advance(by: .seconds(3))
        let snapshot = try original.snapshot()
        XCTAssertEqual(snapshot.activeStates, [.off])
        XCTAssertEqual(snapshot.history, [.init(state: .h, remembered: [.track2])])
        XCTAssertEqual(snapshot.delayedEvents.map(\.sendID), ["tick"])
        XCTAssertEqual(snapshot.delayedEvents.map(\.remaining), [.seconds(3)])
        _ = originalLog.take()
        try drive(original, originalClock, suffix)
        let expected = originalLog.take()
        // The suffix exercises the restored history, timer and parallel region.
        XCTAssertEqual(Array(expected.prefix(7)), ["exit off", "enter on", "enter player", "enter playing",
                                                   "enter track2", "enter a", "tick"])

        // The snapshot goes through JSON and into a fresh machine on a fresh clock.
        let data = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(StateMachine<S, E>.Snapshot.self, from: data)
        XCTAssertEqual(decoded, snapshot)
        let restoredLog = Log(), restoredClock = TestClock()
        let restored = try StateMachine(try player(restoredLog, clock: restoredClock), restoring: decoded, clock: restoredClock)
        XCTAssertEqual(restoredLog.take(), [], "restoring runs no action")
        try drive(restored, restoredClock, suffix)
        XCTAssertEqual(restoredLog.take(), expected)
        XCTAssertEqual(restored.configuration, original.configuration)
        XCTAssertEqual(try restored.snapshot().history, try original.snapshot().history)
    }

    func testTheSnapshotRecordsConfigurationHistoryAndTimers() throws {
        let clock = TestClock()
        let m = StateMachine(try player(Log(), clock: clock), clock: clock)
        try m.start()
        try drive(m, clock, [.start, .go, .next, .tick], step: .seconds(4))
        let snapshot = try m.snapshot()
        XCTAssertEqual(snapshot.chart, "player")
        XCTAssertEqual(snapshot.activeStates, [.on, .player, .playing, .track2, .deep, .a])
        XCTAssertEqual(snapshot.history, [])
        XCTAssertEqual(snapshot.delayedEvents.map(\.sendID), ["tick", "statechart.after.1"])
        XCTAssertEqual(snapshot.delayedEvents.map(\.remaining), [.seconds(6), .seconds(22)])
        XCTAssertEqual(snapshot.delayedEvents.map(\.event), [.event(.tick), .untyped(SnapshotEvent(name: "statechart.after.1"))])
        XCTAssertFalse(snapshot.isFinished)
        try m.send(.stop)
        let stopped = try m.snapshot()
        XCTAssertEqual(stopped.activeStates, [.off])
        XCTAssertEqual(stopped.history, [.init(state: .h, remembered: [.track2])])
        XCTAssertEqual(stopped.delayedEvents.map(\.sendID), ["tick"])    // the After timer was cancelled on exit
    }

    /// A history record must be a value exitStates could make. t1 and t2 are both children of
    /// the compound `playing`: never recorded together, so such a snapshot is refused (the core
    /// refuses the record too; checked first, so nothing is restored).
    func testAHistoryRecordOfStatesThatCannotBeActiveTogetherIsRefused() throws {
        let c = Charts()
        let chart = try CompiledChart(ChartDefinition(name: "untyped", states: [
            c.state("home", on: [c.on("toh", to: ["h"], "toh")]),
            c.state("media", [
                StateDefinition(history: "h", type: .deep, defaultTargets: ["menu"]),
                c.state("menu"),
                c.state("playing", [c.state("t1"), c.state("t2")]),
            ]),
        ]))
        let m = Machine(chart, clock: TestClock())
        try m.start()
        var bad = try m.snapshot()
        bad.history = [.init(state: "h", remembered: ["t1", "t2"])]
        XCTAssertThrowsError(try m.restore(bad)) { XCTAssertEqual($0 as? SnapshotError, .invalidHistory("h")) }
        bad.history = [.init(state: "h", remembered: ["t2"])]
        try m.restore(bad)
        _ = c.log.take()
        try m.send("toh")
        XCTAssertEqual(c.log.take(), ["exit home", "take toh", "enter media", "enter playing", "enter t2"])
    }

    func testUntypedSnapshotRoundTripsThroughJSON() throws {
        let c = Charts()
        let chart = try CompiledChart(ChartDefinition(name: "untyped", states: [
            c.state("home", on: [c.on("toh", to: ["h"], "toh")]),
            c.state("media", [
                StateDefinition(history: "h", type: .deep, defaultTargets: ["menu"]),
                c.state("menu", on: [c.on("play", to: ["playing"], "play")]),
                c.state("playing", [c.state("t1", on: [c.on("next", to: ["t2"], "next")]), c.state("t2")]),
            ], on: [c.on("back", to: ["home"], "back")]),
        ]))
        let clock = TestClock()
        let m = Machine(chart, clock: clock)
        try m.start()
        for event in ["toh", "play", "next", "back"] { try m.send(event) }
        m.send(Event("later", payload: DataValue.object(["n": .number(1)])), after: .seconds(2), id: "later")
        let snapshot = try m.snapshot()
        XCTAssertEqual(snapshot.activeStates, ["home"])
        XCTAssertEqual(snapshot.history, [.init(state: "h", remembered: ["t2"])])
        XCTAssertEqual(snapshot.delayedEvents, [.init(sendID: "later", event: SnapshotEvent(name: "later", payload: .object(["n": .number(1)])), remaining: .seconds(2))])
        let json = try JSONEncoder().encode(snapshot)
        let restored = try Machine(chart, restoring: JSONDecoder().decode(MachineSnapshot.self, from: json), clock: clock)
        _ = c.log.take()
        try restored.send("toh")
        XCTAssertEqual(c.log.take(), ["exit home", "take toh", "enter media", "enter playing", "enter t2"])
        XCTAssertEqual(restored.pendingSendIDs, ["later"])
    }

    func testInternalEventsLeftByARunawayMacrostepAreCaptured() throws {
        let m = try StateMachine<S, E>(options: MachineOptions(maximumStepsPerMacrostep: 5), clock: TestClock()) {
            StateNode(.a) {
                On(.go) { ctx in for _ in 0..<10 { ctx.raise(.tick) } }
                On(.tick)
            }
        }
        try m.start()
        XCTAssertThrowsError(try m.send(.go))
        let snapshot = try m.snapshot()
        XCTAssertEqual(snapshot.internalEvents, Array(repeating: .event(.tick), count: 5))
        let restored = try StateMachine(m.chart, restoring: snapshot, clock: TestClock())
        XCTAssertEqual(try restored.snapshot().internalEvents.count, 5)
    }

    func testRestoringAFinishedMachine() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) { On(.go, to: .done) }
            Final(.done)
        }
        try m.start()
        try m.send(.go)
        let snapshot = try m.snapshot()
        XCTAssertTrue(snapshot.isFinished)
        let restored = try StateMachine(m.chart, restoring: snapshot, clock: TestClock())
        XCTAssertTrue(restored.isFinished)
        XCTAssertEqual(try restored.send(.go), .halted)
    }

    func testSnapshotErrors() throws {
        let inside = Log()
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                StateNode(.a1)
                StateNode(.a2)
                On(.go) { ctx in
                    do {
                        _ = try ctx.machine?.snapshot()
                        inside.add("no error")
                    } catch {
                        inside.add("\(error as? SnapshotError == .insideMacrostep)")
                    }
                }
            }
            StateNode(.b)
        }
        XCTAssertThrowsError(try m.snapshot()) { XCTAssertEqual($0 as? SnapshotError, .notStarted) }
        try m.start()
        try m.send(.go)
        XCTAssertEqual(inside.take(), ["true"])
        var bad = try m.snapshot()
        bad.activeStates = [.a, .a1, .a2]
        XCTAssertThrowsError(try m.restore(bad)) {
            XCTAssertEqual($0 as? SnapshotError, .illegalConfiguration(["a", "a1", "a2"]))
        }
        bad.activeStates = [.a1]
        XCTAssertThrowsError(try m.restore(bad)) {
            XCTAssertEqual($0 as? SnapshotError, .illegalConfiguration(["a1"]))
        }
        bad.activeStates = [.x]
        XCTAssertThrowsError(try m.restore(bad)) { XCTAssertEqual($0 as? SnapshotError, .unknownState("x")) }
        bad.activeStates = [.b]
        bad.history = [.init(state: .a, remembered: [.a1])]
        XCTAssertThrowsError(try m.restore(bad)) { XCTAssertEqual($0 as? SnapshotError, .invalidHistory("a")) }
        XCTAssertEqual(m.configuration, [.a1], "a failed restore changes nothing")

        let untyped = m.machine
        untyped.send(Event("x", payload: 3), after: .seconds(1))
        XCTAssertThrowsError(try untyped.snapshot()) {
            XCTAssertEqual($0 as? SnapshotError, .unencodablePayload(event: "x"))
        }
    }

    func testRestoreStartsTheInvocationsOfActiveStates() throws {
        let log = Log()
        let chart = try CompiledChart(ChartDefinition(states: [
            StateDefinition("idle", transitions: [TransitionDefinition(on: "go", to: "polling")]),
            StateDefinition("polling", invocations: [Invocation(id: "poller", start: { _ in log.add("start") },
                                                                cancel: { _ in log.add("cancel") })]),
        ]))
        let m = Machine(chart, clock: TestClock())
        try m.start()
        try m.send("go")
        XCTAssertEqual(log.take(), ["start"])
        let restored = try Machine(chart, restoring: m.snapshot(), clock: TestClock())
        XCTAssertEqual(log.take(), ["start"])
        restored.stop()
        XCTAssertEqual(log.take(), ["cancel"])
    }
}

extension ChartContent where State == S, Event == E {
    /// Entry and exit actions that log "enter name" and "exit name".
    static func logging(_ name: String, to log: Log) -> ChartContent {
        ChartBuilder<S, E>.buildBlock(
            ChartBuilder.buildExpression(OnEntry { _ in log.add("enter \(name)") }),
            ChartBuilder.buildExpression(OnExit { _ in log.add("exit \(name)") }))
    }
}
