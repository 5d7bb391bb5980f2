import Foundation
import StatechartSCXML
import XCTest

/// Blocks made only of `<log>`s without `expr` call the log hook directly (SCXMLChartBuilder);
/// every other block goes through the interpreter. Both must log the same labels in document
/// order, and a mixed block must still report what it raises with its origin.
final class LogOnlyContentTests: XCTestCase {
    func testLogsRunInDocumentOrderWhateverTheBlock() throws {
        let machine = try SCXMLMachine(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a">
                <onentry><log label="a entry 1"/><log label="a entry 2"/><log/></onentry>
                <onentry/>
                <onexit><log label="a exit"/></onexit>
                <transition event="go" target="b"><log label="go 1"/><log label="go 2"/></transition>
              </state>
              <state id="b">
                <onentry><log label="b entry"/><raise event="inner"/><log label="b entry after raise"/></onentry>
                <onexit><log expr="'b exit'"/></onexit>
                <transition event="inner" target="c"><log label="inner"/></transition>
              </state>
              <state id="c"><onentry><log label="c entry"/></onentry></state>
            </scxml>
            """, fileName: "logs.scxml")
        let lines = EventHandleTests.Recorder(), outgoing = EventHandleTests.Recorder()
        machine.onLog { label, message in lines.add("\(label ?? "nil"):\(message)") }
        machine.onOutgoingEvent { event in outgoing.add("\(event.name) \(event.kind) \(String(describing: event.origin))") }
        try machine.start()
        XCTAssertEqual(lines.all, ["a entry 1:", "a entry 2:", "nil:"])
        try machine.send(try machine.event("go"))
        XCTAssertEqual(lines.all, ["a entry 1:", "a entry 2:", "nil:", "a exit:", "go 1:", "go 2:",
                                   "b entry:", "b entry after raise:", "nil:b exit", "inner:", "c entry:"])
        XCTAssertEqual(outgoing.all, ["inner raised Optional(StatechartSCXML.SCXMLOutgoingEvent.Origin.onEntry(\"b\"))"])
        XCTAssertEqual(machine.configuration, ["c"])
    }
}
