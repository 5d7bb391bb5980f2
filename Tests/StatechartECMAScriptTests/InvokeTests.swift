import Foundation
import Statechart
import StatechartSCXML
import XCTest

/// `<invoke>` of SCXML sessions (SCXML 6.4) and the SCXML Event I/O Processor (C.1). Events
/// between sessions are asynchronous, so each test waits for its machine to finish and then
/// checks the exact order of everything logged (the child's `<log>` goes to the parent's hook).
final class InvokeTests: XCTestCase {
    /// A child document inside `<invoke><content>`.
    static func child(_ body: String, datamodel: String = "") -> String {
        #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">"# + datamodel + body + "</scxml>"
    }

    func testParentAndChildTalkAndTheChildEndsWithDoneInvoke() throws {
        let child = Self.child("""
            <datamodel><data id="greeting"/><data id="parentLocation"/></datamodel>
            <state id="c0">
              <onentry><log expr="'child started with ' + greeting"/><send target="#_parent" event="ready"><param name="n" expr="1"/></send></onentry>
              <transition event="ping" target="c1"><log expr="'child got ping from ' + (_event.origin === parentLocation)"/></transition>
            </state>
            <state id="c1">
              <onentry><send target="#_parent" event="pong"/></onentry>
              <transition target="end"/>
            </state>
            <final id="end"><donedata><param name="result" expr="'ok'"/></donedata></final>
            """, datamodel: "")
        let session = try TestSession("""
            <datamodel><data id="hello" expr="'hi'"/><data id="parentLocation" expr="'#_scxml_' + _sessionid"/></datamodel>
            <state id="s0">
              <invoke id="kid" type="scxml"><param name="greeting" expr="hello"/><param name="parentLocation" expr="parentLocation"/><content>\(child)</content></invoke>
              <transition event="ready">
                <log expr="'parent got ready ' + _event.invokeid + ' ' + _event.data.n + ' ' + (_event.origin.indexOf('#_scxml_') === 0)"/>
                <send target="#_kid" event="ping"/>
              </transition>
              <transition event="pong"><log expr="'parent got pong'"/></transition>
              <transition event="done.invoke.kid" target="done"><log expr="'done ' + _event.invokeid + ' ' + _event.data.result"/></transition>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), [
            "child started with hi", "parent got ready kid 1 true", "child got ping from true", "parent got pong", "done kid ok",
        ])
    }

    func testChildDataWithoutAMatchingDataElementIsNotCreated() throws {
        // W3C 245: namelist values only replace the child's own top-level <data>.
        let child = Self.child(#"<final id="end"><onentry><log expr="typeof outside"/></onentry></final>"#)
        let session = try TestSession("""
            <datamodel><data id="outside" expr="3"/></datamodel>
            <state id="s0">
              <invoke namelist="outside"><content>\(child)</content></invoke>
              <transition event="done.invoke" target="done"/>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), ["undefined"])
    }

    func testLeavingTheInvokingStateCancelsTheChild() throws {
        // W3C 237/250/252: the child's exit handlers run, its delayed events never fire, and
        // what it sends after the cancellation is ignored.
        let child = Self.child("""
            <state id="busy">
              <onentry><send target="#_parent" event="started"/><send event="late" delay="300ms"/></onentry>
              <onexit><log expr="'child exits busy'"/><send target="#_parent" event="fromExit"/></onexit>
              <transition event="late" target="end"><log expr="'child got late'"/></transition>
            </state>
            <final id="end"/>
            """)
        let session = try TestSession("""
            <state id="s0">
              <invoke id="kid"><content>\(child)</content></invoke>
              <transition event="started" target="s1"/>
            </state>
            <state id="s1">
              <onentry><send event="check" delay="600ms"/></onentry>
              <transition event="fromExit" target="fail"/>
              <transition event="done.invoke" target="fail"/>
              <transition event="check" target="done"><log expr="'nothing came back'"/></transition>
            </state>
            <final id="done"/><final id="fail"/>
            """)
        XCTAssertEqual(try session.run(), ["child exits busy", "nothing came back"])
        XCTAssertEqual(session.machine.configuration, ["done"])
    }

    func testEventsSentBeforeTheCancellationAreStillProcessed() throws {
        // W3C 236: the child's last event and done.invoke arrive before the parent reacts to
        // the first one by leaving the invoking state; both are still processed.
        let child = Self.child("""
            <final id="end"><onexit><send target="#_parent" event="fromExit"/></onexit></final>
            """)
        let session = try TestSession("""
            <state id="s0">
              <invoke><content>\(child)</content></invoke>
              <transition event="fromExit" target="s1"><log expr="_event.name"/></transition>
            </state>
            <state id="s1"><transition event="done.invoke" target="done"><log expr="'done.invoke'"/></transition></state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), ["fromExit", "done.invoke"])
    }

    func testFinalizeRunsBeforeTheTransitionsSeeTheEvent() throws {
        // W3C 233: the condition reads what <finalize> assigned.
        let child = Self.child("""
            <final id="end"><onentry><send target="#_parent" event="result"><param name="value" expr="42"/></send></onentry></final>
            """)
        let session = try TestSession("""
            <datamodel><data id="received" expr="0"/></datamodel>
            <state id="s0">
              <invoke><content>\(child)</content>
                <finalize><log expr="'finalize ' + _event.name"/><assign location="received" expr="_event.data.value"/></finalize>
              </invoke>
              <transition event="result" cond="received === 42"><log expr="'transition sees ' + received"/></transition>
              <transition event="done.invoke" target="done"/>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), ["finalize result", "transition sees 42", "finalize done.invoke.\(generatedIDPrefix(session))"])
    }

    func testAutoforwardSendsExternalEventsToTheChild() throws {
        let child = Self.child("""
            <state id="waiting">
              <onentry><send target="#_parent" event="listening"/></onentry>
              <transition event="news" target="end">
                <send target="#_parent" event="ack"><param name="headline" expr="_event.data.headline"/></send>
              </transition>
            </state>
            <final id="end"/>
            """)
        let session = try TestSession("""
            <state id="s0">
              <invoke autoforward="true" idlocation="kid"><content>\(child)</content></invoke>
              <transition event="listening"><log expr="'parent got listening'"/></transition>
              <transition event="news"><log expr="'parent got news'"/></transition>
              <transition event="ack"><log expr="'child got ' + _event.data.headline"/></transition>
              <transition event="done.invoke" target="done"/>
            </state>
            <final id="done"/>
            """.replacingOccurrences(of: "<state id=\"s0\">", with: "<datamodel><data id=\"kid\"/></datamodel><state id=\"s0\">"))
        try session.machine.start()
        XCTAssertEqual(session.waitForLogs(1), ["parent got listening"])
        try session.machine.send("news", data: .object(["headline": .string("forwarded")]))
        XCTAssertTrue(session.machine.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertEqual(session.logs, ["parent got listening", "parent got news", "child got forwarded"])
    }

    func testGeneratedIDsAreStoredAtIdlocationAndUnique() throws {
        // W3C 224/225: "stateid.platformid".
        let child = Self.child(#"<final id="end"/>"#)
        let session = try TestSession("""
            <datamodel><data id="a"/><data id="b"/><data id="count" expr="0"/></datamodel>
            <state id="s0">
              <invoke idlocation="a"><content>\(child)</content></invoke>
              <invoke idlocation="b"><content>\(child)</content></invoke>
              <transition event="done.invoke" cond="count === 0"><assign location="count" expr="1"/></transition>
              <transition event="done.invoke" target="done">
                <log expr="(a.indexOf('s0.') === 0) + ' ' + (b.indexOf('s0.') === 0) + ' ' + (a !== b)"/>
              </transition>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), ["true true true"])
    }

    func testInvokeErrorsRaiseErrorExecutionAndStartNothing() throws {
        // W3C 554 and bad sources: nothing is invoked, so no done.invoke comes.
        let session = try TestSession("""
            <datamodel><data id="errors" expr="0"/></datamodel>
            <state id="s0">
              <onentry><send event="timeout" delay="300ms"/></onentry>
              <invoke namelist="&quot;bad"><content>\(Self.child(#"<final id="e1"/>"#))</content></invoke>
              <invoke src="file:no-such-child.scxml"/>
              <invoke><content expr="'not scxml'"/></invoke>
              <invoke type="http://example.com/unknown-type"><content>\(Self.child(#"<final id="e2"/>"#))</content></invoke>
              <transition event="error.execution"><assign location="errors" expr="errors + 1"/></transition>
              <transition event="done.invoke" target="fail"/>
              <transition event="timeout" target="done"><log expr="errors + ' errors'"/></transition>
            </state>
            <final id="done"/><final id="fail"/>
            """)
        XCTAssertEqual(try session.run(), ["4 errors"])
        XCTAssertEqual(session.machine.configuration, ["done"])
    }

    func testSrcAndSrcexprLoadChildDocumentsRelativeToTheParent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ecma-invoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.child(#"<datamodel><data id="v" expr="0"/></datamodel><final id="end"><donedata><param name="v" expr="v"/></donedata></final>"#)
            .write(to: folder.appendingPathComponent("child.scxml"), atomically: true, encoding: .utf8)
        let session = try TestSession("""
            <datamodel><data id="name" expr="'file:' + 'child.scxml'"/></datamodel>
            <state id="s0">
              <invoke src="file:child.scxml"><param name="v" expr="1"/></invoke>
              <transition event="done.invoke" target="s1"><log expr="_event.data.v"/></transition>
            </state>
            <state id="s1">
              <invoke srcexpr="name"><param name="v" expr="2"/></invoke>
              <transition event="done.invoke" target="done"><log expr="_event.data.v"/></transition>
            </state>
            <final id="done"/>
            """, baseURL: folder)
        XCTAssertEqual(try session.run(), ["1", "2"])
    }

    func testSessionsReachEachOtherBySessionIDAndReplyThroughOrigin() throws {
        // C.1: #_scxml_<sessionid> between two independent machines; _event.origin answers.
        let server = try TestSession("""
            <state id="serving">
              <transition event="request" target="done">
                <send event="reply" targetexpr="_event.origin" typeexpr="_event.origintype"><param name="echo" expr="_event.data.n"/></send>
              </transition>
            </state>
            <final id="done"/>
            """)
        var options = SCXMLMachine.Options.withECMAScript
        options.values["server"] = .string("#_scxml_\(server.machine.sessionID)")
        let client = try TestSession("""
            <state id="asking">
              <onentry><send event="request" targetexpr="server"><param name="n" expr="5"/></send></onentry>
              <transition event="reply" target="done"><log expr="'reply ' + _event.data.echo"/></transition>
            </state>
            <final id="done"/>
            """, options: options)
        try server.machine.start()
        XCTAssertEqual(try client.run(), ["reply 5"])
        XCTAssertTrue(server.machine.waitUntilFinished(timeout: .seconds(5)))
    }

    func testTwoSessionsPingPongWithoutDeadlock() throws {
        // Both sessions send to each other from their own actions while the host sends to
        // both: deliveries are asynchronous, so neither ever waits for the other.
        let rounds = 300
        let ponger = try TestSession("""
            <datamodel><data id="hits" expr="0"/></datamodel>
            <state id="on">
              <transition event="ping"><assign location="hits" expr="hits + 1"/><send event="pong" targetexpr="_event.origin"/></transition>
              <transition event="stop" target="done"/>
            </state>
            <final id="done"><onentry><log expr="'ponger ' + hits"/></onentry></final>
            """)
        var options = SCXMLMachine.Options.withECMAScript
        options.values["other"] = .string("#_scxml_\(ponger.machine.sessionID)")
        let pinger = try TestSession("""
            <datamodel><data id="pongs" expr="0"/><data id="noise" expr="0"/></datamodel>
            <state id="on">
              <onentry><send event="ping" targetexpr="other"/></onentry>
              <transition event="pong" cond="pongs + 1 &lt; \(rounds)"><assign location="pongs" expr="pongs + 1"/><send event="ping" targetexpr="other"/></transition>
              <transition event="pong" target="done"><assign location="pongs" expr="pongs + 1"/><send event="stop" targetexpr="other"/></transition>
              <transition event="noise"><assign location="noise" expr="noise + 1"/></transition>
            </state>
            <final id="done"><onentry><log expr="'pinger ' + pongs"/></onentry></final>
            """, options: options)
        try ponger.machine.start()
        try pinger.machine.start()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<50 { _ = try? pinger.machine.send("noise"); _ = try? ponger.machine.send("noise") }
        }
        XCTAssertTrue(pinger.machine.waitUntilFinished(timeout: .seconds(20)), "deadlock? \(pinger.logs)")
        XCTAssertTrue(ponger.machine.waitUntilFinished(timeout: .seconds(20)), "deadlock? \(ponger.logs)")
        XCTAssertEqual(pinger.logs, ["pinger \(rounds)"])
        XCTAssertEqual(ponger.logs, ["ponger \(rounds)"])
    }

    func testFinishedSessionsAreReleasedAndUnreachable() throws {
        var parent: TestSession? = try TestSession("""
            <state id="s0">
              <invoke><content>\(Self.child(#"<state id="c"><transition event="go" target="end"/></state><final id="end"/>"#))</content></invoke>
              <transition event="finish" target="done"/>
            </state>
            <final id="done"/>
            """)
        weak let machine = parent?.machine
        let id = try XCTUnwrap(parent?.machine.sessionID)
        try parent?.machine.start()
        try parent?.machine.send("finish")
        XCTAssertEqual(parent?.machine.configuration, ["done"])
        parent = nil
        let deadline = Date(timeIntervalSinceNow: 5)
        while machine != nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertNil(machine, "the finished session (and its worker jobs) should not keep it alive")
        let prober = try TestSession("""
            <state id="s">
              <onentry><send event="hello" target="#_scxml_\(id)"/></onentry>
              <transition event="error.communication" target="done"><log expr="_event.name"/></transition>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try prober.run(), ["error.communication"])
    }

    private func generatedIDPrefix(_ session: TestSession) -> String {
        "s0.\(session.machine.sessionID).1"
    }
}
