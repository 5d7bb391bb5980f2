import Foundation
import XCTest
@testable import StatechartSCXML

/// What Qt Creator and uSCXML write that breaks a MUST of SCXML but has one obvious meaning:
/// loaded with that meaning and a `file:line:column: warning:`, refused as an error when
/// strict (docs/COMPATIBILITY.md lists each case).
final class CompatibilityWarningTests: XCTestCase {
    private final class Logs: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    private func strict() -> SCXMLMachine.Options {
        var options = SCXMLMachine.Options()
        options.strict = true
        return options
    }

    private func loadErrors(_ text: String, options: SCXMLMachine.Options) -> [String] {
        do {
            _ = try SCXMLMachine(string: text, fileName: "test.scxml", options: options)
            XCTFail("expected the document to be refused")
            return []
        } catch {
            return (error as? SCXMLLoadError)?.diagnostics.map(\.description) ?? ["\(error)"]
        }
    }

    // MARK: - <log expr> text under the null datamodel

    private let logText = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
          <state id="door">
            <onentry><log label="door" expr="Door opened"/><log expr="'quoted'"/></onentry>
          </state>
        </scxml>
        """
    private let logWarning = "<log expr=\"Door opened\"> is not a null-datamodel expression; it is logged as the text itself, as Qt and uSCXML do (write expr=\"'...'\" to say so)"

    func testLogTextThatIsNoExpressionIsLoggedAsItIsWithAWarning() throws {
        let machine = try SCXMLMachine(string: logText, fileName: "test.scxml")
        XCTAssertEqual(machine.warnings.map(\.description), ["test.scxml:3:14: warning: \(logWarning)"])
        XCTAssertEqual(machine.warnings.first?.severity, .warning)
        XCTAssertEqual(machine.warnings.first?.element, "log")
        let logs = Logs()
        machine.onLog { label, message in logs.add("\(label ?? "-"): \(message)") }
        try machine.start()
        XCTAssertEqual(logs.all, ["door: Door opened", "-: quoted"])
    }

    func testLogTextThatIsNoExpressionIsAnErrorWhenStrict() {
        XCTAssertEqual(loadErrors(logText, options: strict()), ["test.scxml:3:14: error: \(logWarning)"])
    }
}
