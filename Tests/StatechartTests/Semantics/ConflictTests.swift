import Statechart
import XCTest

/// removeConflictingTransitions: transitions whose exit sets intersect conflict; a transition
/// from a descendant preempts one from its ancestor, otherwise the earlier selection wins;
/// targetless transitions never conflict.
final class ConflictTests: XCTestCase {
    let c = Charts()

    func testDescendantPreemptsAncestorSelectedEarlier() throws {
        // Region a selects p's transition (via a1 -> a -> p); region b selects b1's own.
        let m = try c.start([
            c.parallel("p", [
                c.state("a", [c.state("a1")]),
                c.state("b", [c.state("b1", on: [c.on("e", to: ["b2"], "b")]), c.state("b2")]),
            ], on: [c.on("e", to: ["out"], "p")]),
            c.state("out"),
        ])
        _ = c.log.take()
        try m.send("e")
        XCTAssertEqual(c.log.take(), ["exit b1", "take b", "enter b2"])
        XCTAssertEqual(m.configuration, ["a1", "b2"])
    }

    func testEarlierRegionWinsWhenBothLeaveTheParallelState() throws {
        let m = try c.start([
            c.parallel("p", [
                c.state("a", [c.state("a1", on: [c.on("e", to: ["out1"], "a")])]),
                c.state("b", [c.state("b1", on: [c.on("e", to: ["out2"], "b")])]),
            ]),
            c.state("out1"), c.state("out2"),
        ])
        _ = c.log.take()
        try m.send("e")
        XCTAssertEqual(c.log.take(), ["exit b1", "exit b", "exit a1", "exit a", "exit p", "take a", "enter out1"])
        XCTAssertEqual(m.configuration, ["out1"])
    }

    func testTargetlessTransitionsDoNotConflict() throws {
        let m = try c.start([
            c.parallel("p", [
                c.state("a", [c.state("a1", on: [c.on("e", "a")])]),
                c.state("b", [c.state("b1", on: [c.on("e", to: ["out"], "b")])]),
            ]),
            c.state("out"),
        ])
        _ = c.log.take()
        try m.send("e")
        XCTAssertEqual(c.log.take(), ["exit b1", "exit b", "exit a1", "exit a", "exit p", "take a", "take b", "enter out"])
    }

    func testTransitionsInsideSeparateRegionsDoNotConflict() throws {
        let m = try c.start([
            c.parallel("p", [
                c.state("a", [c.state("a1", on: [c.on("e", to: ["a2"], "a")]), c.state("a2")]),
                c.state("b", [c.state("b1", on: [c.on("e", to: ["b1"], "b")])]),
            ]),
        ])
        _ = c.log.take()
        try m.send("e")
        XCTAssertEqual(c.log.take(), ["exit b1", "exit a1", "take a", "take b", "enter a2", "enter b1"])
    }
}
