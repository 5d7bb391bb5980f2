import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import Synchronization
import XCTest

/// Hand-checked snapshots of SCXML sessions: each value kind, the errors, delayed sends.
final class SCXMLSnapshotTests: XCTestCase {
    private func machine(_ body: String, datamodel: String = "ecmascript", clock: TestClock = TestClock()) throws -> SCXMLMachine {
        var options = SCXMLMachine.Options.withECMAScript
        options.clock = clock
        let text = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="\#(datamodel)">"#
            + body + "</scxml>"
        return try SCXMLMachine(string: text, options: options)
    }

    /// Through JSON, as a snapshot travels between processes.
    private func throughJSON(_ snapshot: SCXMLSnapshot) throws -> SCXMLSnapshot {
        try JSONDecoder().decode(SCXMLSnapshot.self, from: JSONEncoder().encode(snapshot))
    }

    private let valueChart = """
        <datamodel>
          <data id="n" expr="null"/><data id="b" expr="true"/><data id="num" expr="2.5"/>
          <data id="s" expr="'h\\u00e9llo'"/><data id="arr" expr="[1, 'x', null]"/>
          <data id="obj" expr="({a: {b: [true]}, 'key with space': -0.25})"/><data id="u"/>
        </datamodel>
        <state id="idle">
          <transition event="check" cond="n === null &amp;&amp; b === true &amp;&amp; num === 2.5 &amp;&amp; s === 'h\\u00e9llo'
            &amp;&amp; arr.length === 3 &amp;&amp; arr[1] === 'x' &amp;&amp; arr[2] === null &amp;&amp; obj.a.b[0] === true
            &amp;&amp; obj['key with space'] === -0.25 &amp;&amp; u === undefined &amp;&amp; 'u' in this" target="ok"/>
          <transition event="check" target="wrong"/>
        </state>
        <final id="ok"/><final id="wrong"/>
        """

    func testEachValueKindIsCapturedExactlyAndRestored() throws {
        let original = try machine(valueChart)
        try original.start()
        let snapshot = try original.snapshot()
        XCTAssertEqual(snapshot.variables, [
            .init(name: "arr", value: .array([.number(1), .string("x"), .null])),
            .init(name: "b", value: .bool(true)),
            .init(name: "n", value: .null),
            .init(name: "num", value: .number(2.5)),
            .init(name: "obj", value: .object(["a": .object(["b": .array([.bool(true)])]), "key with space": .number(-0.25)])),
            .init(name: "s", value: .string("héllo")),
            .init(name: "u", value: nil),
        ])
        XCTAssertEqual(snapshot.datamodel, "ecmascript")
        XCTAssertEqual(snapshot.version, 1)
        XCTAssertEqual(snapshot.machine.activeStates, ["idle"])
        let restored = try machine(valueChart)
        try restored.restore(try throughJSON(snapshot))
        XCTAssertEqual(try restored.snapshot().variables, snapshot.variables)
        try restored.send("check")
        XCTAssertEqual(restored.configuration, ["ok"])
    }

