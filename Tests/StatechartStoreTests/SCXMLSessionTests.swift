import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import StatechartStore
import StatechartStoreSQLite
import XCTest

final class SCXMLSessionTests: XCTestCase {
    static let order = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="open">
          <datamodel><data id="total" expr="0"/><data id="reminders" expr="0"/></datamodel>
          <state id="open">
            <transition event="add" target="open"><assign location="total" expr="total + _event.data.price"/></transition>
            <transition event="checkout" target="paying">
              <send event="remind" delay="200ms" id="reminder"/>
              <send event="invoice" target="mail:billing" namelist="total"/>
            </transition>
          </state>
          <state id="paying">
            <transition event="remind" target="paying"><assign location="reminders" expr="reminders + 1"/></transition>
            <transition event="paid" target="done"><cancel sendid="reminder"/></transition>
          </state>
          <final id="done"/>
        </scxml>
        """

    private func kind(_ text: String) throws -> DurableDocument {
        let machine = try SCXMLMachine(string: text, options: .withECMAScript)
        return DurableDocument(machine.document, options: .withECMAScript)
    }

    private func makePath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder.appendingPathComponent("scxml.sqlite").path
    }

    func testTheDatamodelTimersAndOutboxSurviveARestart() async throws {
        let path = try makePath()
        let orders = DurableSessions(store: try SQLiteSessionStore(path: path), kind: try kind(Self.order))
        try await orders.prepare()
        let start = Date()
        try await orders.send([(SnapshotEvent(name: "add", payload: .object(["price": .number(30)])), "a1", "o1"),
                               (SnapshotEvent(name: "add", payload: .object(["price": .number(12)])), "a2", "o1"),
                               (SnapshotEvent(name: "checkout"), "c", "o1")])
        try await orders.processAvailable(now: { start })
        let stored = try await orders.store.load("o1")
        XCTAssertEqual(stored?.timers.map(\.sendID), ["reminder"])
        XCTAssertEqual(stored?.timers.first?.due, Int64((start.timeIntervalSince1970 * 1000).rounded(.down)) + 200)

        // A new process, 300 ms later: the reminder is overdue and fires at once.
        let restarted = DurableSessions(store: try SQLiteSessionStore(path: path), kind: try kind(Self.order))
        let work = try await restarted.processAvailable(now: { start.addingTimeInterval(0.3) })
        XCTAssertEqual(work, [.committed(session: "o1", version: 4)], "the timer alone")
        let snapshot = try await restarted.snapshot(of: "o1")
        XCTAssertEqual(snapshot?.machine.activeStates, ["paying"])
        XCTAssertEqual(snapshot?.variables.first { $0.name == "total" }?.value, .number(42))
        XCTAssertEqual(snapshot?.variables.first { $0.name == "reminders" }?.value, .number(1))

        try await restarted.send(SnapshotEvent(name: "paid"), id: "p", to: "o1")
        try await restarted.processAvailable(now: { start.addingTimeInterval(0.4) })
        let finished = try await restarted.snapshot(of: "o1")?.machine.isFinished
        XCTAssertEqual(finished, true)
        let timersAfterPayment = try await restarted.store.load("o1")?.timers
        XCTAssertEqual(timersAfterPayment, [])

        var invoices: [OutboxMessage] = []
        try await restarted.deliverOutbox { invoices.append($0) }
        XCTAssertEqual(invoices.map(\.id), ["o1/3/0"])
        XCTAssertEqual(invoices.map(\.target), ["mail:billing"])
        let invoice = try JSONDecoder().decode(SnapshotEvent.self, from: invoices[0].body)
        XCTAssertEqual(invoice, SnapshotEvent(name: "invoice", payload: .object(["total": .number(42)])))
    }

    func testASessionOfAnotherDocumentIsRefused() async throws {
        let path = try makePath()
        let orders = DurableSessions(store: try SQLiteSessionStore(path: path), kind: try kind(Self.order))
        try await orders.prepare()
        try await orders.send(SnapshotEvent(name: "checkout"), id: "c", to: "o1")
        try await orders.processAvailable()
        let before = try await orders.store.load("o1")

        let changed = try kind(Self.order.replacingOccurrences(of: "200ms", with: "300ms"))
        let other = DurableSessions(store: try SQLiteSessionStore(path: path), kind: changed)
        try await other.send(SnapshotEvent(name: "paid"), id: "p", to: "o1")
        let work = try await other.processAvailable()
        guard case .faulted(let fault)? = work.first else { return XCTFail("\(work)") }
        XCTAssertEqual(fault.reason, DurableError.chartVersionMismatch(session: "o1", stored: orders.kind.version, expected: changed.version).description)
        XCTAssertNotEqual(orders.kind.version, changed.version)
        let afterRefusal = try await other.store.load("o1")
        XCTAssertEqual(afterRefusal, before)
    }
}
