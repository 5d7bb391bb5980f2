import Foundation
import Statechart
import StatechartSCXML
import XCTest

/// The null datamodel: In() with and without quotes, delayed sends and cancel on a test clock.
final class NullDatamodelTests: XCTestCase {
    func testInAcceptsQuotedAndBareIDs() throws {
        let machine = try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <parallel id="p">
            <state id="r1"><state id="s1"/></state>
            <state id="r2">
              <state id="t1">
                <transition event="a" cond="In(wrong)" target="wrong"/>
                <transition event="a" cond="In('s1')" target="t2"/>
              </state>
              <state id="t2"><transition event="b" cond="In(s1)" target="t3"/></state>
              <state id="t3"/>
              <state id="wrong"/>
            </state>
          </parallel>
        </scxml>
        """)
        try machine.start()
        try machine.send("a")
        XCTAssertEqual(machine.configuration, ["s1", "t2"])
        try machine.send("b")
        XCTAssertEqual(machine.configuration, ["s1", "t3"])
    }

    func testDelayedSendsFireInOrderOfTheirDelaysAndCancelStopsOne() throws {
        let clock = TestClock()
        var options = SCXMLMachine.Options()
        options.clock = clock
        let machine = try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="wait">
            <onentry>
              <send event="late" delay="1.5s"/>
              <send event="early" delay=".5s"/>
              <send id="never" event="cancelled" delay="1s"/>
              <cancel sendid="never"/>
            </onentry>
            <transition event="early" target="first"/>
            <transition event="*" target="wrong"/>
          </state>
          <state id="first">
            <transition event="late" target="second"/>
            <transition event="*" target="wrong"/>
          </state>
          <state id="second"><transition event="*" target="wrong"/></state>
          <state id="wrong"/>
        </scxml>
        """, options: options)
        try machine.start()
        clock.advance(by: .milliseconds(499))
        XCTAssertEqual(machine.configuration, ["wait"])
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(machine.configuration, ["first"])
        clock.advance(by: .seconds(2))     // "cancelled" at 1s never arrives; "late" at 1.5s does
        XCTAssertEqual(machine.configuration, ["second"])
    }
}
