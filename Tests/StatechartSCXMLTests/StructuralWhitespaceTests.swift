import XCTest
@testable import StatechartSCXML

/// The reader leaves the indentation between structural SCXML elements out of the tree
/// (SAXState.dropsStructuralBlanks); text that is kept as written must come through unchanged.
final class StructuralWhitespaceTests: XCTestCase {
    func testMarkupInsideContentKeepsItsWhitespaceAtEveryDepth() throws {
        // The <state> inside <content> is a structural element's name, but it is content here.
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <onentry>
                  <send event="e">
                    <content>
                      <state id="x">
                        <final id="y"/>
                      </state>
                    </content>
                  </send>
                </onentry>
              </state>
            </scxml>
            """
        let document = try parse(text)
        guard case .send(let send)? = document.states.first?.onEntry.first?.actions.first,
              case .inline(.markup(let markup))? = send.content?.value
        else { return XCTFail("expected a <send> with inline markup") }
        XCTAssertEqual(
            markup,
            "\n          " + #"<state xmlns="http://www.w3.org/2005/07/scxml" id="x">"# + "\n            "
                + #"<final id="y"/>"# + "\n          </state>\n        ")
    }

    func testDataTextAndScriptKeepTheirBlanks() throws {
        let text = """
            \(scxmlRoot) datamodel="null">
              <datamodel>
                <data id="d">   </data>
                <data id="t"> a  b </data>
              </datamodel>
              <state id="a"/>
            </scxml>
            """
        let data = try XCTUnwrap(parse(text).datamodelElement).data
        // Blank inline content is no value; text keeps its spaces.
        XCTAssertNil(data[0].value)
        XCTAssertEqual(data[1].value, .inline(.text(" a  b ")))
    }

    func testTextAfterBlankLinesIsReportedWhole() {
        // libxml2 may hand over the blank line and the word separately; the word's node keeps both.
        let text = "\(scxmlRoot)>\n  <state id=\"a\">\n\n    hello\n  </state>\n</scxml>"
        assertError(
            text, line: 2, column: 3, element: "state",
            "unexpected text 'hello' inside <state>; only elements are allowed here")
    }

    func testBlankTextBetweenStatesLeavesNoNodeAndTheStatesLinked() {
        let data = Data("\(scxmlRoot)>\n  <state id=\"a\"/>\n  <state id=\"b\"/>\n</scxml>".utf8)
        let output = LibXML2Reader.read(data, fileName: "t.scxml", maxDepth: 10)
        guard let tree = output.tree?.view, let root = tree.root else { return XCTFail("no tree") }
        // The root and its two states: no text nodes.
        XCTAssertEqual(tree.nodes.count, 3)
        XCTAssertEqual(tree.elementChildren(root), [1, 2])
        XCTAssertEqual(tree.nodes[1].nextSibling, 2)
        XCTAssertEqual(tree.nodes[2].nextSibling, -1)
        XCTAssertEqual(tree.nodes[0].lastChild, 2)
    }
}
