import Statechart
import XCTest

/// Eventless transitions run until the configuration is stable, before any internal event.
final class EventlessTests: XCTestCase {
    let c = Charts()

    func testEventlessChainRunsWithinTheMacrostep() throws {
        let m = try c.start([
            c.state("a", on: [c.on("go", to: ["b"], "go")]),
            c.state("b", on: [c.on(nil, to: ["c"], "b-c")]),
            c.state("c", on: [c.on(nil, to: ["d"], "c-d")]),
            c.state("d"),
        ])
        _ = c.log.take()
        try m.send("go")
        XCTAssertEqual(c.log.take(), ["exit a", "take go", "enter b", "exit b", "take b-c", "enter c",
                                      "exit c", "take c-d", "enter d"])
        XCTAssertEqual(m.configuration, ["d"])
    }

    func testEventlessTransitionsPrecedeRaisedEvents() throws {
        let m = try c.start([
            c.state("a", on: [c.on("go", to: ["b"], "go")]),
            StateDefinition("b", transitions: [c.on(nil, to: ["c"], "b-c")],
                            onEntry: [c.logging("enter b"), { $0.raise("x") }], onExit: [c.logging("exit b")]),
            c.state("c", on: [c.on("x", to: ["d"], "x")]),
            c.state("d"),
        ])
        _ = c.log.take()
        try m.send("go")
        XCTAssertEqual(c.log.take(), ["exit a", "take go", "enter b", "exit b", "take b-c", "enter c",
                                      "exit c", "take x", "enter d"])
    }

    func testGuardsOfEventlessTransitionsAreReevaluatedAfterEachMicrostep() throws {
        final class Counter: @unchecked Sendable { var value = 0 }
        let counter = Counter()
        let m = try c.start([
            c.state("idle", on: [c.on("go", to: ["count"], "go")]),
            StateDefinition("count", transitions: [
                TransitionDefinition(guard: { _ in counter.value < 3 }, actions: [{ _ in counter.value += 1 }, c.logging("tick")]),
                c.on(nil, to: ["done"], "finish", guard: { _ in counter.value >= 3 }),
            ]),
            c.state("done"),
        ])
        _ = c.log.take()
        try m.send("go")
        XCTAssertEqual(c.log.take(), ["exit idle", "take go", "tick", "tick", "tick", "take finish", "enter done"])
        XCTAssertEqual(counter.value, 3)
    }

    func testEventlessTransitionsRunAtStart() throws {
        let m = try c.start([c.state("a", on: [c.on(nil, to: ["b"], "auto")]), c.state("b")])
        XCTAssertEqual(c.log.take(), ["enter a", "exit a", "take auto", "enter b"])
        XCTAssertEqual(m.configuration, ["b"])
    }
}
