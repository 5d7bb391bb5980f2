import XCTest
@testable import StatechartSCXML

/// A document's errors of every class come in one run, in document order: the XML model's
/// (attributes, names), the references' (targets), the datamodel's, and the warnings between.
final class OnePassErrorTests: XCTestCase {
    static let text = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="2go" colour="red">
            <transition event="go." target="nowhere"/>
            <onentry><assign location="x" expr="1"/><log expr="Going"/></onentry>
          </state>
        </scxml>
        """

    static func expected(_ file: String) -> [String] {
        [
            "\(file):2:3: error: <state> has no attribute 'colour'; its attributes are 'id', 'initial'",
            "\(file):2:3: error: <state> has the id '2go', which is not an XML ID; a state id starts with a letter or '_', followed by letters, digits, '.', '-' or '_' (such as 's1')",
            "\(file):3:5: error: <transition> has the event descriptor 'go.'; a descriptor is an event name (tokens of letters, digits, '_', '-' or ':' joined by single dots, such as 'door.open'), optionally ending in '.*', or '*'",
            "\(file):3:5: error: transition target 'nowhere' does not name a state; known ids include '2go'",
            "\(file):4:14: error: <assign> is not supported by the null datamodel; declare datamodel=\"ecmascript\" on <scxml>",
            "\(file):4:45: warning: <log expr=\"Going\"> is not a null-datamodel expression; it is logged as the text itself, as Qt and uSCXML do (write expr=\"'...'\" to say so)",
        ]
    }

    func testEveryClassOfErrorInOneRun() {
        XCTAssertThrowsError(try SCXMLMachine(string: Self.text, fileName: "test.scxml")) { error in
            XCTAssertEqual((error as? SCXMLLoadError)?.diagnostics.map(\.description), Self.expected("test.scxml"))
        }
    }
}
