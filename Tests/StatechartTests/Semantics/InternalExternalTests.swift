import Statechart
import XCTest

/// type="internal" keeps a compound source active when every target is its descendant;
/// otherwise (and by default) the source is exited and re-entered.
final class InternalExternalTests: XCTestCase {
    let c = Charts()

    func chart() -> [StateDefinition] {
        [c.state("parent", [c.state("c1"), c.state("c2")], on: [
            c.on("int", to: ["c2"], "int", type: .internal),
            c.on("ext", to: ["c2"], "ext"),
            c.on("intout", to: ["other"], "intout", type: .internal),
            c.on("stay", "stay", type: .internal),
        ]), c.state("other")]
    }

    func testInternalTransitionDoesNotExitItsSource() throws {
        let m = try c.start(chart())
        _ = c.log.take()
        try m.send("int")
        XCTAssertEqual(c.log.take(), ["exit c1", "take int", "enter c2"])
        XCTAssertEqual(m.activeStates, ["parent", "c2"])
    }

    func testExternalTransitionExitsAndReentersItsSource() throws {
        let m = try c.start(chart())
        _ = c.log.take()
        try m.send("ext")
        XCTAssertEqual(c.log.take(), ["exit c1", "exit parent", "take ext", "enter parent", "enter c2"])
    }

    func testInternalTransitionToATargetOutsideTheSourceBehavesAsExternal() throws {
        let m = try c.start(chart())
        _ = c.log.take()
        try m.send("intout")
        XCTAssertEqual(c.log.take(), ["exit c1", "exit parent", "take intout", "enter other"])
    }

    func testTargetlessTransitionRunsItsContentWithoutExiting() throws {
        let m = try c.start(chart())
        _ = c.log.take()
        try m.send("stay")
        XCTAssertEqual(c.log.take(), ["take stay"])
        XCTAssertEqual(m.configuration, ["c1"])
    }
}