    func testTheJSONCarriesTheFormatVersion() throws {
        let original = try machine(#"<state id="a"/>"#, datamodel: "null")
        try original.start()
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try original.snapshot())) as? [String: Any]
        XCTAssertEqual(json?["version"] as? Int, 1)
        XCTAssertEqual(json?["datamodel"] as? String, "null")
    }

    func testAFunctionValuedVariableIsRefusedByName() throws {
        let original = try machine("""
            <datamodel><data id="ok" expr="1"/><data id="handlers" expr="({onDone: [function () {}]})"/></datamodel>
            <state id="a"/>
            """)
        try original.start()
        XCTAssertThrowsError(try original.snapshot()) { error in
            XCTAssertEqual(error as? SCXMLSnapshotError,
                           .unrepresentableValue(variable: "handlers", path: "handlers.onDone[0]", reason: "a function"))
            XCTAssertEqual("\(error)", "variable 'handlers' cannot be snapshotted: handlers.onDone[0] is a function; a snapshot holds only what JSON represents (null, booleans, finite numbers, strings, arrays and plain objects, each object once)")
        }
    }

    func testCyclesUndefinedMembersAndNonFiniteNumbersAreRefused() throws {
        let cases: [(String, SCXMLSnapshotError)] = [
            ("var c = {}; c.self = c;", .unrepresentableValue(variable: "c", path: "c.self",
                reason: "the same object as c (a cycle or a shared object would not come back as one object)")),
            ("var d = {x: undefined};", .unrepresentableValue(variable: "d", path: "d.x",
                reason: "undefined, which JSON cannot represent inside an array or object")),
            ("var e = [NaN];", .unrepresentableValue(variable: "e", path: "e[0]", reason: "NaN, which JSON cannot represent")),
            ("var f = new Date(0);", .unrepresentableValue(variable: "f", path: "f", reason: "a Date object, not plain data")),
        ]
        for (script, expected) in cases {
            let original = try machine("<script>\(script)</script><state id=\"a\"/>")
            try original.start()
            XCTAssertThrowsError(try original.snapshot(), script) { XCTAssertEqual($0 as? SCXMLSnapshotError, expected, script) }
        }
    }

    private let timerChart = """
        <state id="idle">
          <onentry><send event="timeout" id="t" delay="5s"/><send event="tick" idlocation="tickID" delay="1s"/></onentry>
          <transition event="tick" target="idle"/>
          <transition event="stop"><cancel sendid="t"/></transition>
          <transition event="timeout" target="timedOut"/>
        </state>
        <final id="timedOut"/>
        """

    func testADelayedSendKeepsItsRemainingTimeAndSendID() throws {
        let clock = TestClock()
        let original = try machine("<datamodel><data id=\"tickID\"/></datamodel>" + timerChart.replacingOccurrences(of: #"<transition event="tick" target="idle"/>"#, with: ""), clock: clock)
        try original.start()
        clock.advance(by: .seconds(2))              // the tick has fired (and was ignored)
        let snapshot = try throughJSON(try original.snapshot())
        XCTAssertEqual(snapshot.machine.delayedEvents.map(\.sendID), ["t"])
        XCTAssertEqual(snapshot.machine.delayedEvents.map(\.remaining), [.seconds(3)])
        XCTAssertEqual(snapshot.machine.delayedEvents.map(\.event.name), ["timeout"])
        XCTAssertEqual(snapshot.session.sendCounter, 1)   // the tick's generated id

        let restoredClock = TestClock(now: .seconds(100))
        let restored = try machine("<datamodel><data id=\"tickID\"/></datamodel>" + timerChart.replacingOccurrences(of: #"<transition event="tick" target="idle"/>"#, with: ""), clock: restoredClock)
        try restored.restore(snapshot)
        restoredClock.advance(by: .milliseconds(2_999))
        XCTAssertEqual(restored.configuration, ["idle"])
        restoredClock.advance(by: .milliseconds(1))
        XCTAssertEqual(restored.configuration, ["timedOut"])
    }

    func testCancelStillFindsARestoredSendAndNewSendIDsContinueTheCount() throws {
        let body = "<datamodel><data id=\"tickID\"/></datamodel>" + timerChart
        let clock = TestClock()
        let original = try machine(body, clock: clock)
        try original.start()
        XCTAssertEqual(try original.snapshot().variables, [.init(name: "tickID", value: .string("send.\(original.sessionID).1"))])
        let restoredClock = TestClock()
        let restored = try machine(body, clock: restoredClock)
        try restored.restore(try throughJSON(try original.snapshot()))
        try restored.send("stop")                   // <cancel sendid="t">
        restoredClock.advance(by: .seconds(1))      // the tick re-enters idle: new sends
        XCTAssertEqual(try restored.snapshot().variables, [.init(name: "tickID", value: .string("send.\(restored.sessionID).2"))])
        restoredClock.advance(by: .milliseconds(4_500))   // the cancelled timeout (due at 5 s) did not fire
        XCTAssertEqual(restored.configuration, ["idle"])
        // Ticks at 1, 2, 3, 4 and 5 s each re-entered idle, sending a new "t" (due 5 s later)
        // and a tick (send ids 2...6): due at 6 s are the "t" of 1 s, then the tick of 5 s.
        let pending = try restored.snapshot().machine.delayedEvents
        XCTAssertEqual(pending.map(\.sendID), ["t", "send.\(restored.sessionID).6", "t", "t", "t", "t"])
        XCTAssertEqual(pending.map(\.remaining), [.milliseconds(500), .milliseconds(500), .milliseconds(1_500),
                                                  .milliseconds(2_500), .milliseconds(3_500), .milliseconds(4_500)])
    }

    func testASnapshotOfAnotherDocumentIsRefused() throws {
        let original = try machine(#"<state id="a"><transition event="go" target="b"/></state><state id="b"/>"#, datamodel: "null")
        try original.start()
        let other = try machine(#"<state id="a"><transition event="go" target="c"/></state><state id="c"/>"#, datamodel: "null")
        let snapshot = try original.snapshot()
        XCTAssertThrowsError(try other.restore(snapshot)) { error in
            XCTAssertEqual(error as? SCXMLSnapshotError,
                           .differentDocument(expected: SCXMLDocumentFingerprint(other.document), found: snapshot.document))
            XCTAssertTrue("\(error)".hasPrefix("the snapshot was taken of another document (fnv1a64:"), "\(error)")
        }
        XCTAssertNotEqual(SCXMLDocumentFingerprint(other.document), snapshot.document)
        XCTAssertFalse(other.machine.isStarted)
        // The same document, loaded again (another layout), is accepted.
        let same = try machine(#"<state id="a">   <transition target="b" event="go"/></state><state id="b"/>"#, datamodel: "null")
        try same.restore(snapshot)
        try same.send("go")
        XCTAssertEqual(same.configuration, ["b"])
    }

    func testAnActiveInvocationIsRefusedByName() throws {
        let original = try machine("""
            <state id="waiting">
              <invoke id="payment" type="scxml"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="busy"/></scxml></content></invoke>
            </state>
            """)
        try original.start()
        XCTAssertThrowsError(try original.snapshot()) { error in
            XCTAssertEqual(error as? SCXMLSnapshotError, .invocationActive(state: "waiting", invokeID: "payment"))
            XCTAssertEqual("\(error)", #"state 'waiting' is active and has <invoke id="payment">: invoked sessions cannot be snapshotted; snapshot when no state with an <invoke> is active"#)
        }
    }

    func testRestoreRefusesAStartedMachineAndAnUnknownVersion() throws {
        let original = try machine(#"<state id="a"/>"#, datamodel: "null")
        try original.start()
        var snapshot = try original.snapshot()
        XCTAssertThrowsError(try original.restore(snapshot)) { XCTAssertEqual($0 as? SCXMLSnapshotError, .alreadyStarted) }
        snapshot.version = 2
        let fresh = try machine(#"<state id="a"/>"#, datamodel: "null")
        XCTAssertThrowsError(try fresh.restore(snapshot)) { error in
            XCTAssertEqual("\(error)", "snapshot format version 2 is not supported (this library reads version 1)")
        }
    }

    /// The example of the SCXMLSnapshots article (StatechartSCXML.docc), as written there.
    func testTheArticleExample() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="order" expr="({id: 7, items: []})"/></datamodel>
              <state id="shopping">
                <transition event="add"><script>order.items.push(_event.data)</script></transition>
                <transition event="checkout" target="paying"/>
              </state>
              <state id="paying">
                <onentry><send id="timeout" event="payment.timeout" delay="900s"/></onentry>
                <transition event="paid" target="done"><cancel sendid="timeout"/></transition>
                <transition event="payment.timeout" target="shopping"/>
              </state>
              <final id="done"/>
            </scxml>
            """
        var options = SCXMLMachine.Options.withECMAScript
        let clock = TestClock()
        options.clock = clock
        let machine = try SCXMLMachine(string: document, options: options)
        try machine.start()
        try machine.send("add", data: .string("tea"))
        try machine.send("checkout")
        clock.advance(by: .seconds(300))
        let json = try JSONEncoder().encode(try machine.snapshot())

        // Later, perhaps after a restart: the same document, a fresh machine.
        let restoredClock = TestClock()
        options.clock = restoredClock
        let restored = try SCXMLMachine(string: document, options: options)
        try restored.restore(JSONDecoder().decode(SCXMLSnapshot.self, from: json))
        XCTAssertEqual(restored.configuration, ["paying"])
        XCTAssertEqual(try restored.snapshot().variables,
                       [.init(name: "order", value: .object(["id": .number(7), "items": .array([.string("tea")])]))])
        restoredClock.advance(by: .milliseconds(599_999))
        XCTAssertEqual(restored.configuration, ["paying"])
        restoredClock.advance(by: .milliseconds(1))     // the timeout had 10 minutes left
        XCTAssertEqual(restored.configuration, ["shopping"])
    }

    func testHistoryRecordsSurviveARestore() throws {
        // "pause" exits player, whose deep history records fast; "resume" returns there.
        let body = """
            <state id="main" initial="player">
              <state id="player" initial="normal">
                <history id="resume" type="deep"><transition target="normal"/></history>
                <state id="normal"><transition event="ff" target="fast"/></state>
                <state id="fast"/>
                <transition event="pause" target="paused"/>
              </state>
              <state id="paused"><transition event="resume" target="resume"/></state>
            </state>
            """
        let original = try machine(body, datamodel: "null")
        try original.start()
        try original.send("ff")
        try original.send("pause")
        let snapshot = try throughJSON(try original.snapshot())
        XCTAssertEqual(snapshot.machine.activeStates, ["main", "paused"])
        XCTAssertEqual(snapshot.machine.history, [.init(state: "resume", remembered: ["fast"])])
        let restored = try machine(body, datamodel: "null")
        try restored.restore(snapshot)
        try restored.send("resume")
        XCTAssertEqual(restored.configuration, ["fast"])
        try original.send("resume")
        XCTAssertEqual(original.configuration, ["fast"])
    }

    func testADelayedSendToAnotherTargetIsRestoredAsOne() throws {
        // A delayed <send> to another target than the session itself waits as a deferred send,
        // performed by the session's gate when due (here: to the host's onSend handler). A
        // restored machine without the gate would process it as an event of its own.
        let body = """
            <state id="a">
              <onentry><send event="notify" target="app:ui" delay="1s"/><send event="outer" delay="2s"/></onentry>
              <transition event="outer" target="done"/>
            </state>
            <final id="done"/>
            """
        let original = try machine(body)
        original.onSend { _, _, _ in true }
        try original.start()
        let snapshot = try throughJSON(try original.snapshot())
        XCTAssertEqual(snapshot.machine.delayedEvents.map(\.event.name), ["scxml.runtime.deferred", "outer"])
        let clock = TestClock()
        let restored = try machine(body, clock: clock)
        let sent = Mutex<[String]>([])
        restored.onSend { event, target, _ in
            sent.withLock { $0.append("\(event.name) to \(target) at \(clock.now)") }
            return true
        }
        restored.onStateChange { state, entered in sent.withLock { $0.append("\(entered ? "enter" : "exit") \(state) at \(clock.now)") } }
        try restored.restore(snapshot)
        clock.advance(by: .seconds(2))
        XCTAssertEqual(sent.withLock { $0 }, ["notify to app:ui at 1.0 seconds", "exit a at 2.0 seconds", "enter done at 2.0 seconds"])
        XCTAssertEqual(restored.configuration, ["done"])
    }
}
