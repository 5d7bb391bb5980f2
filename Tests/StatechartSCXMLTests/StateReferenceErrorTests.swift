import XCTest
@testable import StatechartSCXML

/// Errors about state ids and the states that transitions, `initial` attributes, `<initial>` and
/// `<history>` refer to.
final class StateReferenceErrorTests: XCTestCase {
    func testUnknownTransitionTarget() {
        let text = """
            \(scxmlRoot)>
              <state id="s1">
                <transition event="go" target="sx"/>
              </state>
              <state id="s2"/>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "transition",
            "transition target 'sx' does not name a state; known ids include 's1', 's2'")
    }

    func testKnownIDsListsTheFiveNearest() {
        let text = """
            \(scxmlRoot)>
              <state id="alpha"><transition target="stop2"/></state>
              <state id="beta"/><state id="gamma"/><state id="start"/>
              <state id="stop"/><state id="step"/><state id="delta"/>
            </scxml>
            """
        assertError(
            text, line: 2, column: 21, element: "transition",
            "transition target 'stop2' does not name a state; known ids include 'stop', 'step', 'start', 'alpha', "
                + "'beta'")
    }

    func testUnknownTargetInDocumentWithoutIDs() {
        let text = """
            \(scxmlRoot)>
              <state><transition target="a"/></state>
            </scxml>
            """
        assertError(
            text, line: 2, column: 10, element: "transition",
            "transition target 'a' does not name a state; the document has no state ids")
    }

    func testUnknownInitialOfDocument() {
        let text = """
            \(scxmlRoot) initial="s3">
              <state id="s1"/>
            </scxml>
            """
        assertError(
            text, line: 1, column: 1, element: "scxml",
            "initial state 's3' does not name a state; known ids include 's1'")
    }

    func testUnknownInitialOfState() {
        let text = """
            \(scxmlRoot)>
              <state id="s0" initial="s02">
                <state id="s01"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 2, column: 3, element: "state",
            "initial state 's02' does not name a state; known ids include 's0', 's01'")
    }

    func testUnknownTargetOfInitialElement() {
        let text = """
            \(scxmlRoot)>
              <state id="s0">
                <initial>
                  <transition target="s9"/>
                </initial>
                <state id="s01"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 4, column: 7, element: "transition",
            "transition target 's9' does not name a state; known ids include 's0', 's01'")
    }

    func testDuplicateStateIDs() {
        let text = """
            \(scxmlRoot)>
              <state id="s1">
                <final id="s1"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "final",
            "duplicate state id 's1': the <state> at test.scxml:2:3 already uses it; state ids must be unique "
                + "within a document")
    }

    func testSendAndInvokeIDsAreNotStateIDs() throws {
        let text = """
            \(scxmlRoot)>
              <state id="s1">
                <onentry><send id="s1" event="e"/></onentry>
                <invoke id="s1" src="child.scxml"/>
                <transition event="e" target="s1"/>
              </state>
            </scxml>
            """
        let document = try parse(text)
        guard case .send(let send)? = document.states[0].onEntry.first?.actions.first else {
            return XCTFail("expected a <send>")
        }
        XCTAssertEqual(send.id, .literal("s1"))
        XCTAssertEqual(document.states[0].invokes.first?.id, .literal("s1"))
    }

    func testInitialAttributeNamingANonDescendant() {
        let text = """
            \(scxmlRoot)>
              <state id="s0" initial="s1">
                <state id="s01"/>
              </state>
              <state id="s1"/>
            </scxml>
            """
        assertError(
            text, line: 2, column: 3, element: "state",
            "initial state 's1' of <state id='s0'> is not one of its descendants; name a state inside it")
    }

    func testInitialAttributeNamingTheStateItself() {
        let text = """
            \(scxmlRoot)>
              <state id="s0" initial="s0">
                <state id="s01"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 2, column: 3, element: "state",
            "initial state 's0' of <state id='s0'> is not one of its descendants; name a state inside it")
    }

    func testInitialAttributeAndInitialElement() {
        let text = """
            \(scxmlRoot)>
              <state id="s0" initial="s01">
                <initial><transition target="s01"/></initial>
                <state id="s01"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 2, column: 3, element: "state",
            "<state id='s0'> has both an 'initial' attribute and an <initial> element; use only one of them")
    }

    func testInitialAttributeOnAtomicState() {
        let text = """
            \(scxmlRoot)>
              <state id="s0" initial="s1"/>
              <state id="s1"/>
            </scxml>
            """
        assertError(
            text, line: 2, column: 3, element: "state",
            "<state id='s0'> has an 'initial' attribute but no child states; 'initial' names the child states to "
                + "enter first, so remove it or add child states")
    }

    func testInitialElementInAtomicState() {
        let text = """
            \(scxmlRoot)>
              <state id="s0">
                <initial><transition target="s1"/></initial>
              </state>
              <state id="s1"/>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "initial",
            "<initial> is only allowed in a state with child states, and <state id='s0'> has none")
    }

    func testInitialElementTargetNotADescendant() {
        let text = """
            \(scxmlRoot)>
              <state id="s0">
                <initial>
                  <transition target="s1"/>
                </initial>
                <state id="s01"/>
              </state>
              <state id="s1"/>
            </scxml>
            """
        assertError(
            text, line: 4, column: 7, element: "transition",
            "the <initial> transition target 's1' is not a descendant of <state id='s0'>; the default initial "
                + "states must be inside the state")
    }

    func testInitialElementWithoutTransition() {
        let text = """
            \(scxmlRoot)>
              <state id="s0">
                <initial/>
                <state id="s01"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "initial",
            "<initial> needs exactly one <transition> naming the default initial state(s); found none")
    }

    func testInitialElementWithTwoTransitions() {
        let text = """
            \(scxmlRoot)>
              <state id="s0">
                <initial>
                  <transition target="s01"/>
                  <transition target="s02"/>
                </initial>
                <state id="s01"/>
                <state id="s02"/>
              </state>
            </scxml>
            """
        assertError(text, line: 3, column: 5, element: "initial", "<initial> needs exactly one <transition>; found 2")
    }

    func testInitialTransitionWithoutTarget() {
        let text = """
            \(scxmlRoot)>
              <state id="s0">
                <initial><transition/></initial>
                <state id="s01"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 14, element: "transition",
            "the <transition> of <initial> needs a 'target' naming the default initial state(s)")
    }

    func testInitialTransitionWithEventAndCond() {
        let text = """
            \(scxmlRoot)>
              <state id="s0">
                <initial>
                  <transition event="e" cond="true" target="s01"/>
                </initial>
                <state id="s01"/>
              </state>
            </scxml>
            """
        assertErrors(
            text,
            [
                "test.scxml:4:7: error: the <transition> of <initial> cannot have an 'event' attribute: it is "
                    + "taken unconditionally when the parent state is entered",
                "test.scxml:4:7: error: the <transition> of <initial> cannot have a 'cond' attribute: it is "
                    + "taken unconditionally when the parent state is entered",
            ])
    }

    func testInitialInParallel() {
        let text = """
            \(scxmlRoot)>
              <parallel id="p">
                <initial><transition target="a"/></initial>
                <state id="a"/>
              </parallel>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "initial",
            "<initial> is not allowed inside <parallel>; allowed children are <onentry>, <onexit>, <transition>, "
                + "<state>, <parallel>, <history>, <datamodel>, <invoke>")
    }

    func testParallelWithInitialAttribute() {
        let text = """
            \(scxmlRoot)>
              <parallel id="p" initial="a">
                <state id="a"/>
              </parallel>
            </scxml>
            """
        assertError(
            text, line: 2, column: 3, element: "parallel",
            "<parallel> cannot have an 'initial' attribute: all children of a parallel state are entered together; "
                + "remove it")
    }

    func testTargetsThatCannotBeActiveTogether() {
        let text = """
            \(scxmlRoot)>
              <state id="s">
                <state id="a"/>
                <state id="b"/>
              </state>
              <final id="f">
                <onentry><log/></onentry>
              </final>
              <state id="t"><transition event="e" target="a b"/></state>
            </scxml>
            """
        assertError(
            text, line: 9, column: 17, element: "transition",
            "transition targets 'a' and 'b' cannot be active at the same time: they are in different children of "
                + "<state id='s'>, which is not a <parallel>")
    }

    func testATargetInsideAnotherTargetIsRefusedByTheParserAsByTheMachine() {
        // Issue 15: the validator used to let an ancestor/descendant pair through, and only
        // SCXMLMachine (the compiler) refused it. Both now apply one rule.
        let text = """
            \(scxmlRoot) datamodel="null">
              <state id="s">
                <transition event="e" target="p c"/>
              </state>
              <state id="p">
                <state id="c"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "transition",
            "transition targets 'p' and 'c' cannot both be named: 'c' is inside 'p', and entering 'c' enters "
                + "'p' too; name only 'c'")
        // Inner first: the same pair, named the other way round.
        assertError(
            text.replacingOccurrences(of: "target=\"p c\"", with: "target=\"c p\""), line: 3, column: 5,
            element: "transition",
            "transition targets 'c' and 'p' cannot both be named: 'c' is inside 'p', and entering 'c' enters "
                + "'p' too; name only 'c'")
        XCTAssertThrowsError(try SCXMLMachine(string: text, fileName: "test.scxml"))
    }

    func testTheSameTargetTwiceIsRefused() {
        let text = """
            \(scxmlRoot) datamodel="null">
              <parallel id="p">
                <state id="a"><transition event="e" target="b b"/></state>
                <state id="b"/>
              </parallel>
            </scxml>
            """
        assertError(
            text, line: 3, column: 19, element: "transition", "transition targets name 'b' twice; name each state once")
        XCTAssertThrowsError(try SCXMLMachine(string: text, fileName: "test.scxml"))
    }

    func testInitialStatesInDifferentTopLevelStates() {
        let text = """
            \(scxmlRoot) initial="a b">
              <state id="a"/>
              <state id="b"/>
            </scxml>
            """
        assertError(
            text, line: 1, column: 1, element: "scxml",
            "initial states 'a' and 'b' cannot be active at the same time: they are in different children of "
                + "<scxml>, which is not a <parallel>")
    }

    func testTargetsInParallelRegionsAreFine() throws {
        let text = """
            \(scxmlRoot) initial="a2 b2">
              <parallel id="p">
                <state id="a"><state id="a1"/><state id="a2"/></state>
                <state id="b"><state id="b1"/><state id="b2"/></state>
              </parallel>
            </scxml>
            """
        XCTAssertEqual(try parse(text).initial, ["a2", "b2"])
    }

    func testTransitionWithoutEventCondOrTarget() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <transition type="internal"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "transition",
            "<transition> needs at least one of 'event', 'cond' or 'target'")
    }

    func testInvalidTransitionType() {
        let text = """
            \(scxmlRoot)>
              <state id="a">
                <transition event="e" type="local"/>
              </state>
            </scxml>
            """
        assertError(
            text, line: 3, column: 5, element: "transition",
            "<transition> has type 'local'; expected 'internal' or 'external'")
    }

    func testFinalContainingStateAndTransition() {
        let text = """
            \(scxmlRoot)>
              <final id="f">
                <state id="inner"/>
                <transition target="f"/>
              </final>
            </scxml>
            """
        assertErrors(
            text,
            [
                "test.scxml:3:5: error: <state> is not allowed inside <final>; allowed children are <onentry>, "
                    + "<onexit>, <donedata>",
                "test.scxml:4:5: error: <transition> is not allowed inside <final>; allowed children are "
                    + "<onentry>, <onexit>, <donedata>",
            ])
    }

    func testStateCountLimit() {
        let text = """
            \(scxmlRoot)>
              <state id="a"/>
              <state id="b"/>
              <state id="c"/>
            </scxml>
            """
        assertError(
            text, line: 4, column: 3, element: "state",
            "the document has more than 2 states, the limit (SCXMLParser.Limits.maxStates); split the document "
                + "or raise the limit",
            limits: SCXMLParser.Limits(maxStates: 2))
    }
}
