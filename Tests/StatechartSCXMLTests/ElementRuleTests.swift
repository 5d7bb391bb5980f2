import XCTest
@testable import StatechartSCXML

/// The one table of what each SCXML element allows.
final class ElementRuleTests: XCTestCase {
    func testTheTableKnowsEveryElementOfSCXML10AndNoOther() {
        XCTAssertEqual(
            SCXMLElementRule.elementNames,
            [
                "scxml", "state", "parallel", "final", "initial", "history", "transition", "onentry", "onexit",
                "datamodel", "data", "donedata", "content", "param", "invoke", "finalize", "raise", "if", "elseif",
                "else", "foreach", "log", "assign", "script", "send", "cancel",
            ])
        XCTAssertFalse(SCXMLName.id.isElement)
        XCTAssertFalse(SCXMLName.unknown.isElement)
        XCTAssertTrue(SCXMLName.id.rule.attributes.isEmpty)
        XCTAssertTrue(SCXMLName.unknown.rule.children.isEmpty)
    }

    func testRulesListNamesInTheOrderMessagesUse() {
        XCTAssertEqual(SCXMLName.state.rule.attributes.names, ["id", "initial"])
        XCTAssertEqual(SCXMLName.history.rule.children.names, ["transition"])
        XCTAssertEqual(
            SCXMLElementRule.executableContent.names, ["raise", "if", "foreach", "log", "assign", "script", "send", "cancel"])
        XCTAssertEqual(SCXMLName.if.rule.children.names, SCXMLElementRule.executableContent.names + ["elseif", "else"])
        XCTAssertTrue(SCXMLName.send.rule.attributes.contains(.delayexpr))
        XCTAssertFalse(SCXMLName.parallel.rule.attributes.contains(.initial))
        XCTAssertTrue(SCXMLName.cancel.rule.children.isEmpty)
    }
}
