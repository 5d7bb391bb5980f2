import XCTest
@testable import StatechartSCXML

/// Errors in executable content, `<send>`, `<invoke>` and data elements. Each document puts the
/// offending element at line 4, column 7, inside `<onentry>` of a state.
final class ExecutableContentErrorTests: XCTestCase {
    /// A document with `element` as the content of line 4 (indented to column 7).
    private func inOnEntry(_ element: String) -> String {
        """
        \(scxmlRoot)>
          <state id="a">
            <onentry>
              \(element)
            </onentry>
          </state>
        </scxml>
        """
    }

    private func assertOnEntryError(
        _ element: String, _ name: String, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        assertError(inOnEntry(element), line: 4, column: 7, element: name, message, file: file, line: line)
    }

    // MARK: Required attributes

    func testRaiseWithoutEvent() {
        assertOnEntryError("<raise/>", "raise", "<raise> is missing the required attribute 'event'")
    }

    func testRaiseWithEmptyEvent() {
        assertOnEntryError(#"<raise event=" "/>"#, "raise", "<raise> has an empty 'event' attribute; give it a value")
    }

    func testLogNeedsNoAttributes() throws {
        let document = try parse(inOnEntry("<log/>"))
        XCTAssertEqual(document.states[0].onEntry[0].actions, [.log(SCXMLLog(sourceLocation: at(4, 7)))])
    }

    func testAssignWithoutLocation() {
        assertOnEntryError(#"<assign expr="1"/>"#, "assign", "<assign> is missing the required attribute 'location'")
    }

    func testForeachWithoutArrayAndItem() {
        assertErrors(
            inOnEntry("<foreach/>"),
            [
                "test.scxml:4:7: error: <foreach> is missing the required attribute 'array'",
                "test.scxml:4:7: error: <foreach> is missing the required attribute 'item'",
            ])
    }

    func testCancelWithoutSendID() {
        assertOnEntryError(
            "<cancel/>", "cancel", "<cancel> needs a 'sendid' or 'sendidexpr' attribute naming the <send> to cancel")
    }

    func testIfWithoutCond() {
        assertOnEntryError("<if><log/></if>", "if", "<if> is missing the required attribute 'cond'")
    }

    func testElseifWithoutCond() {
        assertError(
            inOnEntry(#"<if cond="a"><elseif/></if>"#), line: 4, column: 20, element: "elseif",
            "<elseif> is missing the required attribute 'cond'")
    }

    func testParamWithoutName() {
        assertError(
            inOnEntry(#"<send event="e"><param expr="1"/></send>"#), line: 4, column: 23, element: "param",
            "<param> is missing the required attribute 'name'")
    }

    func testDataWithoutID() {
        let text = """
            \(scxmlRoot)>
              <datamodel>
                <data expr="1"/>
              </datamodel>
              <final id="f"/>
            </scxml>
            """
        assertError(text, line: 3, column: 5, element: "data", "<data> is missing the required attribute 'id'")
    }

    // MARK: Mutually exclusive attributes

    func testSendExclusivePairs() {
        let pairs = [
            ("event", "eventexpr"), ("target", "targetexpr"), ("type", "typeexpr"), ("id", "idlocation"),
            ("delay", "delayexpr"),
        ]
        for (literal, expression) in pairs {
            let value = literal == "delay" ? "1s" : "x"
            let extra = literal == "event" ? "" : #" event="e""#
            assertOnEntryError(
                #"<send\#(extra) \#(literal)="\#(value)" \#(expression)="y"/>"#, "send",
                "<send> cannot have both '\(literal)' and '\(expression)'; use one of them")
        }
    }

    func testCancelWithSendIDAndSendIDExpr() {
        assertOnEntryError(
            #"<cancel sendid="a" sendidexpr="b"/>"#, "cancel",
            "<cancel> cannot have both 'sendid' and 'sendidexpr'; use one of them")
    }

    func testContentWithExprAndChildren() {
        assertError(
            inOnEntry(#"<send event="e"><content expr="1">text</content></send>"#), line: 4, column: 23,
            element: "content", "<content> cannot have both an 'expr' attribute and child content; use one of them")
    }

    func testParamWithExprAndLocation() {
        assertError(
            inOnEntry(#"<send event="e"><param name="p" expr="1" location="x"/></send>"#), line: 4, column: 23,
            element: "param", "<param> cannot have both 'expr' and 'location'; use one of them")
    }

    func testAssignWithExprAndChildren() {
        assertOnEntryError(
            #"<assign location="x" expr="1"><v/></assign>"#, "assign",
            "<assign> cannot have both an 'expr' attribute and inline content; use one of them")
    }

    func testScriptWithSrcAndInlineCode() {
        assertOnEntryError(
            #"<script src="a.js">x = 1;</script>"#, "script",
            "<script> cannot have both a 'src' attribute and inline code; use one of them")
    }

    func testDataWithExprAndSrcAndChildren() {
        let text = """
            \(scxmlRoot)>
              <datamodel>
                <data id="d1" expr="1" src="d.json"/>
                <data id="d2" expr="1">2</data>
                <data id="d3" src="d.json"><x/></data>
              </datamodel>
              <final id="f"/>
            </scxml>
            """
        assertErrors(
            text,
            [
                "test.scxml:3:5: error: <data id='d1'> can have only one of 'expr', 'src' or inline content; found "
                    + "'expr' and 'src'",
                "test.scxml:4:5: error: <data id='d2'> can have only one of 'expr', 'src' or inline content; found "
                    + "'expr' and inline content",
                "test.scxml:5:5: error: <data id='d3'> can have only one of 'expr', 'src' or inline content; found "
                    + "'src' and inline content",
            ])
    }

    func testInvokeExclusivePairs() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <invoke type="scxml" typeexpr="t" src="c.scxml" srcexpr="s" id="i" idlocation="l"/>
                <invoke src="c.scxml"><content>x</content></invoke>
                <invoke namelist="a b"><param name="p" expr="1"/></invoke>
                <invoke autoforward="yes"/>
              </state>
            </scxml>
            """
        assertErrors(
            text,
            [
                "test.scxml:3:5: error: <invoke> cannot have both 'type' and 'typeexpr'; use one of them",
                "test.scxml:3:5: error: <invoke> cannot have both 'src' and 'srcexpr'; use one of them",
                "test.scxml:3:5: error: <invoke> cannot have both 'id' and 'idlocation'; use one of them",
                "test.scxml:4:5: error: <invoke> cannot have both 'src' and a <content> child; use one of them",
                "test.scxml:5:5: error: <invoke> cannot have both a 'namelist' attribute and <param> children; use "
                    + "one of them",
                "test.scxml:6:5: error: <invoke> has autoforward 'yes'; expected 'true' or 'false'",
            ])
    }

    func testSendContentWithNamelistOrParams() {
        assertErrors(
            inOnEntry(#"<send event="e" namelist="x"><param name="p" expr="1"/><content>1</content></send>"#),
            [
                "test.scxml:4:7: error: <send> cannot have both a <content> child and a 'namelist' attribute; use "
                    + "one of them",
                "test.scxml:4:7: error: <send> cannot have both a <content> child and <param> children; use one of "
                    + "them",
            ])
    }

    func testDonedataWithContentAndParams() {
        let text = """
            \(scxmlRoot)>
              <final id="f">
                <donedata>
                  <content expr="1"/>
                  <param name="p" expr="2"/>
                </donedata>
              </final>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "donedata",
            "<donedata> cannot have both a <content> child and <param> children; use one of them")
    }

    // MARK: <send> values

    func testInvalidDelay() {
        assertOnEntryError(
            #"<send event="e" delay="5 sec"/>"#, "send",
            "<send> has delay '5 sec', which is not a CSS2 time; write a number followed by 's' or 'ms', such as "
                + "'1s', '.5s' or '100ms'")
    }

    func testDelayWithInternalTarget() {
        assertOnEntryError(
            ##"<send event="e" target="#_internal" delay="1s"/>"##, "send",
            "<send> cannot have a delay when its target is '#_internal'; remove the delay, or raise the event "
                + "without a target")
    }

    func testSendWithoutEvent() {
        assertOnEntryError(
            ##"<send target="#_parent"/>"##, "send",
            "<send> needs an 'event' or 'eventexpr' attribute (or a <content> child) when it uses the SCXML event "
                + "processor")
    }

    // MARK: <if>, <elseif>, <else>

    func testElseOutsideIf() {
        assertOnEntryError("<else/>", "else", "<else> must be a child of <if>, not <onentry>")
    }

    func testElseifOutsideIf() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <transition event="e">
                  <elseif cond="x"/>
                </transition>
              </state>
            </scxml>
            """
        assertError(text, line: 4, column: 7, element: "elseif", "<elseif> must be a child of <if>, not <transition>")
    }

    func testElseifAfterElse() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <onentry>
                  <if cond="x">
                    <else/>
                    <elseif cond="y"/>
                    <else/>
                  </if>
                </onentry>
              </state>
            </scxml>
            """
        assertErrors(
            text,
            [
                "test.scxml:6:9: error: <elseif> cannot come after <else> in the same <if>; <else> must be the last "
                    + "branch",
                "test.scxml:7:9: error: <else> cannot come after <else> in the same <if>; <else> must be the last "
                    + "branch",
            ])
    }

    func testElseWithChildren() {
        assertError(
            inOnEntry(#"<if cond="x"><else><log/></else></if>"#), line: 4, column: 20, element: "else",
            "<else> must be empty: the actions of its branch follow it inside the <if>")
    }
}
