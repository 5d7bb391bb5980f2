import Foundation
import XCTest
@testable import StatechartSCXML

/// `<invoke>` under the null datamodel (and in documents that declare no datamodel, which get
/// it): a literal `type` and `src`, or inline `<content>`, need no expression language, as in
/// Qt's `invoke` example and uSCXML. What reads or writes data is still refused, with positions.
final class NullDatamodelInvokeTests: XCTestCase {
    private final class Logs: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    /// The line a dialer calls: rings at once, hangs up when answered.
    private static let line = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="line">
          <state id="ringing">
            <onentry><log label="line" expr="'ringing'"/><send target="#_parent" event="line.ringing"/></onentry>
            <transition event="answer" target="hungUp"><log label="line" expr="'answered'"/></transition>
          </state>
          <final id="hungUp"/>
        </scxml>
        """

    /// A dialer (no datamodel attribute) invoking `invoke`, which is `<invoke ...>` without its end tag.
    private static func dialer(_ invoke: String, content: String = "") -> String {
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="dialer">
          <state id="calling">
            \(invoke)\(content)</invoke>
            <transition event="line.ringing"><log label="dialer" expr="'ringing heard'"/><send target="#_line" event="answer"/></transition>
            <transition event="done.invoke.line" target="ended"><log label="dialer" expr="'line closed'"/></transition>
          </state>
          <final id="ended"/>
        </scxml>
        """
    }

    private func run(_ machine: SCXMLMachine) throws -> [String] {
        let logs = Logs()
        machine.onLog { label, message in logs.add("\(label ?? "-"): \(message)") }
        try machine.start()
        XCTAssertTrue(machine.waitUntilFinished(timeout: .seconds(10)))
        XCTAssertEqual(machine.configuration, ["ended"])
        return logs.all
    }

    /// Parent and child talk both ways; the child's end reaches the parent as done.invoke.line.
    private let conversation = ["line: ringing", "dialer: ringing heard", "line: answered", "dialer: line closed"]

    func testInlineContentRunsWithoutADatamodel() throws {
        let text = Self.dialer(#"<invoke type="http://www.w3.org/TR/scxml/" id="line">"#,
                               content: "<content>\(Self.line)</content>")
        let machine = try SCXMLMachine(string: text, fileName: "dialer.scxml")
        XCTAssertEqual(machine.warnings, [])
        XCTAssertEqual(try run(machine), conversation)
    }

    func testLiteralSrcRunsUnderTheNullDatamodel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("null-invoke-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.line.write(to: folder.appendingPathComponent("line.scxml"), atomically: true, encoding: .utf8)
        let dialer = Self.dialer(#"<invoke type="scxml" src="line.scxml" id="line">"#)
            .replacingOccurrences(of: #"name="dialer">"#, with: #"name="dialer" datamodel="null">"#)
        let url = folder.appendingPathComponent("dialer.scxml")
        try dialer.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(try SCXMLMachine(contentsOf: url)), conversation)
    }

    func testWhatNeedsDataIsStillRefusedWithPositions() {
        let remedy = "declare datamodel=\"ecmascript\" on <scxml>, or load it with --datamodel ecmascript "
            + "(SCXMLMachine.Options.defaultDatamodel): the document declares no datamodel, so it got the null one"
        XCTAssertThrowsError(try SCXMLMachine(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="s">
                <invoke srcexpr="'a' + 'b'" idlocation="where"><param name="p" expr="1"/></invoke>
                <invoke namelist="x" src="line.scxml"/>
              </state>
            </scxml>
            """, fileName: "test.scxml")) { error in
            XCTAssertEqual((error as? SCXMLLoadError)?.diagnostics.map(\.description), [
                "test.scxml:3:5: error: srcexpr=\"'a' + 'b'\" is not a null-datamodel expression; use In('state') (combined with !, &&, ||, parentheses, true, false), a host function call or a literal, or \(remedy)",
                "test.scxml:3:5: error: idlocation is not supported by the null datamodel; \(remedy)",
                "test.scxml:3:5: error: <param> is not supported by the null datamodel; \(remedy)",
                "test.scxml:4:5: error: namelist is not supported by the null datamodel; \(remedy)",
            ])
        }
    }
}
