import Foundation
import Statechart
import StatechartSCXML
import XCTest

/// Events a host sends without data travel through the machine as bare interned ids; the
/// document must still see them in `_event` exactly as SCXML describes an external event, and
/// the gate that forwards events to invoked sessions must still see them.
final class BareEventTests: XCTestCase {
    static let dump = """
        <log expr="[_event.name, _event.type, typeof _event.sendid, typeof _event.origin, typeof _event.origintype,
                    typeof _event.invokeid, typeof _event.data].join('|')"/>
        """

    func testEventsWithoutDataAreExternalWithOnlyAName() throws {
        let session = try TestSession("""
            <state id="s">
              <transition event="plain">\(Self.dump)</transition>
              <transition event="order">\(Self.dump)</transition>
              <transition event="nested" cond="_event.name === 'nested'">\(Self.dump)<raise event="inner"/></transition>
              <transition event="inner">\(Self.dump)</transition>
              <transition event="*">\(Self.dump)</transition>
            </state>
            """)
        try session.machine.start()
        try session.machine.send("plain")
        try session.machine.send(SCXMLEvent(name: "plain"))
        try session.machine.send("order.placed")                // matched through its prefix
        try session.machine.send("unmentioned")                 // matched by "*" only
        try session.machine.send("nested")
        try session.machine.send("plain")
        try session.machine.send("plain", data: .number(7))     // between two bare ones: rebound
        try session.machine.send("plain")                       // after an event with data: none
        XCTAssertEqual(session.logs, [
            "plain|external|undefined|undefined|undefined|undefined|undefined",
            "plain|external|undefined|undefined|undefined|undefined|undefined",
            "order.placed|external|undefined|undefined|undefined|undefined|undefined",
            "unmentioned|external|undefined|undefined|undefined|undefined|undefined",
            "nested|external|undefined|undefined|undefined|undefined|undefined",
            "inner|internal|undefined|undefined|undefined|undefined|undefined",
            "plain|external|undefined|undefined|undefined|undefined|undefined",
            "plain|external|undefined|undefined|undefined|undefined|number",
            "plain|external|undefined|undefined|undefined|undefined|undefined",
        ])
    }

    func testEventsSentByHandleAreExternalWithOnlyAName() throws {
        // An event handle (SCXMLMachine.event(_:)) sends what its name would: `_event` is the
        // same, and a handle for the prefix "order" is an event named "order", not "order.x".
        let session = try TestSession("""
            <state id="s">
              <transition event="plain">\(Self.dump)</transition>
              <transition event="order.placed">\(Self.dump)</transition>
              <transition event="order">\(Self.dump)</transition>
            </state>
            """)
        let plain = try session.machine.event("plain"), order = try session.machine.event("order")
        try session.machine.start()
        try session.machine.send(plain)
        try session.machine.send(order)
        try session.machine.send(plain)
        XCTAssertEqual(session.logs, [
            "plain|external|undefined|undefined|undefined|undefined|undefined",
            "order|external|undefined|undefined|undefined|undefined|undefined",
            "plain|external|undefined|undefined|undefined|undefined|undefined",
        ])
    }

    func testEventChangesBetweenBareEventsOfTheSameName() throws {
        // `_event` is rebound for each event, also when two bare events in a row are equal
        // and a done event (platform) comes between them.
        let session = try TestSession("""
            <state id="s" initial="a">
              <state id="a"><transition event="go" target="b">\(Self.dump)</transition></state>
              <state id="b"><transition event="go" target="end">\(Self.dump)</transition></state>
              <final id="end"/>
              <transition event="done.state.s" target="t">\(Self.dump)</transition>
            </state>
            <state id="t"><transition event="go">\(Self.dump)</transition></state>
            """)
        try session.machine.start()
        for _ in 0..<3 { try session.machine.send("go") }
        XCTAssertEqual(session.logs, [
            "go|external|undefined|undefined|undefined|undefined|undefined",
            "go|external|undefined|undefined|undefined|undefined|undefined",
            "done.state.s|platform|undefined|undefined|undefined|undefined|undefined",
            "go|external|undefined|undefined|undefined|undefined|undefined",
        ])
    }

