import XCTest
@testable import StatechartSCXML

/// An `<scxml>` inside an `<invoke>`'s `<content>` is a document of its own, with its own ids.
final class NestedDocumentTests: XCTestCase {
    func testNestedDocumentHasItsOwnIDScope() throws {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <invoke>
                  <content>
                    <scxml version="1.0"><state id="a"><transition event="e" target="b"/></state><final id="b"/></scxml>
                  </content>
                </invoke>
              </state>
            </scxml>
            """
        let document = try parse(text)
        guard case .inline(.document(let nested, _))? = document.states[0].invokes.first?.content?.value else {
            return XCTFail("expected a nested document")
        }
        XCTAssertEqual(nested.states.map(\.id), ["a", "b"])
        XCTAssertEqual(nested.states.map(\.sourceLocation), [at(5, 30), at(5, 86)])
        XCTAssertNil(document.state(withID: "b"), "nested states are not states of the outer document")
    }

    func testNestedDocumentCannotReferToOuterStates() {
        let text = """
            \(scxmlRoot)>
              <state id="outer">
                <invoke>
                  <content>
                    <scxml version="1.0"><state id="inner"><transition event="e" target="outer"/></state></scxml>
                  </content>
                </invoke>
              </state>
            </scxml>
            """
        assertError(
            text, line: 5, column: 48, element: "transition",
            "transition target 'outer' does not name a state; known ids include 'inner'")
    }

    func testNestedDocumentIsValidatedLikeATopLevelOne() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <invoke>
                  <content>
                    <scxml><final id="x"/><final id="x"/></scxml>
                  </content>
                </invoke>
              </state>
            </scxml>
            """
        assertErrors(
            text,
            [
                "test.scxml:5:9: error: <scxml> is missing the required attribute 'version'; add version=\"1.0\"",
                "test.scxml:5:31: error: duplicate state id 'x': the <final> at test.scxml:5:16 already uses it; "
                    + "state ids must be unique within a document",
            ])
    }

    func testContentOfSendIsNeverParsedAsADocument() throws {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <onentry>
                  <send event="e"><content><scxml version="bogus"><nonsense/></scxml></content></send>
                </onentry>
              </state>
            </scxml>
            """
        let document = try parse(text)
        guard case .send(let send)? = document.states[0].onEntry.first?.actions.first else {
            return XCTFail("expected <send>")
        }
        XCTAssertEqual(
            send.content?.value,
            .inline(
                .markup(#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="bogus"><nonsense/></scxml>"#)))
    }

    func testInlineContentIsOpaque() throws {
        // Elements inside <data>, <assign> and <content> are data, even when they look like SCXML.
        let text = """
            \(scxmlRoot)>
              <datamodel><data id="d"><state id="notAState"/><raise/></data></datamodel>
              <final id="f"/>
            </scxml>
            """
        let document = try parse(text)
        XCTAssertEqual(document.allStates.map(\.id), ["f"])
        XCTAssertEqual(
            document.datamodelElement?.data.first?.value,
            .inline(
                .markup(
                    #"<state xmlns="http://www.w3.org/2005/07/scxml" id="notAState"/>"#
                        + #"<raise xmlns="http://www.w3.org/2005/07/scxml"/>"#)))
    }
}
