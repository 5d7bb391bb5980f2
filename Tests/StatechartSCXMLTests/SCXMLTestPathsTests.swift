import Foundation
import Statechart
import StatechartSCXML
import XCTest

/// `SCXMLTestPaths` and `SCXMLCoverage` from Swift.
final class SCXMLTestPathsTests: XCTestCase {
    private let chart = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="idle">
          <state id="idle">
            <transition event="net.*" target="online"/>
            <transition event="done.state.idle" target="idle"/>
            <transition event="*" target="idle"/>
          </state>
          <state id="online">
            <history id="back"><transition target="quiet"/></history>
            <state id="quiet"><transition event="ping" target="loud"/></state>
            <state id="loud"/>
            <transition event="drop" target="idle"/>
          </state>
        </scxml>
        """

    func testTheEventsADocumentNames() throws {
        let document = try SCXMLParser.parse(string: chart)
        // In document order of their states (online's own `drop` before its child's `ping`);
        // `net.*` as `net`; `*` and the platform's own `done.*` left out.
        XCTAssertEqual(SCXMLTestPaths.events(of: document), ["net", "drop", "ping"])
    }

    func testAPlanAndItsCoverage() throws {
        let document = try SCXMLParser.parse(string: chart)
        let plan = try SCXMLTestPaths.plan(for: document)
        XCTAssertTrue(plan.isExhaustive)
        // By hand: `loud` is two events deep, and so are `drop` and the quiet state's `ping`;
        // `*` (in idle, on `drop`, the first event it matches) is the only transition one event
        // deep not on those paths.
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.event) }, [["net", "ping"], ["net", "drop"], ["drop"]])
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.expected) }, [[["quiet"], ["loud"]], [["quiet"], ["idle"]], [["idle"]]])
        // Every path, replayed on the machine, is in the configurations it expects.
        var coverage = try SCXMLCoverage(document: document)
        for (number, path) in plan.paths.enumerated() {
            let machine = try SCXMLMachine(document: document)
            var lines = ["{\"event\": null, \"configuration\": \(json(path.start))}"]
            try machine.start()
            XCTAssertEqual(machine.configuration, path.start)
            for step in path.steps {
                try machine.send(step.event)
                XCTAssertEqual(machine.configuration, step.expected)
                lines.append("{\"event\": \"\(step.event)\", \"configuration\": \(json(step.expected))}")
            }
            try coverage.add(trace: lines.joined(separator: "\n"), file: "path \(number)")
        }
        // Everything but the transition on the platform's own done.state.idle, which nothing raises.
        XCTAssertEqual(coverage.missed, ["transition idle -done.state.idle-> idle"])
        XCTAssertEqual(plan.unreached.map(\.description), [
            "transition idle -done.state.idle-> idle: no event the search sends matches 'done.state.idle', and the chart raises none that is taken there",
        ])
    }

    func testChartsThatInvokeAreRefused() throws {
        let document = try SCXMLParser.parse(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="s"><invoke type="scxml"><content><scxml version="1.0"><final id="f"/></scxml></content></invoke></state>
            </scxml>
            """)
        XCTAssertThrowsError(try SCXMLTestPaths.plan(for: document)) { error in
            XCTAssertEqual(error as? SCXMLTestPathError, .invokes(state: "s"))
        }
    }

    private func json(_ ids: [String]) -> String { "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
}
