import Statechart
import XCTest

/// Parallel regions: entered in document order, transitions of several regions in one
/// microstep (exits in reverse document order, then actions in selection order, then entries).
final class ParallelTests: XCTestCase {
    let c = Charts()

    func chart() -> [StateDefinition] {
        [
            c.parallel("p", [
                c.state("a", [c.state("a1", on: [c.on("e", to: ["a2"], "a")]),
                              c.state("a2", on: [c.on("leave", to: ["out"], "leave")])]),
                c.state("b", [c.state("b1", on: [c.on("e", to: ["b2"], "b")]), c.state("b2")]),
            ], on: [c.on("reset", to: ["p"], "reset")]),
            c.state("out"),
        ]
    }

    func testRegionsAreEnteredInDocumentOrder() throws {
        let m = try c.start(chart())
        XCTAssertEqual(c.log.take(), ["enter p", "enter a", "enter a1", "enter b", "enter b1"])
        XCTAssertEqual(m.configuration, ["a1", "b1"])
    }

    func testOneEventMovesBothRegionsInOneMicrostep() throws {
        let m = try c.start(chart())
        _ = c.log.take()
        try m.send("e")
        XCTAssertEqual(c.log.take(), ["exit b1", "exit a1", "take a", "take b", "enter a2", "enter b2"])
        XCTAssertEqual(m.configuration, ["a2", "b2"])
    }

    func testLeavingOneRegionExitsTheWholeParallelState() throws {
        let m = try c.start(chart())
        try m.send("e")
        _ = c.log.take()
        try m.send("leave")
        XCTAssertEqual(c.log.take(), ["exit b2", "exit b", "exit a2", "exit a", "exit p", "take leave", "enter out"])
        XCTAssertEqual(m.activeStates, ["out"])
    }

    func testTransitionOnTheParallelStateReentersAllRegions() throws {
        let m = try c.start(chart())
        try m.send("e")
        _ = c.log.take()
        try m.send("reset")
        XCTAssertEqual(c.log.take(), ["exit b2", "exit b", "exit a2", "exit a", "exit p", "take reset",
                                      "enter p", "enter a", "enter a1", "enter b", "enter b1"])
    }

    func testNestedParallelStates() throws {
        let m = try c.start([
            c.parallel("outer", [
                c.parallel("inner", [c.state("x", [c.state("x1")]), c.state("y", [c.state("y1")])]),
                c.state("z", [c.state("z1")]),
            ]),
        ])
        XCTAssertEqual(c.log.take(), ["enter outer", "enter inner", "enter x", "enter x1", "enter y", "enter y1",
                                      "enter z", "enter z1"])
        XCTAssertEqual(m.configuration, ["x1", "y1", "z1"])
    }
}