    func testEventIsBoundWhenAnExpressionFirstRuns() throws {
        // Content that evaluates nothing leaves `_event` unbound until an expression runs;
        // then it is the event of the microstep (or, for eventless transitions, the last one).
        let session = try TestSession("""
            <state id="a">
              <transition event="quiet" target="b"><raise event="raised"/><log label="no expr"/></transition>
            </state>
            <state id="b">
              <onentry><log label="entry" expr="_event.name + ' ' + _event.type"/></onentry>
              <transition event="raised" target="c"><log label="no expr"/></transition>
            </state>
            <state id="c">
              <transition target="d"><log label="eventless" expr="_event.name"/></transition>
            </state>
            <state id="d">
              <transition event="loud" cond="_event.name === 'loud'" target="e"/>
            </state>
            <state id="e"><onentry><log label="e" expr="_event.name + ' ' + _event.type"/></onentry></state>
            """)
        try session.machine.start()
        try session.machine.send("quiet")
        try session.machine.send("loud")
        XCTAssertEqual(session.logs, ["no expr: ", "entry: quiet external", "no expr: ", "eventless: raised", "e: loud external"])
    }

    func testEventsSentFromTheLogHookAreExternal() throws {
        let session = try TestSession("""
            <state id="s">
              <transition event="first"><log expr="'send second'"/></transition>
              <transition event="second">\(Self.dump)</transition>
            </state>
            """)
        let machine = session.machine
        let seen = BareEventDispatchRecorder()
        machine.onLog { [unowned machine] _, message in
            seen.add(message)
            if message == "send second" { _ = try? machine.send("second") }
        }
        try machine.start()
        try machine.send("first")
        XCTAssertEqual(seen.all, ["send second", "second|external|undefined|undefined|undefined|undefined|undefined"])
    }

    func testBareHostEventsReachASessionWithInvocations() throws {
        // The gate is installed once the session invokes; host events sent by name still run,
        // and are not forwarded without autoforward.
        let child = InvokeTests.child("""
            <state id="waiting">
              <onentry><send target="#_parent" event="listening"/></onentry>
              <transition event="ping"><send target="#_parent" event="forwarded"/></transition>
              <transition event="stop" target="end"/>
            </state>
            <final id="end"/>
            """)
        let session = try TestSession("""
            <state id="s0">
              <invoke id="kid"><content>\(child)</content></invoke>
              <transition event="listening"><log expr="'listening'"/></transition>
              <transition event="forwarded"><log expr="'forwarded'"/></transition>
              <transition event="ping"><log expr="'ping ' + _event.type"/><send target="#_kid" event="stop"/></transition>
              <transition event="done.invoke" target="done"/>
            </state>
            <final id="done"/>
            """)
        try session.machine.start()
        XCTAssertEqual(session.waitForLogs(1), ["listening"])
        XCTAssertEqual(try session.machine.send("ping"), .handled)
        XCTAssertTrue(session.machine.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertEqual(session.logs, ["listening", "ping external"])
    }

    func testAutoforwardForwardsBareHostEvents() throws {
        let child = InvokeTests.child("""
            <state id="waiting">
              <onentry><send target="#_parent" event="listening"/></onentry>
              <transition event="ping" target="end">
                <send target="#_parent" event="pong"><param name="type" expr="_event.type"/><param name="name" expr="_event.name"/></send>
              </transition>
            </state>
            <final id="end"/>
            """)
        let session = try TestSession("""
            <state id="s0">
              <invoke autoforward="true"><content>\(child)</content></invoke>
              <transition event="listening"><log expr="'parent got listening'"/></transition>
              <transition event="ping"><log expr="'parent got ping'"/></transition>
              <transition event="pong"><log expr="'child got ' + _event.data.name + ' ' + _event.data.type"/></transition>
              <transition event="done.invoke" target="done"/>
            </state>
            <final id="done"/>
            """)
        try session.machine.start()
        XCTAssertEqual(session.waitForLogs(1), ["parent got listening"])
        try session.machine.send("ping")
        XCTAssertTrue(session.machine.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertEqual(session.logs, ["parent got listening", "parent got ping", "child got ping external"])
    }
}

final class BareEventDispatchRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
