import Foundation
import Statechart
@testable import StatechartSCXML
import XCTest

/// Events from other sessions that wait in the mailbox when a snapshot is taken are in the
/// snapshot, and the restored session processes them, in their order.
final class SCXMLSnapshotMailboxTests: XCTestCase {
    private let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a"><transition event="first" target="b"/></state>
          <state id="b"><transition event="second" target="done"/><transition event="*" target="wrong"/></state>
          <final id="done"/><final id="wrong"/>
        </scxml>
        """

    func testMailboxEventsAreCapturedAndProcessedAfterRestore() throws {
        let original = try SCXMLMachine(string: document)
        try original.start()
        var snapshot: SCXMLSnapshot?
        // On the session's worker queue, the pokes that would move the mailbox into the machine
        // wait until this block has taken the snapshot: the two events are still in the mailbox.
        try original.session.worker.sync {
            original.session.deliver(SCXMLEvent(name: "first", origin: "#_scxml_other"))
            original.session.deliver(SCXMLEvent(name: "second", data: .number(2)))
            snapshot = try original.snapshot()
        }
        let captured = try XCTUnwrap(snapshot)
        XCTAssertEqual(captured.mailbox.map(\.name), ["first", "second"])
        XCTAssertEqual(captured.mailbox.first?.payload,
                       .object(["kind": .string("event"), "name": .string("first"), "type": .string("external"),
                                "origin": .string("#_scxml_other")]))
        XCTAssertEqual(captured.machine.activeStates, ["a"])

        let json = try JSONEncoder().encode(captured)
        let restored = try SCXMLMachine(string: document)
        try restored.restore(JSONDecoder().decode(SCXMLSnapshot.self, from: json))
        XCTAssertTrue(restored.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertEqual(restored.configuration, ["done"])
        XCTAssertTrue(original.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertEqual(original.configuration, ["done"])
    }
}
