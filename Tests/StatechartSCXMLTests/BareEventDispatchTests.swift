import Foundation
import Statechart
import StatechartSCXML
import XCTest

/// The fast dispatch path of SCXML machines: events without data travel as bare interned ids,
/// names are found by their bytes, the external-event gate is installed only once it has work,
/// and no state observer runs unless the host asks for one. Each test pins a behaviour that
/// path must keep.
final class BareEventDispatchTests: XCTestCase {
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
        func reset() { lock.withLock { items.removeAll() } }
    }

    private func machine(_ body: String, initial: String? = nil) throws -> (SCXMLMachine, Recorder) {
        let text = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null""#
            + (initial.map { #" initial="\#($0)""# } ?? "") + ">\n" + body + "\n</scxml>"
        let machine = try SCXMLMachine(string: text, fileName: "test.scxml")
        let logs = Recorder()
        machine.onLog { label, _ in logs.add(label ?? "-") }
        return (machine, logs)
    }

    /// Waits up to `seconds` for `condition`.
    private func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return true
    }

    // MARK: - Names

    func testNamesMatchExactlyByPrefixOrOnlyByWildcard() throws {
        let (machine, logs) = try machine("""
            <state id="s">
              <transition event="coin"><log label="coin"/></transition>
              <transition event="seven77"><log label="7 bytes"/></transition>
              <transition event="eightby8"><log label="8 bytes"/></transition>
              <transition event="a.rather.long.event.name"><log label="long"/></transition>
              <transition event="order"><log label="order"/></transition>
              <transition event="x.y.z"><log label="x.y.z"/></transition>
              <transition event="*"><log label="any"/></transition>
            </state>
            """)
        try machine.start()
        let sent: [(String, String)] = [
            ("coin", "coin"), ("seven77", "7 bytes"), ("eightby8", "8 bytes"), ("a.rather.long.event.name", "long"),
            ("order", "order"), ("order.placed", "order"), ("order.placed.today", "order"),
            ("x.y.z", "x.y.z"), ("x.y", "any"), ("x.y.z.w", "x.y.z"),
            ("a.rather.long.event.nam", "any"), ("a.rather.long.event.names", "any"), ("a.rather", "any"),
            ("coi", "any"), ("coins", "any"), ("COIN", "any"), ("coin\u{0}", "any"), ("", "any"),
            ("orderly", "any"), (".order", "any"), ("seven7", "any"), ("eightby88", "any"),
        ]
        for (name, _) in sent { XCTAssertEqual(try machine.send(name), .handled, name) }
        XCTAssertEqual(logs.all, sent.map(\.1))
    }

    func testNamesFollowStringEqualityForNonASCIIText() throws {
        // Swift's String equality is canonical equivalence: the name as sent need not have the
        // document's bytes. "é" precomposed and decomposed, and U+212A KELVIN SIGN, which is
        // canonically "K" (so an all-ASCII chart still finds it).
        let (machine, logs) = try machine("""
            <state id="s">
              <transition event="caf\u{E9}.menu"><log label="menu"/></transition>
              <transition event="caf\u{E9}"><log label="café"/></transition>
              <transition event="K"><log label="K"/></transition>
              <transition event="*"><log label="any"/></transition>
            </state>
            """)
        try machine.start()
        for name in ["caf\u{E9}", "cafe\u{301}", "K", "\u{212A}", "cafe\u{301}.menu", "cafe\u{301}.menu.today",
                     "cafe\u{301}.other", "cafe", "k"] {
            XCTAssertEqual(try machine.send(name), .handled, name)
        }
        XCTAssertEqual(logs.all, ["café", "café", "K", "K", "menu", "menu", "café", "any", "any"])
    }

    func testAnAllASCIIChartFindsNonASCIISpellingsOfItsNames() throws {
        let (machine, logs) = try machine("""
            <state id="s">
              <transition event="K.v"><log label="K.v"/></transition>
              <transition event="*"><log label="any"/></transition>
            </state>
            """)
        try machine.start()
        for name in ["K.v", "\u{212A}.v", "\u{212A}.v.w", "K.w"] { try machine.send(name) }
        XCTAssertEqual(logs.all, ["K.v", "K.v", "K.v", "any"])
    }

    func testManyNamesAreAllFound() throws {
        // Enough names to grow the lookup table several times, short and long.
        let names = (0..<300).map { $0 % 2 == 0 ? "e\($0)" : "event.number.\($0)" }
        let transitions = names.map { #"<transition event="\#($0)"><log label="\#($0)"/></transition>"# }
        let (machine, logs) = try machine(#"<state id="s">"# + transitions.joined() + "</state>")
        try machine.start()
        for name in names.reversed() { XCTAssertEqual(try machine.send(name), .handled, name) }
        XCTAssertEqual(logs.all, names.reversed())
        XCTAssertEqual(try machine.send("e1"), .unhandled)
    }

    func testSendingAnSCXMLEventWithOnlyANameIsTheSameAsSendingTheName() throws {
        let (machine, _) = try machine("""
            <state id="a"><transition event="go" target="b"/></state>
            <state id="b"><transition event="go" target="a"/></state>
            """)
        try machine.start()
        XCTAssertEqual(try machine.send(SCXMLEvent(name: "go")), .handled)
        XCTAssertEqual(machine.configuration, ["b"])
        XCTAssertEqual(try machine.send(SCXMLEvent(name: "go", data: .number(1))), .handled)
        XCTAssertEqual(machine.configuration, ["a"])
        XCTAssertEqual(try machine.send(SCXMLEvent(name: "stop")), .unhandled)
    }

    // MARK: - Observers and hooks installed late

    func testObserversAndTheLogHookInstalledAfterStartReport() throws {
        let (machine, _) = try machine("""
            <state id="off"><transition event="flip" target="on"><log label="flipped"/></transition></state>
            <state id="on">
              <onentry><log label="entered on"/></onentry>
              <transition event="flip" target="off"/>
            </state>
            """)
        try machine.start()
        try machine.send("flip")
        try machine.send("flip")
        let changes = Recorder(), logs = Recorder(), transitions = Recorder()
        let token = machine.onStateChange { state, entered in changes.add("\(entered ? "+" : "-")\(state)") }
        machine.onLog { label, _ in logs.add(label ?? "-") }
        machine.machine.onTransition { record in
            transitions.add("\(record.source) \(record.event?.name ?? "-") payload:\(record.event?.payload == nil ? "none" : "some")")
        }
        try machine.send("flip")
        try machine.send("flip", data: .string("with data"))
        XCTAssertEqual(changes.all, ["-off", "+on", "-on", "+off"])
        XCTAssertEqual(logs.all, ["flipped", "entered on"])
        XCTAssertEqual(transitions.all, ["off flip payload:none", "on flip payload:some"])
        machine.machine.removeObserver(token)
        try machine.send("flip")
        XCTAssertEqual(changes.all.count, 4)
    }

    func testTheLogHookCanBeReplacedFromInsideItself() throws {
        let (machine, first) = try machine("""
            <state id="s">
              <transition event="go"><log label="one"/><log label="two"/><log label="three"/></transition>
            </state>
            """)
        let second = Recorder()
        machine.onLog { [unowned machine] label, _ in
            first.add(label ?? "-")
            if label == "one" { machine.onLog { label, _ in second.add(label ?? "-") } }
        }
        try machine.start()
        try machine.send("go")
        try machine.send("go")
        XCTAssertEqual(first.all, ["one"])
        XCTAssertEqual(second.all, ["two", "three", "one", "two", "three"])
    }

    func testEventsSentFromAHookAreQueuedAndRun() throws {
        let (machine, logs) = try machine("""
            <state id="a"><transition event="go" target="b"><log label="a->b"/></transition></state>
            <state id="b"><transition event="back" target="a"><log label="b->a"/></transition></state>
            """)
        let sent = Recorder()
        machine.onLog { [unowned machine] label, _ in
            logs.add(label ?? "-")
            if label == "a->b" { sent.add("\((try? machine.send("back")).map { "\($0)" } ?? "error")") }
        }
        try machine.start()
        XCTAssertEqual(try machine.send("go"), .handled)
        XCTAssertEqual(sent.all, ["queued"])
        XCTAssertEqual(logs.all, ["a->b", "b->a"])
        XCTAssertEqual(machine.configuration, ["a"])
    }

    // MARK: - Finishing

    func testWaitUntilFinishedSeesAFinalStateReachedByABareEvent() throws {
        let (machine, _) = try machine("""
            <state id="a"><transition event="end" target="done"/></state>
            <final id="done"/>
            """)
        try machine.start()
        XCTAssertFalse(machine.waitUntilFinished(timeout: .milliseconds(20)))
        let sender = Thread { _ = try? machine.send("end") }
        sender.start()
        XCTAssertTrue(machine.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertTrue(machine.waitUntilFinished(timeout: .milliseconds(1)), "a second waiter sees it too")
        XCTAssertEqual(machine.configuration, ["done"])
        XCTAssertEqual(try machine.send("end"), .halted)
    }

    func testWaitUntilFinishedReturnsOnceStopped() throws {
        let (machine, _) = try machine(#"<state id="a"/>"#)
        try machine.start()
        machine.machine.stop()
        let started = Date()
        XCTAssertTrue(machine.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    // MARK: - The external-event gate, installed when it has work

    func testEventsFromAnotherSessionArriveAndThePokeNeverReachesTheChart() throws {
        // A wildcard transition would see the runtime's poke if the gate were not in place
        // when the first event arrives through the mailbox.
        let (receiver, _) = try machine("""
            <state id="waiting">
              <transition event="hello" target="greeted"/>
              <transition event="*" target="wrong"/>
            </state>
            <state id="greeted"><transition event="*" target="wrong"/></state>
            <final id="wrong"/>
            """)
        try receiver.start()
        let (sender, _) = try machine("""
            <state id="s"><onentry><send event="hello" target="#_scxml_\(receiver.sessionID)"/></onentry></state>
            """)
        try sender.start()
        XCTAssertTrue(eventually { receiver.configuration == ["greeted"] }, "\(receiver.configuration)")
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(receiver.configuration, ["greeted"])
        XCTAssertEqual(try receiver.send("hello"), .handled, "host events still reach it")
        XCTAssertEqual(receiver.configuration, ["wrong"])
    }

    func testADelayedSendToAnotherSessionIsDeliveredAndNotSeenBySender() throws {
        let (receiver, _) = try machine("""
            <state id="waiting"><transition event="later" target="got"/></state>
            <state id="got"/>
            """)
        try receiver.start()
        let (sender, _) = try machine("""
            <state id="s">
              <onentry><send event="later" target="#_scxml_\(receiver.sessionID)" delay="10ms"/></onentry>
              <transition event="*" target="wrong"/>
            </state>
            <state id="wrong"/>
            """)
        try sender.start()
        XCTAssertTrue(eventually { receiver.configuration == ["got"] }, "\(receiver.configuration)")
        XCTAssertEqual(sender.configuration, ["s"], "the deferred send is performed by the gate, not dispatched")
        XCTAssertEqual(try sender.send("anything"), .handled)
        XCTAssertEqual(sender.configuration, ["wrong"])
    }

    /// (An In() of an id that names no state is refused when the document is loaded:
    /// StateTestErrorTests.)
    func testInAnswersForEveryState() throws {
        let (machine, logs) = try machine("""
            <parallel id="p">
              <state id="r1" initial="x">
                <state id="x"><transition event="swap" target="y"/></state>
                <state id="y"><transition event="swap" target="x"/></state>
              </state>
              <state id="r2">
                <state id="probe">
                  <transition event="ask" cond="In('x')"><log label="x"/></transition>
                  <transition event="ask" cond="In('y')"><log label="y"/></transition>
                  <transition event="parent" cond="In(p)"><log label="p"/></transition>
                </state>
              </state>
            </parallel>
            """)
        try machine.start()
        for name in ["ask", "swap", "ask", "parent", "swap", "ask"] { try machine.send(name) }
        XCTAssertEqual(logs.all, ["x", "y", "p", "x"])
    }
}
