import XCTest
@testable import StatechartSCXML

/// `In('id')` naming no state is an error in every datamodel, at the condition's element, with
/// the nearest known ids, as an unknown transition target is.
final class StateTestErrorTests: XCTestCase {
    func testInOfAnUnknownStateInATransitionCondition() {
        let text = """
            \(scxmlRoot) datamodel="null">
              <state id="closed">
                <transition event="open" cond="In('clsoed') &amp;&amp; !In('paused')" target="open"/>
              </state>
              <state id="open"/>
              <state id="paused"/>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "transition",
            "cond=\"In('clsoed') && !In('paused')\": In() of 'clsoed' does not name a state; known ids include "
                + "'closed', 'paused', 'open'")
    }

    func testInOfAnUnknownStateInAnIfConditionOfTheECMAScriptDatamodel() {
        let text = """
            \(scxmlRoot) datamodel="ecmascript">
              <state id="a">
                <onentry>
                  <if cond="x > 1 &amp;&amp; In( &quot;zz&quot; )"><raise event="e"/></if>
                </onentry>
              </state>
            </scxml>
            """
        assertError(
            text, line: 4, column: 7, element: "if",
            "cond=\"x > 1 && In( \"zz\" )\": In() of 'zz' does not name a state; known ids include 'a'")
    }

    func testEveryUnknownStateIsReported() {
        let text = """
            \(scxmlRoot) datamodel="null">
              <state id="a">
                <transition event="e" cond="In('x') || In('a') || In('y')" target="a"/>
              </state>
            </scxml>
            """
        assertErrors(text, [
            "test.scxml:3:5: error: cond=\"In('x') || In('a') || In('y')\": In() of 'x' does not name a state; known ids include 'a'",
            "test.scxml:3:5: error: cond=\"In('x') || In('a') || In('y')\": In() of 'y' does not name a state; known ids include 'a'",
        ])
    }

    /// What is not a literal In() call is the datamodel's: a variable argument, a member named
    /// In, a longer name ending in In, and In('..') inside a string.
    func testOnlyLiteralInCallsAreChecked() throws {
        let text = """
            \(scxmlRoot) datamodel="ecmascript">
              <state id="a">
                <transition event="e" cond="In(name) || obj.In('zz') || isIn('zz') || log('In(\\'zz\\')') || In(`zz`)" target="a"/>
              </state>
            </scxml>
            """
        XCTAssertNoThrow(try SCXMLParser.parse(string: text, fileName: "test.scxml"))
        XCTAssertEqual(StateTestScanner.literalArguments(in: "In('a')&&!In (\"b\")||In( 'c' )"), ["a", "b", "c"])
        XCTAssertEqual(StateTestScanner.literalArguments(in: "In('a' + x) || In('unterminated"), [])
    }
}

extension StateTestErrorTests {
    /// The null datamodel's bare ids (`In(paused)`) are ids too, declared or by default; under
    /// ECMAScript `In(paused)` reads a variable.
    func testBareIdsOfTheNullDatamodel() throws {
        for datamodel in [" datamodel=\"null\"", ""] {
            let text = """
                \(scxmlRoot)\(datamodel)>
                  <state id="a"><transition event="e" cond="In(a) &amp;&amp; !In(paused)" target="a"/></state>
                </scxml>
                """
            assertError(text, line: 2, column: 17, element: "transition",
                        "cond=\"In(a) && !In(paused)\": In() of 'paused' does not name a state; known ids include 'a'")
        }
        let ecmascript = """
            \(scxmlRoot) datamodel="ecmascript">
              <state id="a"><transition event="e" cond="In(a) &amp;&amp; !In(paused)" target="a"/></state>
            </scxml>
            """
        XCTAssertNoThrow(try SCXMLParser.parse(string: ecmascript, fileName: "test.scxml"))
    }
}
