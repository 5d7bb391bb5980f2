import Foundation
import XCTest

/// `statechart conformance DIR` and ECMAScript documents through the CLI.
final class ConformanceCommandTests: XCTestCase {
    func testTheECMAScriptSuitePassesWithOneLinePerTest() throws {
        let result = try CLI.run(["conformance", "Tests/W3C/ecma"])
        let lines = result.lines
        XCTAssertEqual(lines.last, "197 passed, 0 failed", result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }.joined(separator: "\n"))
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(lines.count, 198)
        XCTAssertEqual(lines.first, "PASS test144")
        XCTAssertTrue(lines.contains("PASS test201"), "BasicHTTP is on for the conformance command")
        XCTAssertFalse(lines.contains { $0.hasPrefix("PASS test301") || $0.hasPrefix("PASS test313") }, "manual tests are skipped")
    }

    func testFailingTestsAreNamedWithTheirReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let head = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">"#
        try (head + #"<state id="s"><transition cond="1 + 1 === 2" target="pass"/></state><final id="pass"/></scxml>"#)
            .write(to: folder.appendingPathComponent("test1.scxml"), atomically: true, encoding: .utf8)
        try (head + #"<state id="s"><transition cond="nope()" target="pass"/><transition event="error.execution" target="fail"/></state><final id="pass"/><final id="fail"/></scxml>"#)
            .write(to: folder.appendingPathComponent("test2.scxml"), atomically: true, encoding: .utf8)
        try (head + "<state id=\"s\"></scxml>").write(to: folder.appendingPathComponent("test3.scxml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["conformance", folder.path, "--manifest", "/nonexistent", "--timeout", "2"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines.count, 4)
        XCTAssertEqual(result.lines[0], "PASS test1")
        XCTAssertEqual(result.lines[1], "FAIL test2: expected [pass], ended in [fail]")
        XCTAssertTrue(result.lines[2].hasPrefix("FAIL test3: expected [pass], "), result.lines[2])
        XCTAssertEqual(result.lines[3], "1 passed, 2 failed")
    }

    func testRunHandlesECMAScriptDocumentsWithInvoke() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("parent.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="count" expr="0"/></datamodel>
              <state id="waiting">
                <invoke id="worker"><content>
                  <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                    <final id="end"><onentry><log label="child" expr="'working'"/></onentry>
                      <donedata><param name="items" expr="[1, 2, 3]"/></donedata></final>
                  </scxml>
                </content></invoke>
                <transition event="done.invoke.worker" target="finished">
                  <assign location="count" expr="_event.data.items.length"/>
                  <log label="parent" expr="'got ' + count"/>
                </transition>
              </state>
              <final id="finished"/>
            </scxml>
            """.write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["run", file.path, "--timeout", "5"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "{\"finished\": true, \"configuration\": [\"finished\"]}\n")
        XCTAssertEqual(result.stderr, "log: child: working\nlog: parent: got 3\n")
    }
}
