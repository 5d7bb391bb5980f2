import Foundation
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// The datamodel of documents that declare none: SCXML leaves it to the platform. The null
/// datamodel by default (Qt's and uSCXML's charts assume it); `defaultDatamodel = "ecmascript"`
/// for SCION's and XState's; a declared datamodel always wins.
final class DefaultDatamodelTests: XCTestCase {
    /// ECMAScript without saying so, as SCION charts are written.
    private let undeclared = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
          <datamodel><data id="n" expr="1"/></datamodel>
          <state id="a"><transition cond="n === 1" target="b"/></state>
          <final id="b"/>
        </scxml>
        """

    private func errors(_ text: String, _ options: SCXMLMachine.Options) -> [String] {
        do {
            _ = try SCXMLMachine(string: text, fileName: "test.scxml", options: options)
            XCTFail("expected the document to be refused")
            return []
        } catch {
            return (error as? SCXMLLoadError)?.diagnostics.map(\.description) ?? ["\(error)"]
        }
    }

    func testUndeclaredDocumentsGetTheNullDatamodelAndTheErrorNamesTheOption() {
        let remedy = "declare datamodel=\"ecmascript\" on <scxml>, or load it with --datamodel ecmascript "
            + "(SCXMLMachine.Options.defaultDatamodel): the document declares no datamodel, so it got the null one"
        XCTAssertEqual(errors(undeclared, .withECMAScript), [
            "test.scxml:2:14: error: <data> is not supported by the null datamodel; \(remedy)",
            "test.scxml:3:17: error: cond=\"n === 1\" is not a null-datamodel expression; use In('state') (combined with !, &&, ||, parentheses, true, false), a host function call or a literal, or \(remedy)",
        ])
    }

    func testDefaultDatamodelECMAScriptRunsThem() throws {
        var options = SCXMLMachine.Options.withECMAScript
        options.defaultDatamodel = "ecmascript"
        let machine = try SCXMLMachine(string: undeclared, fileName: "test.scxml", options: options)
        try machine.start()
        XCTAssertTrue(machine.isFinished)
        XCTAssertEqual(machine.configuration, ["b"])
    }

    func testADeclaredDatamodelWins() {
        var options = SCXMLMachine.Options.withECMAScript
        options.defaultDatamodel = "ecmascript"
        let declaredNull = undeclared.replacingOccurrences(of: #"version="1.0">"#, with: #"version="1.0" datamodel="null">"#)
        XCTAssertEqual(errors(declaredNull, options), [
            "test.scxml:2:14: error: <data> is not supported by the null datamodel; declare datamodel=\"ecmascript\" on <scxml>",
            "test.scxml:3:17: error: cond=\"n === 1\" is not a null-datamodel expression; use In('state') (combined with !, &&, ||, parentheses, true, false), a host function call or a literal, or declare datamodel=\"ecmascript\"",
        ])
    }

    func testADefaultThatIsNotAvailableIsRefused() {
        var options = SCXMLMachine.Options.withECMAScript
        options.defaultDatamodel = "lua"
        XCTAssertEqual(errors(undeclared, options), [
            "test.scxml:1:1: error: the document declares no datamodel and the default, \"lua\" (SCXMLMachine.Options.defaultDatamodel), is not available (available: null, ecmascript)"
        ])
    }
}
