import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// Event payloads copied out of the script engine count against the document tree's script
/// memory limit while the events exist (issue 28, item 4): a document cannot queue copies of a
/// large string beyond the limit, and the memory comes back once the events were processed.
final class PayloadChargeTests: XCTestCase {
    func testQueuedPayloadsCountAgainstTheScriptMemoryLimit() throws {
        var options = SCXMLMachine.Options.withECMAScript
        options.scriptLimits.memoryPerDocumentTree = 8 << 20
        let session = try TestSession("""
            <datamodel>
              <data id="big" expr="(function () { var s = 'x'; while (s.length &lt; 1048576) { s += s; } return s; })()"/>
              <data id="sent" expr="0"/>
              <data id="received" expr="0"/>
            </datamodel>
            <state id="sending">
              <onentry>
                <foreach array="new Array(20).join(',').split(',')" item="i">
                  <send event="payload"><param name="p" expr="big"/></send>
                  <assign location="sent" expr="sent + 1"/>
                </foreach>
                <raise event="all.sent"/>
              </onentry>
              <transition event="error.execution" target="draining"><log expr="'sent ' + sent"/><log expr="_event.data"/></transition>
              <transition event="all.sent" target="draining"><log expr="'sent all ' + sent"/></transition>
            </state>
            <state id="draining">
              <transition event="payload" cond="received + 1 &lt; sent"><assign location="received" expr="received + 1"/></transition>
              <transition event="payload" target="again"><log expr="'received ' + (received + 1) + ', ' + _event.data.p.length + ' bytes each'"/></transition>
            </state>
            <state id="again">
              <onentry><send event="payload"><param name="p" expr="big"/></send></onentry>
              <transition event="payload" target="done"><log expr="'sent again'"/></transition>
              <transition event="error.execution" target="done"><log expr="'refused again: ' + _event.data"/></transition>
            </state>
            <final id="done"/>
            """, options: options)
        let logs = try session.run(seconds: 30)
        XCTAssertEqual(logs.count, 4, "\(logs)")
        guard logs.count == 4, logs[0].hasPrefix("sent "), let sent = Int(logs[0].dropFirst(5)) else {
            return XCTFail("the sends were not stopped by the limit: \(logs)")
        }
        // 8 MiB hold the heap (the 1 MiB string among it) and a few 1 MiB copies, never 20.
        XCTAssertTrue((1..<8).contains(sent), "\(sent) copies of 1 MiB were queued under an 8 MiB limit")
        // Either the copy of the 1 MiB string or its charge while queued is what passes the limit
        // (the copy is built in the heap first, then charged): both name the limit.
        let copyRefused = "Error: alloc failed: the ECMAScript heaps of this document tree reached their memory limit of 8388608 bytes (in `big`)"
        // {p: <1 MiB string>}: 16 bytes per value, the key and the string's UTF-8.
        let chargeRefused = "the event's data (1048625 bytes) does not fit in the ECMAScript memory limit of this document tree (8388608 bytes, "
        XCTAssertTrue(logs[1] == copyRefused || logs[1].hasPrefix(chargeRefused), logs[1])
        XCTAssertEqual(logs[2], "received \(sent), 1048576 bytes each")
        XCTAssertEqual(logs[3], "sent again", "the processed events gave their bytes back")
    }
}
