import Statechart
import XCTest

/// Initial states: the chart's and a state's `initial` ids (several, into parallel regions),
/// the `<initial>` transition (its content runs after the parent's entry), else the first child.
final class InitialStateTests: XCTestCase {
    let c = Charts()

    func testFirstChildInDocumentOrderByDefault() throws {
        let m = try c.start([c.state("a", [c.state("a1"), c.state("a2")]), c.state("b")])
        XCTAssertEqual(c.log.take(), ["enter a", "enter a1"])
        XCTAssertEqual(m.configuration, ["a1"])
    }

    func testChartInitialAttribute() throws {
        let m = try c.start([c.state("a"), c.state("b", [c.state("b1"), c.state("b2")])], initial: ["b2"])
        XCTAssertEqual(c.log.take(), ["enter b", "enter b2"])
        XCTAssertEqual(m.configuration, ["b2"])
    }

    func testInitialIdsDeepIntoParallelRegionsEnterTheOtherRegionsByDefault() throws {
        let m = try c.start([
            c.state("s1", initial: ["x2", "y2"], [
                c.state("s11"),
                c.parallel("p", [
                    c.state("x", [c.state("x1"), c.state("x2")]),
                    c.state("y", [c.state("y1"), c.state("y2")]),
                    c.state("z", [c.state("z1"), c.state("z2")]),
                ]),
            ]),
        ])
        XCTAssertEqual(c.log.take(), ["enter s1", "enter p", "enter x", "enter x2", "enter y", "enter y2",
                                      "enter z", "enter z1"])
        XCTAssertEqual(m.configuration, ["x2", "y2", "z1"])
    }

    func testInitialElementContentRunsAfterParentEntryBeforeChildEntry() throws {
        let m = try c.start([
            StateDefinition("s", initialTransition: TransitionDefinition(to: ["s2"], actions: [c.logging("initial content")]),
                            children: [c.state("s1"), c.state("s2")], onEntry: [c.logging("enter s")]),
        ])
        XCTAssertEqual(c.log.take(), ["enter s", "initial content", "enter s2"])
        XCTAssertEqual(m.configuration, ["s2"])
    }

    func testHistoryChildIsNotTheDefaultFirstChild() throws {
        let m = try c.start([
            c.state("s", [StateDefinition(history: "h", defaultTargets: ["s2"]), c.state("s1"), c.state("s2")]),
        ])
        XCTAssertEqual(m.configuration, ["s1"])
    }
}
