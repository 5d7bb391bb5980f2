import XCTest
@testable import StatechartSCXML

/// Errors about `<history>` pseudo-states.
final class HistoryErrorTests: XCTestCase {
    func testHistoryAsChildOfSCXML() {
        let text = """
            \(scxmlRoot)>
              <history id="h"><transition target="a"/></history>
              <state id="a"/>
            </scxml>
            """
        assertError(
            text, line: 2, column: 3, element: "history", "<history> must be a child of <state> or <parallel>, not <scxml>")
    }

    func testHistoryAsChildOfFinal() {
        let text = """
            \(scxmlRoot)>
              <final id="f">
                <history id="h"/>
              </final>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "history", "<history> must be a child of <state> or <parallel>, not <final>")
    }

    func testHistoryInStateWithoutChildStates() {
        let text = """
            \(scxmlRoot)>
              <state id="s">
                <history id="h"><transition target="s"/></history>
              </state>
            </scxml>
            """
        assertErrors(
            text,
            [
                "test.scxml:3:5: error: <history id='h'> is inside <state id='s'>, which has no child states; a "
                    + "history state restores the children that were active, so its parent needs child states",
                "test.scxml:3:21: error: the default target 's' of the shallow <history id='h'> must be a child of "
                    + "<state id='s'>; use type=\"deep\" to name deeper descendants",
            ])
    }

    func testHistoryWithTwoTransitions() {
        let text = """
            \(scxmlRoot)>
              <state id="s">
                <history id="h">
                  <transition target="a"/>
                  <transition target="a"/>
                </history>
                <state id="a"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "history",
            "<history id='h'> can have only one <transition> (its default history configuration); found 2")
    }

    func testHistoryWithoutTransition() throws {
        let text = """
            \(scxmlRoot)>
              <state id="s">
                <history type="deep"/>
                <state id="a"/>
              </state>
            </scxml>
            """
        let message = "<history> has no <transition> giving its default history configuration; it enters the "
            + "parent's initial state, as Qt does (SCXML requires the <transition>)"
        // Qt Creator's output: a warning, and the parent's initial state as the default.
        let document = try SCXMLParser.parse(string: text, fileName: "test.scxml")
        XCTAssertEqual(document.warnings.map(\.description), ["test.scxml:3:5: warning: \(message)"])
        XCTAssertEqual(document.states[0].children[0].transitions.map(\.targets), [["a"]])
        assertError(text, line: 3, column: 5, element: "history", message, strict: true)
    }

    func testHistoryTransitionWithEventAndCond() {
        let text = """
            \(scxmlRoot)>
              <state id="s">
                <history id="h">
                  <transition event="e" cond="x" target="a"/>
                </history>
                <state id="a"/>
              </state>
            </scxml>
            """
        assertErrors(
            text,
            [
                "test.scxml:4:7: error: the <transition> of <history> cannot have an 'event' attribute: it gives "
                    + "the default history configuration",
                "test.scxml:4:7: error: the <transition> of <history> cannot have a 'cond' attribute: it gives "
                    + "the default history configuration",
            ])
    }

    func testHistoryTransitionWithoutTarget() {
        let text = """
            \(scxmlRoot)>
              <state id="s">
                <history id="h">
                  <transition><log/></transition>
                </history>
                <state id="a"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 4, column: 7, element: "transition",
            "the <transition> of <history> needs a 'target' naming the default history state(s)")
    }

    func testDeepHistoryTargetOutsideItsParent() {
        let text = """
            \(scxmlRoot)>
              <state id="s">
                <history id="h" type="deep">
                  <transition target="b"/>
                </history>
                <state id="a"/>
              </state>
              <state id="b"/>
            </scxml>
            """
        assertError(
            text, line: 4, column: 7, element: "transition",
            "the default target 'b' of <history id='h'> is not a descendant of <state id='s'>; a history state can "
                + "only restore states inside its parent")
    }

    func testShallowHistoryTargetMustBeAChild() {
        let text = """
            \(scxmlRoot)>
              <state id="s">
                <history id="h">
                  <transition target="a1"/>
                </history>
                <state id="a"><state id="a1"/></state>
              </state>
            </scxml>
            """
        // Qt Creator's and uSCXML's output: entered as written, with a warning; an error when strict.
        let message = "the default target 'a1' of the shallow <history id='h'> is not a child of <state id='s'>; it is "
            + "entered as written, with the states between, as Qt and uSCXML do (SCXML requires a child; type=\"deep\" "
            + "allows deeper descendants)"
        XCTAssertEqual(try SCXMLParser.parse(string: text, fileName: "test.scxml").warnings.map(\.description),
                       ["test.scxml:4:7: warning: \(message)"])
        assertError(text, line: 4, column: 7, element: "transition", message, strict: true)
    }

    func testInvalidHistoryType() {
        let text = """
            \(scxmlRoot)>
              <state id="s">
                <history id="h" type="shallower"><transition target="a"/></history>
                <state id="a"/>
              </state>
            </scxml>
            """
        assertError(text, line: 3, column: 5, element: "history", "<history> has type 'shallower'; expected 'shallow' or 'deep'")
    }

    func testValidHistoryInParallel() throws {
        let text = """
            \(scxmlRoot)>
              <parallel id="p">
                <history id="h" type="deep"><transition target="a2 b1"/></history>
                <state id="a"><state id="a1"/><state id="a2"/></state>
                <state id="b"><state id="b1"/></state>
              </parallel>
            </scxml>
            """
        let history = try XCTUnwrap(try parse(text).state(withID: "h"))
        XCTAssertEqual(history.kind, .history)
        XCTAssertEqual(history.historyType, .deep)
        XCTAssertEqual(history.transitions.map(\.targets), [["a2", "b1"]])
        XCTAssertEqual(history.sourceLocation, at(3, 5))
    }
}
