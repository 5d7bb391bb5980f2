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
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.event.line) }, [["net", "ping"], ["net", "drop"], ["drop"]])
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.expected) }, [[["quiet"], ["loud"]], [["quiet"], ["idle"]], [["idle"]]])
        // Every path, replayed on the machine, is in the configurations it expects.
        var coverage = try SCXMLCoverage(document: document)
        for (number, path) in plan.paths.enumerated() {
            let machine = try SCXMLMachine(document: document)
            var lines = ["{\"event\": null, \"configuration\": \(json(path.start))}"]
            try machine.start()
            XCTAssertEqual(machine.configuration, path.start)
            for step in path.steps {
                try machine.send(step.event.name, data: step.event.data)
                XCTAssertEqual(machine.configuration, step.expected)
                lines.append("{\"event\": \"\(step.event.name)\", \"configuration\": \(json(step.expected))}")
            }
            try coverage.add(trace: lines.joined(separator: "\n"), file: "path \(number)")
        }
        // Everything but the transition on the platform's own done.state.idle, which nothing raises.
        XCTAssertEqual(coverage.missed, ["transition idle -done.state.idle-> idle"])
        XCTAssertEqual(plan.unreached.map(\.description), [
            "transition idle -done.state.idle-> idle: no event the search sends matches 'done.state.idle', and the chart raises none that is taken there",
        ])
    }

    /// `<test:event>` examples: kept by the parser for their own document (not a nested one),
    /// and turned into the events the search sends, each example's data once, in order.
    func testTheEventExamplesADocumentGives() throws {
        let document = try SCXMLParser.parse(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:test="urn:statechart:test" version="1.0" datamodel="null">
              <test:event name="reset"/>
              <state id="idle">
                <transition event="order.placed" target="idle">
                  <test:event name="order.placed" data='{"amount": 120}'/>
                  <test:event name="order.placed" data='[1, "two"]'/>
                  <test:event name="order.placed" data='{"amount": 120}'/>
                </transition>
                <transition event="cancel" target="idle"/>
                <invoke type="scxml"><content>
                  <scxml version="1.0" datamodel="null"><test:event name="inner"/><final id="f"/></scxml>
                </content></invoke>
              </state>
            </scxml>
            """, fileName: "orders.scxml")
        XCTAssertEqual(document.eventExamples.map(\.name), ["reset", "order.placed", "order.placed", "order.placed"])
        XCTAssertEqual(document.eventExamples.map(\.data), [nil, "{\"amount\": 120}", "[1, \"two\"]", "{\"amount\": 120}"])
        XCTAssertEqual(document.eventExamples.first?.sourceLocation.description, "orders.scxml:2:3")
        // The transitions' events first (order.placed with its two distinct examples instead
        // of without data, cancel without), then 'reset', which only an example names.
        XCTAssertEqual(try SCXMLTestPaths.inputs(of: document).map(\.line),
                       ["order.placed {\"amount\":120}", "order.placed [1,\"two\"]", "cancel", "reset"])
        XCTAssertEqual(try SCXMLTestPaths.inputs(of: document).last, SCXMLTestEvent("reset"))

        let bad = try SCXMLParser.parse(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:t="urn:statechart:test" version="1.0" datamodel="null">
              <state id="s"><t:event data="1"/></state>
            </scxml>
            """, fileName: "bad.scxml")
        XCTAssertThrowsError(try SCXMLTestPaths.plan(for: bad)) { error in
            XCTAssertEqual("\(error)", "bad.scxml:2:17: error: <test:event> needs a name attribute: the event's name")
        }
    }

    /// A chart with an `<invoke>`: the child runs as in `trace` (after each event, on the
    /// search's thread), what it sends back is taken like any other event, and its state is
    /// part of the machine state, so the null-datamodel search is still exhaustive. `step`
    /// only the child takes (autoforwarded): the chart names it in an example.
    func testAChartThatInvokesIsSearchedWithItsChildRunning() throws {
        let document = try SCXMLParser.parse(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:test="urn:statechart:test" version="1.0" datamodel="null" initial="idle">
              <test:event name="step"/>
              <state id="idle"><transition event="go" target="working"/></state>
              <state id="working" initial="started">
                <invoke autoforward="true"><content>
                  <scxml version="1.0" datamodel="null">
                    <state id="c1"><transition event="step" target="c2"><send target="#_parent" event="half"/></transition></state>
                    <state id="c2"><transition event="step" target="end"/></state>
                    <final id="end"/>
                  </scxml>
                </content></invoke>
                <state id="started"><transition event="half" target="halfway"/></state>
                <state id="halfway"/>
                <transition event="done.invoke" target="finished"/>
                <transition event="stop" target="idle"/>
              </state>
              <final id="finished"/>
            </scxml>
            """)
        let plan = try SCXMLTestPaths.plan(for: document)
        XCTAssertTrue(plan.isExhaustive)
        XCTAssertEqual(plan.unreached, [])
        // By hand: the first `step` reaches the child, whose `half` moves the chart to
        // halfway after the step's own line (which still shows started); the second ends
        // the child, whose done.invoke finishes the chart. `stop` is the one transition left.
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.event.line) }, [["go", "step", "step"], ["go", "stop"]])
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.expected) },
                       [[["started"], ["started"], ["halfway"]], [["started"], ["idle"]]])
    }

    private func json(_ ids: [String]) -> String { "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
}
