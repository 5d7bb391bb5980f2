import XCTest
@testable import StatechartSCXML

/// Issue 12, defect 1: a transition whose targets, once a history state is replaced by its
/// recorded value, cannot be active together is not taken; the document gets error.execution
/// and the configuration stays legal.
final class IllegalTargetSetTests: XCTestCase {
    // p's deep history h defaults to a1 a2 (so "h a1" passes the document checks); after
    // flip and out it holds b1 b2, and b1 cannot be active with a1 (both children of r1).
    static let chart = """
        \(scxmlRoot) datamodel="null" initial="o">
          <state id="o">
            <transition event="in" target="p"/>
            <transition event="back" target="h a1"/>
            <transition event="error.execution" target="failed"/>
          </state>
          <parallel id="p">
            <history id="h" type="deep"><transition target="a1 a2"/></history>
            <state id="r1">
              <state id="a1"><transition event="flip" target="b1"/></state>
              <state id="b1"/>
            </state>
            <state id="r2">
              <state id="a2"><transition event="flip" target="b2"/></state>
              <state id="b2"/>
            </state>
            <transition event="out" target="o"/>
          </parallel>
          <final id="failed"/>
        </scxml>
        """

    func testHistoryValueThatCannotJoinTheOtherTargetsRaisesErrorExecution() throws {
        let machine = try SCXMLMachine(string: Self.chart, fileName: "test.scxml")
        try machine.start()
        XCTAssertEqual(try machine.send("in"), .handled)
        XCTAssertEqual(try machine.send("flip"), .handled)
        XCTAssertEqual(machine.configuration, ["b1", "b2"])
        XCTAssertEqual(try machine.send("out"), .handled)
        XCTAssertEqual(machine.configuration, ["o"])
        // Not taken (o stays), error.execution raised and handled in the same macrostep.
        XCTAssertEqual(try machine.send("back"), .handled)
        XCTAssertEqual(machine.configuration, ["failed"])
    }
}
