import Foundation
import Statechart
import StatechartSCXML
import XCTest

/// `SCXMLMachine.event(_:)` and `send(_: EventHandle)`: a handle sends exactly what its name
/// would, only names the document names exactly get one, and a machine refuses another's.
final class EventHandleTests: XCTestCase {
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    private func machine(_ body: String, fileName: String = "test.scxml") throws -> (SCXMLMachine, Recorder) {
        let machine = try SCXMLMachine(string: "\(scxmlRoot) datamodel=\"null\">\n\(body)\n</scxml>", fileName: fileName)
        let logs = Recorder()
        machine.onLog { label, _ in logs.add(label ?? "-") }
        return (machine, logs)
    }

    private let turnstile = """
        <state id="locked">
          <transition event="coin" target="unlocked"><log label="unlock"/></transition>
          <transition event="order" target="unlocked"><log label="order"/></transition>
          <transition event="*"><log label="any"/></transition>
        </state>
        <state id="unlocked"><transition event="push" target="locked"><log label="lock"/></transition></state>
        """

    func testHandlesSendWhatTheirNamesSend() throws {
        let (machine, logs) = try machine(turnstile)
        try machine.start()
        let coin = try machine.event("coin"), push = try machine.event("push"), order = try machine.event("order")
        XCTAssertEqual(coin, try machine.event("coin"))
        XCTAssertNotEqual(coin, push)
        XCTAssertEqual(try machine.send(coin), .handled)
        XCTAssertEqual(machine.configuration, ["unlocked"])
        XCTAssertEqual(try machine.send(coin), .unhandled)          // unlocked has no coin transition
        XCTAssertEqual(try machine.send(push), .handled)
        XCTAssertEqual(try machine.send(order), .handled)
        XCTAssertEqual(machine.configuration, ["unlocked"])
        XCTAssertEqual(logs.all, ["unlock", "lock", "order"])
        XCTAssertEqual(machine.name(of: coin), "coin")
        XCTAssertEqual(machine.name(of: order), "order")
    }

    func testHandlesSeenByObserversAreBareExternalEventsOfThatName() throws {
        let (machine, _) = try machine(turnstile)
        let seen = Recorder()
        machine.machine.onTransition { record in
            seen.add("\(record.source)->\(record.targets.joined(separator: " ")) \(record.event?.name ?? "-") payload:\(record.event?.payload == nil ? "none" : "some")")
        }
        try machine.start()
        try machine.send(try machine.event("coin"))
        try machine.send("push")
        XCTAssertEqual(seen.all, ["locked->unlocked coin payload:none", "unlocked->locked push payload:none"])
    }

    func testOnlyNamesTheDocumentNamesExactlyGetHandles() throws {
        let (machine, logs) = try machine(turnstile)
        try machine.start()
        // "order.placed" is matched by the descriptor "order" and "unknown" by "*" only: both
        // travel with their own name, so they have no handle and are sent by name.
        for name in ["order.placed", "unknown", "", "coins"] {
            XCTAssertThrowsError(try machine.event(name), name) { error in
                let refusal = error as? SCXMLMachine.EventHandleError
                XCTAssertEqual(refusal?.reason, .unknownEvent, name)
                XCTAssertEqual(refusal?.eventName, name)
            }
        }
        XCTAssertEqual(try machine.send("unknown"), .handled)
        XCTAssertEqual(logs.all, ["any"])
        XCTAssertThrowsError(try machine.event("coins")) { error in
            XCTAssertEqual("\(error)", "the document names no event 'coins' exactly (did you mean 'coin'?); only events "
                + "named by a transition's event descriptor (or a prefix of one) have handles: send this one by name, "
                + "with send(_:data:)")
        }
    }

    func testAMachineRefusesAnotherMachinesHandle() throws {
        // The same document loaded twice: the same event has the same id in both charts, but
        // each machine compiled its own chart, so a handle is refused by the other machine.
        let (first, firstLogs) = try machine(turnstile)
        let (second, secondLogs) = try machine(turnstile)
        try first.start()
        try second.start()
        let coin = try first.event("coin")
        XCTAssertThrowsError(try second.send(coin)) { error in
            XCTAssertEqual((error as? SCXMLMachine.EventHandleError)?.reason, .otherMachine)
            XCTAssertNil((error as? SCXMLMachine.EventHandleError)?.eventName)
        }
        XCTAssertNil(second.name(of: coin))
        XCTAssertEqual(second.configuration, ["locked"])
        XCTAssertEqual(secondLogs.all, [])
        XCTAssertEqual(try first.send(coin), .handled)
        XCTAssertEqual(firstLogs.all, ["unlock"])
    }

    func testAHandleOfAFreedMachineIsNeverTakenForANewChartsEvent() throws {
        // Two documents of the same shape give their one event the same id, and the second
        // chart may well be allocated at the freed first one's address: the stale handle must
        // be refused, never sent as the id that means "aa" in the second chart.
        for _ in 0..<50 {
            var first: SCXMLMachine? = try machine(#"<state id="s"><transition event="zz" target="t"/></state><state id="t"/>"#).0
            let stale = try first!.event("zz")
            first = nil
            let (second, _) = try machine(#"<state id="s"><transition event="aa" target="t"/></state><state id="t"/>"#)
            try second.start()
            XCTAssertThrowsError(try second.send(stale))
            XCTAssertEqual(second.configuration, ["s"])
            XCTAssertEqual(try second.send(try second.event("aa")), .handled)
            XCTAssertEqual(second.configuration, ["t"])
        }
    }

    func testAHandleSentBeforeStartOrFromInsideTheMachineBehavesLikeItsName() throws {
        let (machine, logs) = try machine(turnstile)
        let push = try machine.event("push")
        XCTAssertThrowsError(try machine.send(push)) { error in
            guard case MachineError.notStarted? = error as? MachineError else { return XCTFail("\(error)") }
        }
        // Sent from the machine's own log hook: queued, and run after the macrostep that sent it.
        let outcomes = Recorder()
        machine.onLog { [unowned machine] label, _ in
            logs.add(label ?? "-")
            if label == "unlock" { outcomes.add("\((try? machine.send(push)).map { "\($0)" } ?? "threw")") }
        }
        try machine.start()
        XCTAssertEqual(try machine.send(try machine.event("coin")), .handled)
        XCTAssertEqual(outcomes.all, ["queued"])
        XCTAssertEqual(logs.all, ["unlock", "lock"])
        XCTAssertEqual(machine.configuration, ["locked"])
    }
}
