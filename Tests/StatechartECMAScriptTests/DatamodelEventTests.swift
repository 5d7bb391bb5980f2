import Statechart
import StatechartSCXML
import XCTest

/// `_event` and the other system variables (SCXML 5.10) as ECMAScript documents see them.
final class DatamodelEventTests: XCTestCase {
    /// Logs every field of `_event` as `name|type|sendid|origin|origintype|invokeid|data`.
    static let dump = """
        <log expr="[_event.name, _event.type, _event.sendid, _event.origin, _event.origintype, _event.invokeid,
                    JSON.stringify(_event.data)].join('|')"/>
        """

    func testEventFieldsOfInternalExternalPlatformAndHostEvents() throws {
        let session = try TestSession("""
            <datamodel><data id="id"/></datamodel>
            <state id="s0">
              <onentry>
                <log expr="typeof _event"/>
                <raise event="raised"/>
                <send event="sent" id="s-1"><param name="n" expr="1"/></send>
                <send event="noid"><content>{"k": true}</content></send>
                <send event="texty"><content>  some   text </content></send>
                <send target="nowhere" event="bad" idlocation="id"/>
                <log expr="'not reached'"/>
              </onentry>
              <transition event="raised">\(Self.dump)</transition>
              <transition event="error" cond="_event.sendid === id">\(Self.dump)</transition>
              <transition event="sent">\(Self.dump)</transition>
              <transition event="noid">\(Self.dump)</transition>
              <transition event="texty" target="s1">\(Self.dump)</transition>
            </state>
            <state id="s1"><transition event="host" target="done">\(Self.dump)</transition></state>
            <final id="done"/>
            """)
        try session.machine.start()
        try session.machine.send("host", data: .array([.number(1)]))
        XCTAssertTrue(session.machine.waitUntilFinished(timeout: .seconds(5)))
        let id = session.machine.sessionID
        let origin = "#_scxml_\(id)|\(SCXMLEvent.scxmlProcessorType)"
        XCTAssertEqual(session.logs, [
            "undefined",
            "raised|internal|||||",
            #"error.execution|platform|send.\#(id).3||||"<send> target 'nowhere' is not a valid target URI""#,
            #"sent|external|s-1|\#(origin)||{"n":1}"#,
            #"noid|external||\#(origin)||{"k":true}"#,
            #"texty|external||\#(origin)||"some text""#,
            "host|external|||||[1]",
        ])
    }

    func testDuplicateParamNamesKeepEveryValue() throws {
        // W3C 178 (manual): all values are included even when names repeat.
        let session = try TestSession("""
            <datamodel><data id="Var1" expr="1"/></datamodel>
            <state id="s">
              <onentry><send event="e" namelist="Var1"><param name="Var1" expr="2"/><param name="Var1" expr="3"/><param name="other" expr="4"/></send></onentry>
              <transition event="e" target="done"><log expr="JSON.stringify(_event.data.Var1) + ' ' + _event.data.other"/></transition>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), ["[1,2,3] 4"])
    }

    func testEveryFieldIsPresentEvenWhenUndefined() throws {
        // W3C 330.
        let session = try TestSession("""
            <state id="s"><onentry><raise event="e"/></onentry>
              <transition event="e" target="done">
                <log expr="['name', 'type', 'sendid', 'origin', 'origintype', 'invokeid', 'data']
                           .filter(function (k) { return k in _event; }).length"/>
              </transition>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), ["7"])
    }

    func testSystemVariablesAreReadOnlyAndKeepTheirValues() throws {
        // W3C 322, 324, 326, 329, 346: each attempt is error.execution; values and identity stay.
        let session = try TestSession("""
            <datamodel><data id="before" expr="[_sessionid, _name, _ioprocessors]"/><data id="errors" expr="0"/></datamodel>
            <state id="s">
              <onentry>
                <raise event="go"/>
              </onentry>
              <transition event="go" target="t">
                <assign location="_sessionid" expr="'x'"/>
              </transition>
            </state>
            <state id="t">
              <onentry><assign location="_name" expr="'x'"/></onentry>
              <onentry><assign location="_ioprocessors" expr="'x'"/></onentry>
              <onentry><assign location="_event" expr="'x'"/></onentry>
              <onentry><script>_event = 1;</script></onentry>
              <onentry><assign location="_event.name" expr="'renamed'"/></onentry>
              <transition event="error.execution" cond="errors &lt; 5">
                <assign location="errors" expr="errors + 1"/>
              </transition>
              <transition event="error.execution" target="done">
                <log expr="(errors + 1) + ' ' + (before[0] === _sessionid) + ' ' + (before[1] === _name) + ' ' + (before[2] === _ioprocessors) + ' ' + _event.name"/>
              </transition>
            </state>
            <final id="done"/>
            """, attributes: #"name="machine""#)
        XCTAssertEqual(try session.run(), ["6 true true true error.execution"])
    }

    func testSessionNameAndIOProcessors() throws {
        let session = try TestSession("""
            <final id="done"><onentry>
              <log expr="_sessionid + ' ' + _name"/>
              <log expr="_ioprocessors.scxml.location"/>
              <log expr="_ioprocessors['http://www.w3.org/TR/scxml/#SCXMLEventProcessor'].location"/>
              <log expr="Object.keys(_ioprocessors).sort().join(' ')"/>
            </onentry></final>
            """, attributes: #"name="named""#)
        let id = session.machine.sessionID
        XCTAssertEqual(try session.run(), [
            "\(id) named", "#_scxml_\(id)", "#_scxml_\(id)", "http://www.w3.org/TR/scxml/#SCXMLEventProcessor scxml",
        ])
    }

    func testXMLContentIsADocumentAndDoneDataReachesTheDoneEvent() throws {
        // W3C 561 and 294/527/529.
        let session = try TestSession("""
            <state id="s0">
              <onentry>
                <send event="xml"><content><order xmlns="" id="7"><line qty="2"/>text</order></content></send>
              </onentry>
              <transition event="xml" target="s1">
                <log expr="_event.data.documentElement.getAttribute('id') + ' ' + _event.data.getElementsByTagName('line')[0].getAttribute('qty') + ' ' + _event.data.documentElement.textContent"/>
              </transition>
            </state>
            <state id="s1" initial="inner">
              <state id="inner"><transition target="end"/></state>
              <final id="end"><donedata><param name="total" expr="40 + 2"/></donedata></final>
              <transition event="done.state.s1" target="done">
                <log expr="_event.type + ' ' + JSON.stringify(_event.data)"/>
              </transition>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), ["7 2 text", #"platform {"total":42}"#])
    }
}
