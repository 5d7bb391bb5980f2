import Statechart
import XCTest

/// The typed DSL reads like the chart and runs with SCXML semantics: exact action order and
/// configurations for nesting, parallel regions, history, final states, initial states,
/// internal, targetless, eventless and wildcard transitions.
final class TypedChartSemanticsTests: XCTestCase {
    let c = TypedCharts<S, E>()

    func testNestedStatesEnterOuterFirstAndExitInnerFirst() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a, initial: .a2) {
                c.logged("a")
                StateNode(.a1) { c.logged("a1") }
                StateNode(.a2) {
                    c.logged("a2")
                    On(.go, to: .b, action: c.take("go"))
                }
            }
            StateNode(.b) { c.logged("b") }
        }
        try m.start()
        XCTAssertEqual(c.log.take(), ["enter a", "enter a2"])
        XCTAssertEqual(m.configuration, [.a2])
        XCTAssertEqual(m.activeStates, [.a, .a2])
        XCTAssertEqual(try m.send(.go), .handled)
        XCTAssertEqual(c.log.take(), ["exit a2", "exit a", "take go", "enter b"])
        XCTAssertEqual(m.configuration, [.b])
        XCTAssertTrue(m.isActive(.b))
        XCTAssertFalse(m.isActive(.a))
    }

    func testParallelRegionsAllReceiveTheEvent() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            Parallel(.p) {
                c.logged("p")
                StateNode(.a) {
                    c.logged("a")
                    StateNode(.a1) { c.logged("a1"); On(.toggle, to: .a2, action: c.take("a")) }
                    StateNode(.a2) { c.logged("a2"); On(.toggle, to: .a1, action: c.take("a back")) }
                }
                StateNode(.b) {
                    c.logged("b")
                    StateNode(.b1) { c.logged("b1"); On(.toggle, to: .b2, action: c.take("b")) }
                    StateNode(.b2) { c.logged("b2") }
                }
                On(.stop, to: .off)
            }
            StateNode(.off) { c.logged("off") }
        }
        try m.start()
        XCTAssertEqual(c.log.take(), ["enter p", "enter a", "enter a1", "enter b", "enter b1"])
        try m.send(.toggle)
        XCTAssertEqual(c.log.take(), ["exit b1", "exit a1", "take a", "take b", "enter a2", "enter b2"])
        XCTAssertEqual(m.configuration, [.a2, .b2])
        try m.send(.stop)
        XCTAssertEqual(c.log.take(), ["exit b2", "exit b", "exit a2", "exit a", "exit p", "enter off"])
    }

    func testShallowAndDeepHistory() throws {
        func chart(_ type: HistoryType) throws -> StateMachine<S, E> {
            try StateMachine<S, E>(clock: TestClock()) {
                StateNode(.off) { On(.start, to: .h) }
                StateNode(.player) {
                    History(.h, type, default: .stopped, action: c.take("default"))
                    StateNode(.stopped) { On(.go, to: .playing) }
                    StateNode(.playing) {
                        StateNode(.track1) { On(.next, to: .track2) }
                        StateNode(.track2)
                    }
                    On(.stop, to: .off)
                }
            }
        }
        for (type, expected) in [(HistoryType.shallow, S.track1), (.deep, .track2)] {
            let m = try chart(type)
            try m.start()
            try m.send(.start)
            XCTAssertEqual(c.log.take(), ["take default"])
            XCTAssertEqual(m.configuration, [.stopped])
            try m.send(.go)
            try m.send(.next)
            try m.send(.stop)
            try m.send(.start)
            XCTAssertEqual(m.configuration, [expected], "\(type)")
            XCTAssertEqual(c.log.take(), [])
        }
    }

    func testFinalStatesRaiseDoneEventsAndTopLevelFinalHalts() throws {
        let log = c.log
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.running) {
                StateNode(.a) { On(.go, to: .done) }
                Final(.done) { c.logged("done") }
                OnDone(to: .off, action: { ctx in
                    log.add("done event \(ctx.eventName ?? "-") typed \(String(describing: ctx.event))")
                })
            }
            Final(.off) { c.logged("off") }
        }
        try m.start()
        try m.send(.go)
        XCTAssertEqual(c.log.take(), ["enter done", "exit done", "done event done.state.running typed nil", "enter off",
                                      "exit off"])       // halting exits every state (SCXML exitInterpreter)
        XCTAssertTrue(m.isFinished)
        XCTAssertEqual(try m.send(.go), .halted)
    }

    func testParallelIsDoneWhenEveryRegionIsFinal() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            Parallel(.p) {
                StateNode(.a) { StateNode(.a1) { On(.x, to: .a2) }; Final(.a2) }
                StateNode(.b) { StateNode(.b1) { On(.y, to: .b2) }; Final(.b2) }
                OnDone(to: .done)
            }
            StateNode(.done)
        }
        try m.start()
        try m.send(.x)
        XCTAssertEqual(m.configuration, [.a2, .b1])
        try m.send(.y)
        XCTAssertEqual(m.configuration, [.done])
    }

    func testInitialWithContentRunsAfterEntryAndBeforeChildren() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                c.logged("a")
                Initial(.a2, action: c.take("initial"))
                StateNode(.a1) { c.logged("a1") }
                StateNode(.a2) { c.logged("a2") }
            }
        }
        try m.start()
        XCTAssertEqual(c.log.take(), ["enter a", "take initial", "enter a2"])
    }

    func testChartInitialStateAndTopLevelInitial() throws {
        let m = try StateMachine<S, E>(initial: .b, clock: TestClock()) {
            StateNode(.a)
            StateNode(.b)
        }
        try m.start()
        XCTAssertEqual(m.configuration, [.b])
        let n = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a)
            Initial(.p, action: c.take("start"))
            Parallel(.p) { c.logged("p"); StateNode(.a1); StateNode(.b1) }
        }
        try n.start()
        XCTAssertEqual(n.configuration, [.a1, .b1])
        XCTAssertEqual(c.log.take(), ["take start", "enter p"])
    }

    func testInternalTransitionKeepsTheSourceActive() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                c.logged("a")
                On(.x, to: .a2, type: .internal, action: c.take("internal"))
                On(.y, to: .a2, action: c.take("external"))
                StateNode(.a1) { c.logged("a1") }
                StateNode(.a2) { c.logged("a2") }
            }
        }
        try m.start()
        _ = c.log.take()
        try m.send(.x)
        XCTAssertEqual(c.log.take(), ["exit a1", "take internal", "enter a2"])
        try m.send(.y)
        XCTAssertEqual(c.log.take(), ["exit a2", "exit a", "take external", "enter a", "enter a2"])
    }

    func testTargetlessTransitionRunsItsActionOnly() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                c.logged("a")
                On(.tick, action: c.take("tick"))
            }
        }
        try m.start()
        _ = c.log.take()
        XCTAssertEqual(try m.send(.tick), .handled)
        XCTAssertEqual(c.log.take(), ["take tick"])
        XCTAssertEqual(m.configuration, [.a])
    }

    func testGuardsAreTriedInDocumentOrderInnermostFirst() throws {
        final class Box: @unchecked Sendable { var allow = false }
        let box = Box()
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                On(.go, to: .c, action: c.take("outer"))
                StateNode(.a1) {
                    On(.go, to: .b, guard: { _ in box.allow }, action: c.take("guarded"))
                }
            }
            StateNode(.b)
            StateNode(.c)
        }
        try m.start()
        try m.send(.go)
        XCTAssertEqual(c.log.take(), ["take outer"])
        XCTAssertEqual(m.configuration, [.c])
        let n = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                On(.go, to: .c, action: c.take("outer"))
                StateNode(.a1) { On(.go, to: .b, guard: { _ in box.allow }, action: c.take("guarded")) }
            }
            StateNode(.b)
            StateNode(.c)
        }
        box.allow = true
        try n.start()
        try n.send(.go)
        XCTAssertEqual(c.log.take(), ["take guarded"])
        XCTAssertEqual(n.configuration, [.b])
    }

    func testAlwaysTransitionsRunInTheSameMacrostep() throws {
        final class Box: @unchecked Sendable { var count = 0 }
        let box = Box()
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.idle) { On(.go, to: .a) }
            StateNode(.a) {
                c.logged("a")
                Always(to: .b, guard: { _ in box.count >= 2 }, action: c.take("enough"))
                Always(to: .a, guard: { _ in box.count < 2 }, action: { _ in box.count += 1 })
            }
            StateNode(.b) { c.logged("b") }
        }
        try m.start()
        XCTAssertEqual(try m.transition(on: .go).after, [.b])
        XCTAssertEqual(c.log.take(), ["enter a", "exit a", "enter a", "exit a", "enter a", "exit a", "take enough", "enter b"])
    }

    func testTopLevelTransitionsFireFromAnyStateWithLowestPriority() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.idle) {
                c.logged("idle")
                On(.start, to: .running)
            }
            StateNode(.running) {
                c.logged("running")
                StateNode(.a) { c.logged("a"); On(.reset, action: c.take("inner reset")) }
                StateNode(.b) { c.logged("b") }
                On(.next, to: .b)
            }
            On(.reset, to: .idle, action: c.take("reset"))
        }
        try m.start()
        try m.send(.start)
        _ = c.log.take()
        try m.send(.reset)      // the innermost handler wins
        XCTAssertEqual(c.log.take(), ["take inner reset"])
        try m.send(.next)
        _ = c.log.take()
        try m.send(.reset)
        XCTAssertEqual(c.log.take(), ["exit b", "exit running", "take reset", "enter idle"])
        try m.send(.reset)      // also from idle: re-enters it
        XCTAssertEqual(c.log.take(), ["exit idle", "take reset", "enter idle"])
    }

    func testSeveralEventsOnOneTransition() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) { On(.x, .y, to: .b) }
            StateNode(.b) { On(.z, to: .a) }
        }
        try m.start()
        try m.send(.y)
        XCTAssertEqual(m.configuration, [.b])
        try m.send(.z)
        try m.send(.x)
        XCTAssertEqual(m.configuration, [.b])
    }

    func testEntryExitAndTransitionActionsSeeTheTypedEvent() throws {
        let seen = Log()
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                OnExit { ctx in seen.add("exit a on \(ctx.event.map { "\($0)" } ?? "nil")") }
                On(.go, to: .b) { ctx in seen.add("take on \(ctx.event.map { "\($0)" } ?? "nil") named \(ctx.eventName ?? "-")") }
            }
            StateNode(.b) {
                OnEntry { ctx in seen.add("enter b on \(ctx.event.map { "\($0)" } ?? "nil"), in b: \(ctx.isActive(.b)), in a: \(ctx.isActive(.a))") }
            }
        }
        try m.start()
        try m.send(.go)
        XCTAssertEqual(seen.take(), ["exit a on go", "take on go named go", "enter b on go, in b: true, in a: false"])
    }

    func testRaiseIsInternalAndSendIsExternal() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                On(.go, to: .b) { ctx in
                    ctx.send(.y)
                    ctx.raise(.x)
                }
            }
            StateNode(.b) { c.logged("b"); On(.x, to: .c, action: c.take("x")) }
            StateNode(.c) { c.logged("c"); On(.y, to: .z, action: c.take("y")) }
            StateNode(.z) { c.logged("z") }
        }
        try m.start()
        let result = try m.transition(on: .go)
        XCTAssertEqual(c.log.take(), ["enter b", "exit b", "take x", "enter c", "exit c", "take y", "enter z"])
        XCTAssertEqual(result.transitions.map(\.event), [.go, .x, .y])
        XCTAssertEqual(result.after, [.z])
    }
}
