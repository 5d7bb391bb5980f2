import Foundation
import Statechart
import XCTest

/// Delayed events: sent after a duration on an injectable clock, cancellable by id, delivered
/// in order through the normal send path, cancelled when the machine halts or goes away.
final class DelayedEventTests: XCTestCase {
    let clock = TestClock()

    func logger(_ log: Log) throws -> StateMachine<S, E> {
        try StateMachine<S, E>(clock: clock) {
            StateNode(.idle) {
                On(descriptor: "*") { ctx in log.add("\(ctx.event.map { "\($0)" } ?? ctx.eventName ?? "-") at \(ctx.machine!.clock.now)") }
            }
        }
    }

    func testEventsFireWhenTheClockPassesTheirDeadlineInDeadlineThenSendOrder() throws {
        let log = Log()
        let m = try logger(log)
        try m.start()
        m.send(.x, after: .seconds(3))
        m.send(.y, after: .seconds(1))
        m.send(.z, after: .seconds(3))
        m.send(.go, after: .seconds(1))
        clock.advance(by: .milliseconds(999))
        XCTAssertEqual(log.take(), [])
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(log.take(), ["y at 1.0 seconds", "go at 1.0 seconds"])
        clock.advance(by: .seconds(5))
        XCTAssertEqual(log.take(), ["x at 3.0 seconds", "z at 3.0 seconds"])
        XCTAssertEqual(clock.now, .seconds(6))
    }

    func testCancelByIDAndGeneratedIDs() throws {
        let log = Log()
        let m = try logger(log)
        try m.start()
        let first = m.send(.x, after: .seconds(1))
        let second = m.send(.y, after: .seconds(1))
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(m.send(.z, after: .seconds(1), id: "mine"), "mine")
        m.send(.go, after: .seconds(2), id: "mine")
        XCTAssertEqual(m.pendingSendIDs, [first, second, "mine", "mine"])
        XCTAssertTrue(m.cancel(sendID: "mine"))         // both events with that id
        XCTAssertTrue(m.cancel(sendID: first))
        XCTAssertFalse(m.cancel(sendID: first))
        clock.advance(by: .seconds(5))
        XCTAssertEqual(log.take(), ["y at 1.0 seconds"])
    }

