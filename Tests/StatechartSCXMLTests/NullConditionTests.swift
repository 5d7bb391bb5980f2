import Foundation
import Statechart
@testable import StatechartSCXML
import XCTest

/// The null datamodel's extension: `In()` combined with `!`, `&&`, `||`, parentheses, `true`
/// and `false`. One parser; the syntax tree is what both the Swift datamodel and the C
/// generator use.
final class NullConditionTests: XCTestCase {
    func testPrecedenceNotThenAndThenOr() {
        XCTAssertEqual(NullCondition("In('a') || In(b) && !In(\"c\")"),
                       .or(.inState("a"), .and(.inState("b"), .not(.inState("c")))))
        XCTAssertEqual(NullCondition("(In(a) || In(b)) && !false"),
                       .and(.or(.inState("a"), .inState("b")), .not(.constant(false))))
        XCTAssertEqual(NullCondition("!!true"), .not(.not(.constant(true))))
        XCTAssertEqual(NullCondition(" In( 'door-1.closed' ) "), .inState("door-1.closed"))
    }

    func testOtherTextIsNotACondition() {
        for text in ["In('a') &", "In('a') and In('b')", "In('a', 'b')", "In()", "(In('a')", "x == 1",
                     "isReady() && In('a')", "In('a') ||", "", "!", String(repeating: "(", count: 300) + "true"] {
            XCTAssertNil(NullCondition(text), text)
        }
    }

    func testPlainInStaysTheSpecsCall() {
        XCTAssertEqual(NullExpression("In('a')"), .call("In", [.string("a")]))
        XCTAssertEqual(NullExpression("In('a') && true"), .condition(.and(.inState("a"), .constant(true))))
        XCTAssertEqual(NullExpression("In('a')")?.staticCondition, .inState("a"))
        XCTAssertNil(NullExpression("isReady()")?.staticCondition)
        XCTAssertEqual(NullExpression("0")?.staticCondition, .constant(false))
    }

    /// "door closed and not paused": the transition is taken only when both hold.
    func testCombinedConditionsInAMachine() throws {
        let machine = try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <parallel id="oven">
            <state id="door"><state id="open"><transition event="close" target="closed"/></state><state id="closed"/></state>
            <state id="mode"><state id="running"><transition event="pause" target="paused"/></state><state id="paused"/></state>
            <state id="engine">
              <state id="idle">
                <transition event="start" cond="In('closed') &amp;&amp; !In('paused')" target="cooking"/>
                <transition event="start" cond="!(In(closed) || false)" target="refused"/>
              </state>
              <state id="cooking"/>
              <state id="refused"><transition event="reset" target="idle"/></state>
            </state>
          </parallel>
        </scxml>
        """)
        try machine.start()
        try machine.send("start")
        XCTAssertEqual(machine.configuration, ["open", "running", "refused"])
        try machine.send("reset")
        try machine.send("close")
        try machine.send("pause")
        try machine.send("start")
        XCTAssertEqual(machine.configuration, ["closed", "paused", "idle"])   // neither condition holds
        let second = try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="s"><transition event="go" cond="In('s') &amp;&amp; (false || true)" target="t"/></state>
          <state id="t"/>
        </scxml>
        """)
        try second.start()
        try second.send("go")
        XCTAssertEqual(second.configuration, ["t"])
    }

    func testTheValidatorStillRejectsOtherText() {
        XCTAssertThrowsError(try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="s"><transition event="go" cond="In('s') and In('t')" target="t"/></state>
          <state id="t"/>
        </scxml>
        """, fileName: "c.scxml")) { error in
            XCTAssertEqual("\(error)", "c.scxml:2:17: error: cond=\"In('s') and In('t')\" is not a null-datamodel expression; use In('state') (combined with !, &&, ||, parentheses, true, false), a host function call or a literal, or declare datamodel=\"ecmascript\"")
        }
    }
}
