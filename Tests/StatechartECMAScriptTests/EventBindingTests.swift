import Foundation
import StatechartSCXML
import XCTest

/// `_event` is the last event the machine processed (SCXML 5.10.1), also when the transitions
/// that event enabled run no content: an eventless transition taken afterwards must see it.
final class EventBindingTests: XCTestCase {
    func testAnExternalEventWhoseTransitionRunsNoContentIsStillBound() throws {
        let session = try TestSession("""
            <state id="s0">
              <transition event="first" target="s1"><log expr="'first: ' + _event.name"/></transition>
            </state>
            <state id="s1">
              <transition event="second" target="s2"/>
            </state>
            <state id="s2">
              <transition cond="_event.name === 'second'" target="pass"/>
              <transition target="fail"><log expr="'saw ' + _event.name"/></transition>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """, attributes: #"initial="s0""#)
        try session.machine.start()
        try session.machine.send("first")
        try session.machine.send("second")
        XCTAssertEqual(session.machine.configuration, ["pass"])
        XCTAssertEqual(session.logs, ["first: first"])
    }

    func testAnInternalEventWhoseTransitionRunsNoContentIsStillBound() throws {
        let session = try TestSession("""
            <state id="s0">
              <transition event="go" target="s1"/>
            </state>
            <state id="s1">
              <onentry><raise event="inner"/></onentry>
              <transition event="inner" target="s2"/>
            </state>
            <state id="s2">
              <transition cond="_event.name === 'inner' &amp;&amp; _event.type === 'internal'" target="pass"/>
              <transition target="fail"><log expr="'saw ' + _event.name + ' ' + _event.type"/></transition>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """, attributes: #"initial="s0""#)
        try session.machine.start()
        try session.machine.send("go")
        XCTAssertEqual(session.machine.configuration, ["pass"])
        XCTAssertEqual(session.logs, [])
    }
}
