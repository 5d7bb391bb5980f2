import Statechart
import XCTest

/// Run to completion: raised events are processed in FIFO order within the macrostep; events
/// sent from actions (to the machine itself) wait until the macrostep completes; nothing runs
/// re-entrantly and nothing deadlocks.
final class RunToCompletionTests: XCTestCase {
    let c = Charts()

    func testRaisedEventsAreProcessedInOrderAfterTheMicrostep() throws {
        let m = try c.start([
            StateDefinition("a", transitions: [TransitionDefinition(on: ["go"], to: ["b"], actions: [
                c.logging("take go"), { $0.raise("one") }, { $0.raise("two") },
            ])], onExit: [c.logging("exit a")]),
            c.state("b", on: [c.on("one", to: ["c"], "one"), c.on("two", to: ["a"], "wrong")]),
            c.state("c", on: [c.on("two", to: ["d"], "two")]),
            c.state("d"),
        ])
        _ = c.log.take()
        try m.send("go")
        XCTAssertEqual(c.log.take(), ["exit a", "take go", "enter b", "exit b", "take one", "enter c",
                                      "exit c", "take two", "enter d"])
    }

    func testEventSentFromAnActionWaitsForTheMacrostepAndReturnsQueued() throws {
        let outcomes = Log()
        let m = try c.start([
            StateDefinition("a", transitions: [TransitionDefinition(on: ["go"], to: ["b"], actions: [{ ctx in
                outcomes.add("\(String(describing: try? ctx.machine?.send("later")))")
                ctx.raise("now")
            }])]),
            c.state("b", on: [c.on("now", to: ["c"], "now"), c.on("later", to: ["x"], "wrong")]),
            c.state("c", on: [c.on("later", to: ["d"], "later")]),
            c.state("d"), c.state("x"),
        ])
        _ = c.log.take()
        XCTAssertEqual(try m.send("go"), .handled)
        XCTAssertEqual(outcomes.take(), ["Optional(Statechart.SendOutcome.queued)"])
        XCTAssertEqual(c.log.take(), ["enter b", "exit b", "take now", "enter c", "exit c", "take later", "enter d"])
    }

    func testContextSendIsExternal() throws {
        let m = try c.start([
            StateDefinition("a", transitions: [TransitionDefinition(on: ["go"], to: ["b"], actions: [{ $0.send("ext") }, { $0.raise("int") }])]),
            c.state("b", on: [c.on("int", to: ["c"], "int")]),
            c.state("c", on: [c.on("ext", to: ["d"], "ext")]),
            c.state("d"),
        ])
        _ = c.log.take()
        try m.send("go")
        XCTAssertEqual(m.configuration, ["d"])
        XCTAssertEqual(c.log.take(), ["enter b", "exit b", "take int", "enter c", "exit c", "take ext", "enter d"])
    }

    func testObserversSeeStatesAndTransitionsInOrder() throws {
        let seen = Log()
        let chart = try CompiledChart(ChartDefinition(states: [
            StateDefinition("a", transitions: [TransitionDefinition(on: "go", to: "b")]),
            StateDefinition("b"),
        ]))
        let m = Machine(chart)
        m.onStateChange { state, entered in seen.add("\(entered ? "enter" : "exit") \(state)") }
        m.onTransition { seen.add("take \($0)") }
        try m.start()
        try m.send("go")
        XCTAssertEqual(seen.take(), ["enter a", "exit a", "take a -go-> b", "enter b"])
    }

    func testSendBeforeStartThrows() throws {
        let m = Machine(try CompiledChart(ChartDefinition(states: [StateDefinition("a")])))
        XCTAssertThrowsError(try m.send("x")) { XCTAssertEqual($0 as? MachineError, .notStarted) }
        try m.start()
        XCTAssertThrowsError(try m.start()) { XCTAssertEqual($0 as? MachineError, .alreadyStarted) }
    }

    func testConcurrentSendersAreSerializedWithoutLoss() throws {
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var value = 0
            func bump() { lock.withLock { value += 1 } }
        }
        let counter = Counter()
        let m = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("a", transitions: [TransitionDefinition(on: ["tick"], to: ["b"], actions: [{ _ in counter.bump() }])]),
            StateDefinition("b", transitions: [TransitionDefinition(on: ["tick"], to: ["a"], actions: [{ _ in counter.bump() }])]),
        ])))
        try m.start()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1000 { _ = try? m.send("tick") }
        }
        XCTAssertEqual(counter.value, 8000)
        XCTAssertEqual(m.configuration, ["a"])     // an even number of toggles
    }
}
