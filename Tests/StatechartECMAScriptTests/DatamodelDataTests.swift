import StatechartSCXML
import XCTest

/// `<data>` (SCXML 5.2, B.2.2): expr, inline JSON/text/XML, src; bindings; errors.
final class DatamodelDataTests: XCTestCase {
    func testInitialValuesFromExprInlineContentAndSrc() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ecma-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"size": 27}"#.write(to: folder.appendingPathComponent("value.json"), atomically: true, encoding: .utf8)
        try "<list><item/><item/></list>".write(to: folder.appendingPathComponent("value.xml"), atomically: true, encoding: .utf8)
        try "  plain \n text ".write(to: folder.appendingPathComponent("value.txt"), atomically: true, encoding: .utf8)
        let session = try TestSession("""
            <datamodel>
              <data id="number" expr="6 * 7"/>
              <data id="increment" expr="function (x) { return x + 1; }"/>
              <data id="json">{ "name": "ada", "tags": [1, 2] }</data>
              <data id="text">
                 this  is
                 a string
              </data>
              <data id="xml"><books xmlns=""><book title="t1"/><book title="t2"/></books></data>
              <data id="fromJSON" src="file:value.json"/>
              <data id="fromXML" src="file:value.xml"/>
              <data id="fromText" src="value.txt"/>
              <data id="unset"/>
            </datamodel>
            <final id="done"><onentry>
              <log expr="number + ',' + increment(1)"/>
              <log expr="JSON.stringify(json)"/>
              <log expr="'[' + text + ']'"/>
              <log expr="xml.getElementsByTagName('book')[1].getAttribute('title') + ' ' + xml.documentElement.tagName"/>
              <log expr="fromJSON.size + ' ' + fromXML.getElementsByTagName('item').length + ' [' + fromText + ']'"/>
              <log expr="typeof unset"/>
            </onentry></final>
            """, baseURL: folder)
        XCTAssertEqual(try session.run(), [
            "42,2", #"{"name":"ada","tags":[1,2]}"#, "[this is a string]", "t2 books", "27 2 [plain text]", "undefined",
        ])
    }

    func testAFailingDataIsDeclaredUnboundAndRaisesErrorExecution() throws {
        // W3C 277: the variable exists (undefined) so it can be assigned later; the other data
        // are created anyway; one error.execution per failing <data>, in document order.
        let session = try TestSession("""
            <datamodel>
              <data id="broken" expr="1 +"/>
              <data id="fine" expr="2"/>
              <data id="missing" src="file:no-such-file.json"/>
              <data id="errors" expr="[]"/>
            </datamodel>
            <state id="s">
              <onentry><log expr="typeof broken + ' ' + fine + ' ' + typeof missing"/></onentry>
              <transition event="error.execution" cond="errors.length &lt; 1" target="s">
                <assign location="errors" expr="errors.concat(_event.type)"/>
              </transition>
              <transition event="error.execution" target="done">
                <assign location="broken" expr="'assigned'"/>
                <log expr="errors.concat(_event.type).join(',') + ' ' + broken"/>
              </transition>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), ["undefined 2 undefined", "undefined 2 undefined", "platform,platform assigned"])
    }

    func testLateBindingCreatesVariablesUnboundAndAssignsOnFirstEntry() throws {
        // W3C 280: declared (undefined) from the start, assigned when b is first entered, and
        // not assigned again when b is re-entered.
        let session = try TestSession("""
            <state id="a">
              <onentry><log expr="typeof later + ' ' + ('later' in this)"/></onentry>
              <transition target="b"/>
            </state>
            <state id="b">
              <datamodel><data id="later" expr="5"/></datamodel>
              <onentry><log expr="later"/><assign location="later" expr="later + 1"/></onentry>
              <transition cond="later &lt; 8" target="c"/>
              <transition target="done"/>
            </state>
            <state id="c"><transition target="b"/></state>
            <final id="done"/>
            """, attributes: #"binding="late""#)
        XCTAssertEqual(try session.run(), ["undefined true", "5", "6", "7"])
    }

    func testEarlyBindingInitializesNestedDataAtStart() throws {
        // W3C 550/551: a state's data exists with its value before the state is entered.
        let session = try TestSession("""
            <state id="s0"><transition cond="nested === 2" target="pass"/><transition target="fail"/></state>
            <state id="s1"><datamodel><data id="nested" expr="2"/></datamodel></state>
            <final id="pass"><onentry><log expr="'pass'"/></onentry></final>
            <final id="fail"><onentry><log expr="'fail'"/></onentry></final>
            """)
        XCTAssertEqual(try session.run(), ["pass"])
    }

    func testAssignWithInlineContentAndTrailingSemicolons() throws {
        let session = try TestSession("""
            <datamodel><data id="v" expr="0;"/></datamodel>
            <script>function Box() { this.size = 1; }</script>
            <final id="done"><onentry>
              <assign location="v">[1, 2, 3]</assign>
              <log expr="v.length;"/>
              <assign location="v"><doc><p>hi</p></doc></assign>
              <log expr="v.getElementsByTagName('p')[0].textContent"/>
              <log expr="String(v)"/>
              <assign location="v" expr="new Box();"/>
              <assign location="v.size" expr="2"/>
              <log expr="v.size"/>
            </onentry></final>
            """)
        XCTAssertEqual(try session.run(), ["3", "hi", #"<doc xmlns="http://www.w3.org/2005/07/scxml"><p>hi</p></doc>"#, "2"])
    }
}

/// Lines collected from callbacks on any thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
