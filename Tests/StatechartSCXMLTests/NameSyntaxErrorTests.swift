import XCTest
@testable import StatechartSCXML

/// State ids are XML IDs; `<send event>` and `<raise event>` are event names; each token of
/// `<transition event>` is an event descriptor (SCXML's schema). Documents that break these
/// are refused with positions; the forms other tools use that are valid still load.
final class NameSyntaxErrorTests: XCTestCase {
    func testInvalidIDsEventNamesAndDescriptorsAreRefusedWithPositions() {
        let descriptorRule = "a descriptor is an event name (tokens of letters, digits, '_', '-' or ':' joined by single dots, such as 'door.open'), optionally ending in '.*', or '*'"
        let nameRule = "an event name is tokens of letters, digits, '_', '-' or ':' joined by single dots, such as 'door.open'"
        assertErrors("""
            \(scxmlRoot)>
              <state id="1">
                <transition event=".a" target="b"/>
                <transition event="a." target="b"/>
                <onentry><send event="in valid"/><raise event="a..b"/></onentry>
              </state>
              <state id="b"/>
            </scxml>
            """, [
                "test.scxml:2:3: error: <state> has the id '1', which is not an XML ID; a state id starts with a letter or '_', followed by letters, digits, '.', '-' or '_' (such as 's1')",
                "test.scxml:3:5: error: <transition> has the event descriptor '.a'; \(descriptorRule)",
                "test.scxml:4:5: error: <transition> has the event descriptor 'a.'; \(descriptorRule)",
                "test.scxml:5:14: error: <send> has the event name 'in valid'; \(nameRule)",
                "test.scxml:5:38: error: <raise> has the event name 'a..b'; \(nameRule)",
            ])
    }

    func testValidFormsLoad() throws {
        // "in valid" in a transition is two descriptors; ids may hold dots and non-ASCII letters.
        let document = try parse("""
            \(scxmlRoot)>
              <state id="W.1xx">
                <transition event="in valid reply.2xx cmd:USER" target="état"/>
                <transition event="door.* * .*" target="_x"/>
                <onentry><send event="reply.2xx"/><raise event="e-1"/></onentry>
              </state>
              <state id="état"/>
              <state id="_x"/>
            </scxml>
            """)
        XCTAssertEqual(document.states.map(\.id), ["W.1xx", "état", "_x"])
        XCTAssertEqual(document.states[0].transitions.map(\.events),
                       [["in", "valid", "reply.2xx", "cmd:USER"], ["door.*", "*", ".*"]])
    }

    func testNameRules() {
        XCTAssertTrue(NameSyntax.isXMLID("s1"))
        XCTAssertTrue(NameSyntax.isXMLID("a-b.c_d"))
        XCTAssertFalse(NameSyntax.isXMLID("1"))
        XCTAssertFalse(NameSyntax.isXMLID("-a"))
        XCTAssertFalse(NameSyntax.isXMLID("a:b"))
        XCTAssertFalse(NameSyntax.isXMLID(""))
        XCTAssertFalse(NameSyntax.isXMLID("a b"))
        XCTAssertTrue(NameSyntax.isXMLID("ün"))
        XCTAssertFalse(NameSyntax.isXMLID("·a"))     // a name character, but not a start one
        XCTAssertTrue(NameSyntax.isEventName("a"))
        XCTAssertTrue(NameSyntax.isEventName("1.2"))
        XCTAssertFalse(NameSyntax.isEventName(""))
        XCTAssertFalse(NameSyntax.isEventName("a.*"))
        XCTAssertFalse(NameSyntax.isEventName("ä..b"))
        XCTAssertTrue(NameSyntax.isEventName("ä.b"))
        XCTAssertTrue(NameSyntax.isEventDescriptor("a.*"))
        XCTAssertFalse(NameSyntax.isEventDescriptor("a.*.b"))
        XCTAssertFalse(NameSyntax.isEventDescriptor("**"))
    }
}
