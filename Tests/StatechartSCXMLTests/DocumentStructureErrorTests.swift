import XCTest
@testable import StatechartSCXML

/// Errors about the XML itself, the root element and the placement of elements and attributes.
final class DocumentStructureErrorTests: XCTestCase {
    func testMalformedXMLReportsLibxml2MessageWithPosition() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
            </scxml>
            """
        assertError(
            text, line: 3, column: 9, element: "",
            "malformed XML: Opening and ending tag mismatch: state line 2 and scxml")
    }

    func testMalformedAttributeReportsItsLine() {
        let text = """
            \(scxmlRoot)>
              <state id="a" id="b"/>
            </scxml>
            """
        assertError(text, line: 2, column: 23, element: "", "malformed XML: Attribute id redefined")
    }

    func testUndeclaredPrefixIsAnError() {
        let text = """
            \(scxmlRoot)>
              <state id="a" conf:x="1"/>
            </scxml>
            """
        assertError(
            text, line: 2, column: 27, element: "", "malformed XML: Namespace prefix conf for x on state is not defined")
    }

    func testEmptyDocument() {
        assertError(
            "", line: 1, column: 1, element: "",
            "the document is empty; an SCXML document needs an <scxml> root element")
    }

    /// White space alone (spaces, tabs, line breaks) gets the message of an empty document,
    /// not libxml2's "Start tag expected" (issue 24).
    func testWhiteSpaceOnlyDocumentIsEmpty() {
        for text in [" ", "\n", " \t\r\n  \n"] {
            assertError(
                text, line: 1, column: 1, element: "",
                "the document is empty; an SCXML document needs an <scxml> root element")
        }
    }

    func testMissingNamespace() {
        let text = """
            <scxml version="1.0">
              <state id="a"/>
            </scxml>
            """
        assertError(
            text, line: 1, column: 1, element: "scxml",
            "<scxml> is not in the SCXML namespace; add xmlns=\"http://www.w3.org/2005/07/scxml\"")
    }

    func testWrongNamespace() {
        let text = """
            <?xml version="1.0"?>
            <!-- a comment -->
              <scxml xmlns="http://www.w3.org/2005/07/scxml/" version="1.0"/>
            """
        assertError(
            text, line: 3, column: 3, element: "scxml",
            "<scxml> is in the namespace 'http://www.w3.org/2005/07/scxml/'; SCXML documents use "
                + "xmlns=\"http://www.w3.org/2005/07/scxml\"")
    }

    func testRootIsNotSCXML() {
        let text = """
            <state xmlns="http://www.w3.org/2005/07/scxml" id="s"/>
            """
        assertError(
            text, line: 1, column: 1, element: "state",
            "the root element is <state>; an SCXML document must start with <scxml>")
    }

    func testMissingVersion() {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml">
              <final id="f"/>
            </scxml>
            """
        assertError(
            text, line: 1, column: 1, element: "scxml",
            "<scxml> is missing the required attribute 'version'; add version=\"1.0\"")
    }

    func testWrongVersion() {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="2.0"/>
            """
        assertError(
            text, line: 1, column: 1, element: "scxml",
            "<scxml> has version '2.0'; SCXML 1.0 documents must have version=\"1.0\"")
    }

    func testInvalidBinding() {
        let text = """
            \(scxmlRoot) binding="lazy">
              <final id="f"/>
            </scxml>
            """
        assertError(text, line: 1, column: 1, element: "scxml", "<scxml> has binding 'lazy'; expected 'early' or 'late'")
    }

    func testUnknownSCXMLElementSuggestsTheClosestName() {
        let text = """
            \(scxmlRoot)>
              <stat id="a"/>
            </scxml>
            """
        assertError(
            text, line: 2, column: 3, element: "stat",
            "<stat> is not an SCXML element (did you mean <state>?); <scxml> may contain <state>, <parallel>, "
                + "<final>, <datamodel>, <script>")
    }

    func testElementsInOtherNamespacesAreIgnored() throws {
        let text = """
            \(scxmlRoot) xmlns:ext="urn:example:ext">
              <ext:note>anything <ext:here/></ext:note>
              <state id="a" ext:color="red">
                <ext:widget/>
                <onentry><ext:beep times="2"/></onentry>
              </state>
            </scxml>
            """
        let document = try parse(text)
        XCTAssertEqual(document.states.map(\.id), ["a"])
        XCTAssertEqual(document.states[0].onEntry.first?.actions, [])
    }

    func testElementWithoutNamespaceIsAnError() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <foo xmlns=""/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "foo",
            "<foo> has no namespace; SCXML elements belong in the namespace 'http://www.w3.org/2005/07/scxml' "
                + "and extension elements in a namespace of their own")
    }

    func testUnknownAttributeSuggestsTheClosestName() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <transition event="e" tagret="a"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "transition",
            "<transition> has no attribute 'tagret' (did you mean 'target'?); its attributes are 'event', 'cond', "
                + "'target', 'type'")
    }

    func testAttributeOnElementWithoutAttributes() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <onentry id="x"/>
              </state>
            </scxml>
            """
        assertError(text, line: 3, column: 5, element: "onentry", "<onentry> takes no attributes; remove 'id'")
    }

    func testTextInsideAStateIsAnError() {
        let text = """
            \(scxmlRoot)>
              <state id="a">hello there</state>
            </scxml>
            """
        assertError(
            text, line: 2, column: 3, element: "state",
            "unexpected text 'hello there' inside <state>; only elements are allowed here")
    }

    func testExecutableContentDirectlyInAState() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <raise event="e"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "raise",
            "<raise> is not allowed directly inside <state>; executable content belongs in <onentry>, <onexit> or "
                + "<transition>")
    }

    func testStateInsideExecutableContent() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <onentry>
                  <state id="b"/>
                </onentry>
              </state>
            </scxml>
            """
        assertError(
            text, line: 4, column: 7, element: "state",
            "<state> is not allowed inside <onentry>; expected executable content: <raise>, <if>, <foreach>, <log>, "
                + "<assign>, <script>, <send>, <cancel>")
    }

    func testChildOfAnEmptyElement() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <onentry>
                  <raise event="e"><log/></raise>
                </onentry>
              </state>
            </scxml>
            """
        assertError(text, line: 4, column: 24, element: "log", "<raise> cannot contain elements; remove <log>")
    }

    func testSecondDatamodelIsAnError() {
        let text = """
            \(scxmlRoot)>
              <datamodel/>
              <datamodel/>
              <final id="f"/>
            </scxml>
            """
        assertError(text, line: 3, column: 3, element: "datamodel", "<scxml> can have only one <datamodel>")
    }

    func testUndefinedEntityReference() {
        let text = """
            <!DOCTYPE scxml SYSTEM "scxml.dtd">
            \(scxmlRoot)>
              <state id="a">
                <onentry><log expr="&greeting;"/></onentry>
              </state>
            </scxml>
            """
        assertError(text, line: 4, column: 35, element: "", "malformed XML: Entity 'greeting' not defined")
    }

    func testSeveralErrorsAreReportedTogetherInSourceOrder() {
        let text = """
            \(scxmlRoot) initial="nowhere">
              <state id="a">
                <transition event="e" target="b c"/>
                <onentry>
                  <raise/>
                  <cancel/>
                </onentry>
              </state>
              <parallel id="a" initial="x"/>
            </scxml>
            """
        assertErrors(
            text,
            [
                "test.scxml:1:1: error: initial state 'nowhere' does not name a state; known ids include 'a'",
                "test.scxml:3:5: error: transition target 'b' does not name a state; known ids include 'a'",
                "test.scxml:3:5: error: transition target 'c' does not name a state; known ids include 'a'",
                "test.scxml:5:7: error: <raise> is missing the required attribute 'event'",
                "test.scxml:6:7: error: <cancel> needs a 'sendid' or 'sendidexpr' attribute naming the <send> to cancel",
                "test.scxml:9:3: error: <parallel> cannot have an 'initial' attribute: all children of a parallel "
                    + "state are entered together; remove it",
                "test.scxml:9:3: error: duplicate state id 'a': the <state> at test.scxml:2:3 already uses it; "
                    + "state ids must be unique within a document",
            ])
    }
}