    func testCancellingAnEventDueInTheSameBatchStopsIt() throws {
        let log = Log()
        let m = try StateMachine<S, E>(clock: clock) {
            StateNode(.idle) {
                On(.x) { ctx in
                    log.add("x")
                    ctx.cancel(sendID: "y")
                }
                On(.y) { _ in log.add("y") }
            }
        }
        try m.start()
        m.send(.x, after: .seconds(1), id: "x")
        m.send(.y, after: .seconds(1), id: "y")
        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.take(), ["x"])
        XCTAssertEqual(m.pendingSendIDs, [])
    }

    func testActionsScheduleAndCancelAndChainedDelaysFireWithinOneAdvance() throws {
        let log = Log()
        let m = try StateMachine<S, E>(clock: clock) {
            StateNode(.idle) {
                On(.start, to: .running) { ctx in ctx.send(.tick, after: .seconds(1), id: "tick") }
            }
            StateNode(.running) {
                On(.tick) { ctx in
                    log.add("tick at \(ctx.machine!.clock.now)")
                    ctx.send(.tick, after: .seconds(1), id: "tick")
                }
                On(.stop, to: .idle) { ctx in ctx.cancel(sendID: "tick") }
            }
        }
        try m.start()
        try m.send(.start)
        clock.advance(by: .milliseconds(3_500))
        XCTAssertEqual(log.take(), ["tick at 1.0 seconds", "tick at 2.0 seconds", "tick at 3.0 seconds"])
        try m.send(.stop)
        clock.advance(by: .seconds(10))
        XCTAssertEqual(log.take(), [])
        XCTAssertEqual(m.pendingSendIDs, [])
    }

    func testAfterTransitionsRestartOnEveryEntryAndAreCancelledOnExit() throws {
        let log = Log()
        let m = try StateMachine<S, E>(clock: clock) {
            StateNode(.idle) {
                On(.start, to: .running)
            }
            StateNode(.running) {
                OnEntry { _ in log.add("enter running") }
                After(.seconds(5), to: .done) { ctx in log.add("timeout \(String(describing: ctx.event))") }
                On(.tick, to: .running)      // re-entry restarts the timer
                On(.stop, to: .idle)
            }
            StateNode(.done)
        }
        try m.start()
        try m.send(.start)
        clock.advance(by: .seconds(4))
        try m.send(.tick)
        clock.advance(by: .seconds(4))
        XCTAssertEqual(m.configuration, [.running])
        clock.advance(by: .seconds(1))
        XCTAssertEqual(m.configuration, [.done])
        XCTAssertEqual(log.take(), ["enter running", "enter running", "timeout nil"])
        XCTAssertEqual(m.pendingSendIDs, [])
        // Leaving before the delay cancels it.
        let n = try StateMachine<S, E>(clock: clock) {
            StateNode(.running) { After(.seconds(1), to: .done); On(.stop, to: .idle) }
            StateNode(.idle)
            StateNode(.done)
        }
        try n.start()
        XCTAssertEqual(n.pendingSendIDs, ["statechart.after.1"])
        try n.send(.stop)
        XCTAssertEqual(n.pendingSendIDs, [])
    }

    func testGuardedAfterInParallelRegions() throws {
        final class Flag: @unchecked Sendable { var ready = false }
        let flag = Flag()
        let m = try StateMachine<S, E>(clock: clock) {
            Parallel(.p) {
                StateNode(.a) {
                    StateNode(.a1) { After(.seconds(1), to: .a2, guard: { _ in flag.ready }) }
                    StateNode(.a2)
                }
                StateNode(.b) {
                    StateNode(.b1) { After(.seconds(2), to: .b2) }
                    StateNode(.b2)
                }
            }
        }
        try m.start()
        clock.advance(by: .seconds(1))
        XCTAssertEqual(m.configuration, [.a1, .b1])     // guard false: the timer is spent
        flag.ready = true
        clock.advance(by: .seconds(1))
        XCTAssertEqual(m.configuration, [.a1, .b2])
    }

    func testPendingEventsAreCancelledWhenTheMachineHalts() throws {
        let m = try StateMachine<S, E>(clock: clock) {
            StateNode(.a) { On(.stop, to: .done) }
            Final(.done)
        }
        let unhandled = Log()
        m.onUnhandled { unhandled.add("\($0)") }
        try m.start()
        m.send(.x, after: .seconds(1))
        try m.send(.stop)
        XCTAssertEqual(m.pendingSendIDs, [])
        clock.advance(by: .seconds(2))
        XCTAssertEqual(unhandled.take(), [])
        XCTAssertEqual(m.send(.x, after: .seconds(1), id: "late"), "late")   // ignored once halted
        XCTAssertEqual(m.pendingSendIDs, [])
    }

    func testStopCancelsPendingEvents() throws {
        let log = Log()
        let m = try logger(log)
        try m.start()
        m.send(.x, after: .seconds(1))
        m.stop()
        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.take(), [])
    }

    func testAPendingEventDoesNotKeepTheMachineAlive() throws {
        weak var weakMachine: StateMachine<S, E>?
        weak var weakUntyped: Machine?
        do {
            let m = try logger(Log())
            try m.start()
            m.send(.x, after: .seconds(1))
            m.send(.y, after: .seconds(100))
            weakMachine = m
            weakUntyped = m.machine
        }
        XCTAssertNil(weakMachine)
        XCTAssertNil(weakUntyped)
        clock.advance(by: .seconds(200))       // the wake-ups find nothing to deliver
        XCTAssertEqual(clock.pendingWakeUps, 0)
    }

    func testUnhandledDelayedEventsAreReported() throws {
        let m = try StateMachine<S, E>(clock: clock) { StateNode(.a) }
        let log = Log()
        m.onUnhandled { log.add("unhandled \($0)") }
        try m.start()
        m.send(.x, after: .seconds(1))
        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.take(), ["unhandled x"])
    }

    func testErrorsOfDelayedEventsGoToErrorObservers() throws {
        let m = try StateMachine<S, E>(options: MachineOptions(maximumStepsPerMacrostep: 50), clock: clock) {
            StateNode(.a) { On(.go, to: .b) }
            StateNode(.b) { Always(to: .c) }
            StateNode(.c) { Always(to: .b) }
        }
        let log = Log()
        m.onError { log.add("\($0)") }
        try m.start()
        m.send(.go, after: .seconds(1))
        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.take().map { $0.hasPrefix("runaway macrostep") }, [true])
    }

    func testUntypedMachineAndActionContextDelayedSends() throws {
        let log = Log()
        let chart = try CompiledChart(ChartDefinition(states: [
            StateDefinition("waiting", transitions: [
                TransitionDefinition(on: ["arm"], actions: [{ ctx in _ = ctx.send("timeout", after: .seconds(5), id: "t") }]),
                TransitionDefinition(on: ["disarm"], actions: [{ ctx in ctx.cancel(sendID: "t") }]),
                TransitionDefinition(on: ["timeout"], to: ["fired"], actions: [{ ctx in
                    log.add("\(ctx.event?.name ?? "-") \(ctx.event?.payload(as: Int.self) ?? -1)")
                }]),
            ]),
            StateDefinition("fired"),
        ]))
        let m = Machine(chart, clock: clock)
        try m.start()
        try m.send("arm")
        try m.send("disarm")
        clock.advance(by: .seconds(10))
        XCTAssertEqual(m.configuration, ["waiting"])
        m.send(Event("timeout", payload: 7), after: .seconds(1))
        clock.advance(by: .seconds(1))
        XCTAssertEqual(m.configuration, ["fired"])
        XCTAssertEqual(log.take(), ["timeout 7"])
    }

    func testTheSystemClockFiresOnItsOwn() throws {
        let fired = expectation(description: "delayed event processed")
        let m = try StateMachine<S, E> {
            StateNode(.idle) { On(.go, to: .running) }
            StateNode(.running) { OnEntry { _ in fired.fulfill() } }
        }
        try m.start()
        let start = ContinuousClock.now
        m.send(.go, after: .milliseconds(50))
        wait(for: [fired], timeout: 5)
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(50))
        XCTAssertEqual(m.configuration, [.running])
    }

    func testTheSystemClockDeliversEventsDueTogetherInOrder() throws {
        let done = expectation(description: "all delivered")
        let log = Log()
        let m = try StateMachine<S, E> {
            StateNode(.idle) {
                On(descriptor: "*") { ctx in
                    log.add("\(ctx.event!)")
                    if ctx.event == .z { done.fulfill() }
                }
            }
        }
        try m.start()
        for event in [E.x, .y, .go, .next, .z] { m.send(event, after: .milliseconds(20)) }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.take(), ["x", "y", "go", "next", "z"])
    }
}
