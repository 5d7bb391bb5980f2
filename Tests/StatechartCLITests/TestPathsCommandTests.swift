import Foundation
import XCTest

/// `statechart paths`, `coverage` and `view` through the built tool.
final class TestPathsCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Every example chart: the paths reach everything, each path's events through `trace`
    /// print exactly its .expected file, and coverage of those files is complete.
    func testThePathsOfEveryExampleCoverItAndReplayThroughTrace() throws {
        let totals = ["traffic-light": (11, 7), "microwave": (11, 8), "media-player": (8, 8)]
        for (example, (states, transitions)) in totals {
            let chart = "scxml/examples/\(example).scxml"
            let out = folder.appendingPathComponent(example).path
            let result = try CLI.run(["paths", chart, "-o", out])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stdout.contains("unreached:"), result.stdout)
            XCTAssertTrue(result.lines.last?.hasSuffix("0 unreached; search exhaustive") ?? false, result.stdout)
            let events = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".events") }.sorted()
            XCTAssertEqual(events.count, result.lines.count - 1, example)
            var expectedFiles: [String] = []
            for file in events {
                let base = (out as NSString).appendingPathComponent(String(file.dropLast(".events".count)))
                let input = try String(contentsOfFile: base + ".events", encoding: .utf8)
                let expected = try String(contentsOfFile: base + ".expected", encoding: .utf8)
                let traced = try CLI.run(["trace", chart], input: input)
                XCTAssertEqual(traced.stdout, expected, "\(example) \(file)")
                expectedFiles.append(base + ".expected")
            }
            let coverage = try CLI.run(["coverage", chart] + expectedFiles)
            XCTAssertEqual(coverage.status, 0, coverage.stderr)
            XCTAssertEqual(coverage.lines, ["states: \(states) of \(states) entered (100%); transitions: \(transitions) of \(transitions) taken (100%)"])
        }
    }

    /// The traffic light's paths, checked by hand against the chart: the cars' cycle, the
    /// pedestrians' request (the guards make "tick" move only one region at a time), power off.
    func testTheTrafficLightsPaths() throws {
        let result = try CLI.run(["paths", "scxml/examples/traffic-light.scxml", "-o", folder.path])
        XCTAssertEqual(result.lines, [
            "path-001: tick tick tick",
            "path-002: button tick tick",
            "path-003: power.off",
            "3 paths to every reachable transition and state; 0 unreached; search exhaustive",
        ])
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("path-002.expected"), encoding: .utf8), """
            {"event": null, "configuration": ["red","dontWalk"]}
            {"event": "button", "configuration": ["red","waiting"]}
            {"event": "tick", "configuration": ["red","walk"]}
            {"event": "tick", "configuration": ["red","dontWalk"]}

            """)
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("path-002.events"), encoding: .utf8), "button\ntick\ntick\n")
        let to = try CLI.run(["paths", "scxml/examples/traffic-light.scxml", "--to", "walk"])
        XCTAssertEqual(to.lines, ["path-001: button tick", "1 path to state 'walk'; 0 unreached; search exhaustive"])
        let states = try CLI.run(["paths", "scxml/examples/media-player.scxml", "--cover", "states"])
        XCTAssertEqual(states.lines, [
            "path-001: play next next",
            "path-002: play pause",
            "path-003: play eject",
            "3 paths to every reachable state; 0 unreached; search exhaustive",
        ])
    }

    /// A state only a guard that can never hold leads to: listed with why, and the rest still
    /// gets its paths.
    func testAChartWithAnUnreachableStateStillGetsPathsForTheRest() throws {
        let chart = try write("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a">
                <transition event="go" target="b"/>
                <transition event="jump" cond="In('c')" target="c"/>
              </state>
              <state id="b"><transition event="back" target="a"/></state>
              <state id="c"/>
            </scxml>
            """, "unreachable.scxml")
        let result = try CLI.run(["paths", chart])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [
            "path-001: go back",
            "unreached: state 'c': no transition into it is ever taken: a -jump [In('c')]-> c (its condition [In('c')] never holds when it could be taken)",
            "unreached: transition a -jump [In('c')]-> c: its condition [In('c')] never holds when it could be taken",
            "1 path to every reachable transition and state; 2 unreached; search exhaustive",
        ])
        let unknown = try CLI.run(["paths", chart, "--to", "nowhere"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderr, "error: no state 'nowhere' in the document\n")
    }

    /// ECMAScript: the datamodel runs in the search, so a counter's guard is passed after the
    /// third event.
    func testAnECMAScriptChartIsSearchedWithItsDatamodel() throws {
        let chart = try write("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s">
              <datamodel><data id="n" expr="0"/></datamodel>
              <state id="s">
                <transition event="inc" cond="n &lt; 2"><assign location="n" expr="n + 1"/></transition>
                <transition event="inc" target="done"/>
              </state>
              <final id="done"/>
            </scxml>
            """, "counter.scxml")
        let result = try CLI.run(["paths", chart])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, ["path-001: inc inc inc", "1 path to every reachable transition and state; 0 unreached; search exhaustive"])
        let bounded = try CLI.run(["paths", chart, "--max-length", "2"])
        XCTAssertEqual(bounded.lines.last, "1 path to every reachable transition and state; 2 unreached; search bounded at 2 events")
    }

    /// An order chart whose conditions read `_event.data`, with the examples of its events it
    /// gives: every state and transition is covered, the events files carry the data, and
    /// `trace` prints each path's expected lines.
    private let orders = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:test="urn:statechart:test" version="1.0" datamodel="ecmascript" initial="idle">
          <state id="idle">
            <transition event="order.placed" cond="_event.data.amount &gt; 100" target="review">
              <test:event name="order.placed" data='{"amount": 120}'/>
              <test:event name="order.placed" data='{"amount": 80}'/>
            </transition>
            <transition event="order.placed" cond="_event.data.amount &lt;= 100" target="accepted"/>
          </state>
          <state id="review">
            <transition event="approve" cond="_event.data.by == 'manager'" target="accepted">
              <test:event name="approve" data='{"by": "manager"}'/>
              <test:event name="approve" data='{"by": "clerk"}'/>
            </transition>
            <transition event="approve" target="idle"/>
          </state>
          <final id="accepted"/>
        </scxml>
        """

    func testAnECMAScriptChartIsCoveredWithTheDataItsExamplesGive() throws {
        let chart = try write(orders, "orders.scxml")
        let out = folder.appendingPathComponent("orders").path
        let result = try CLI.run(["paths", chart, "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        // By hand: review needs amount > 100 (120), accepted directly amount <= 100 (80); from
        // review the manager's approval accepts, the clerk's goes back to idle.
        XCTAssertEqual(result.lines, [
            "path-001: order.placed {\"amount\":120} approve {\"by\":\"manager\"}",
            "path-002: order.placed {\"amount\":120} approve {\"by\":\"clerk\"}",
            "path-003: order.placed {\"amount\":80}",
            "3 paths to every reachable transition and state; 0 unreached; search exhaustive",
        ])
        XCTAssertEqual(try String(contentsOfFile: out + "/path-002.events", encoding: .utf8),
                       "order.placed {\"amount\":120}\napprove {\"by\":\"clerk\"}\n")
        var verbose: [String] = []
        for number in 1...3 {
            let base = out + "/path-00\(number)"
            let events = try String(contentsOfFile: base + ".events", encoding: .utf8)
            let traced = try CLI.run(["trace", chart], input: events)
            XCTAssertEqual(traced.stdout, try String(contentsOfFile: base + ".expected", encoding: .utf8), base)
            let file = base + ".trace"
            try Data(try CLI.run(["trace", "--verbose", chart], input: events).stdout.utf8).write(to: URL(fileURLWithPath: file))
            verbose.append(file)
        }
        let coverage = try CLI.run(["coverage", chart] + verbose)
        XCTAssertEqual(coverage.lines, ["states: 3 of 3 entered (100%); transitions: 4 of 4 taken (100%)"])
    }

    /// The same chart without its examples: the events go without data, so no condition holds,
    /// and each unreached item says which condition and how its event was sent.
    func testWithoutItsExamplesTheConditionsOnDataAreReportedAsNeverHolding() throws {
        let chart = try write(orders.split(separator: "\n").filter { !$0.contains("<test:event") }.joined(separator: "\n"),
                              "bare.scxml")
        let result = try CLI.run(["paths", chart])
        XCTAssertEqual(result.status, 0, result.stderr)
        let amountHigh = "idle -order.placed [_event.data.amount > 100]-> review"
        let amountLow = "idle -order.placed [_event.data.amount <= 100]-> accepted"
        let manager = "review -approve [_event.data.by == 'manager']-> accepted"
        let noData = "never holds when it could be taken, with 'order.placed' sent without data"
        XCTAssertEqual(result.lines, [
            "path-001: ",
            "unreached: state 'review': no transition into it is ever taken: \(amountHigh) (its condition [_event.data.amount > 100] \(noData))",
            "unreached: state 'accepted': no transition into it is ever taken: \(amountLow) (its condition [_event.data.amount <= 100] \(noData)); \(manager) (its source 'review' is never active)",
            "unreached: transition \(amountHigh): its condition [_event.data.amount > 100] \(noData)",
            "unreached: transition \(amountLow): its condition [_event.data.amount <= 100] \(noData)",
            "unreached: transition \(manager): its source 'review' is never active",
            "unreached: transition review -approve-> idle: its source 'review' is never active",
            "1 path to every reachable transition and state; 6 unreached; search exhaustive",
        ])
        // With the examples but a bound of one event: review is reached, but the search stops
        // there, so its transitions are unreached because of the bound.
        let bounded = try CLI.run(["paths", try write(orders, "orders.scxml"), "--max-length", "1"])
        XCTAssertEqual(Array(bounded.lines.suffix(3)), [
            "unreached: transition \(manager): not reached by any sequence of up to 1 events the search tried (the search was bounded, so it may still be reachable)",
            "unreached: transition review -approve-> idle: not reached by any sequence of up to 1 events the search tried (the search was bounded, so it may still be reachable)",
            "2 paths to every reachable transition and state; 2 unreached; search bounded at 1 events",
        ])
    }

    /// An example that is not JSON is refused with its position.
    func testAnExampleWhoseDataIsNotJSONIsRefused() throws {
        let chart = try write("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:test="urn:statechart:test" version="1.0" datamodel="ecmascript">
              <state id="s"><transition event="go" target="s"><test:event name="go" data="{amount: 1}"/></transition></state>
            </scxml>
            """, "bad.scxml")
        let result = try CLI.run(["paths", chart])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "\(chart):2:51: error: the data of <test:event name='go'> is not JSON: {amount: 1}\n")
        XCTAssertEqual(try CLI.run(["validate", chart]).status, 0)
    }

    /// W3C test 229 invokes a child that sends `childToParent`, which the chart autoforwards
    /// back, and the child answers `eventReceived`: all of it runs in start-up's work, as in
    /// `trace` (every time: the sessions run in order on one thread), so the start-up path
    /// covers everything but the failure branch, which is reported.
    func testAChartWithAnInvokeGetsItsPathsWithTheChildRunning() throws {
        let chart = "Tests/W3C/ecma/test229.scxml"
        let out = folder.appendingPathComponent("229").path
        let result = try CLI.run(["paths", chart, "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let never = "its source 's0' is never active when the search sends an event (it is left before: by eventless transitions, or by events the chart sends itself or receives from sessions it invoked)"
        XCTAssertEqual(result.lines, [
            "path-001: ",
            "unreached: state 'fail': no transition into it is ever taken: s0 -*-> fail (\(never))",
            "unreached: transition s0 -*-> fail: \(never)",
            "1 path to every reachable transition and state; 2 unreached; search exhaustive",
        ])
        let expected = try String(contentsOfFile: out + "/path-001.expected", encoding: .utf8)
        XCTAssertEqual(expected, "{\"event\": null, \"configuration\": [\"s0\"]}\n")
        for _ in 1...5 {
            let traced = try CLI.run(["trace", chart], input: "childToParent\n")
            XCTAssertEqual(traced.lines, ["{\"event\": null, \"configuration\": [\"s0\"]}",
                                          "{\"event\": \"childToParent\", \"configuration\": [\"pass\"]}"])
        }
        let verbose = try write(try CLI.run(["trace", "--verbose", chart]).stdout, "229.trace")
        XCTAssertEqual(try CLI.run(["coverage", chart, verbose]).lines.first,
                       "states: 2 of 3 entered (66.7%); transitions: 2 of 3 taken (66.7%)")
    }

    /// A trace of another chart, or of events this chart does not react to that way, is
    /// refused at its first line that does not fit, with status 2.
    func testCoverageRefusesATraceThatDoesNotBelongToTheChart() throws {
        let chart = "scxml/examples/traffic-light.scxml"
        let replayed = try write("""
            {"event": null, "configuration": ["red","dontWalk"]}
            {"event": "tick", "configuration": ["green","dontWalk"]}
            {"event": "tick", "configuration": ["red","dontWalk"]}
            """, "wrong.trace")
        var result = try CLI.run(["coverage", chart, replayed])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "\(replayed):3: error: after 'tick' the chart is in [yellow, dontWalk], but the trace says [red, dontWalk]\n")
        let other = try write("""
            {"microstep": 1, "event": null, "transitions": [], "exited": [], "entered": ["stopped"], "raised": [], "sent": [], "errors": []}
            """, "other.trace")
        result = try CLI.run(["coverage", chart, other])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(other):1: error: no state 'stopped' in the chart\n")
        let records = try write("red -tick-> green\nred -tick-> yellow\n", "records.trace")
        result = try CLI.run(["coverage", chart, records])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(records):2: error: the chart has no transition red -tick-> yellow\n")
        let prose = try write("hello\n", "prose.trace")
        result = try CLI.run(["coverage", chart, prose])
        XCTAssertEqual(result.stderr, "\(prose):1: error: neither JSON nor a transition 'source -event-> targets'\n")
    }

    /// Coverage of part of the example's trace (`trace --verbose`), and of TransitionRecord
    /// lines: the summary, what was missed, and the drawing with the missed parts in red.
    func testCoverageReportsWhatWasMissed() throws {
        let chart = "scxml/examples/traffic-light.scxml"
        let verbose = try CLI.run(["trace", "--verbose", chart], input: "tick\ntick\nbutton\n")
        let trace = try write(verbose.stdout, "part.trace")
        let dot = folder.appendingPathComponent("coverage.dot").path
        let result = try CLI.run(["coverage", chart, trace, "--dot", dot])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [
            "states: 9 of 11 entered (81.8%); transitions: 3 of 7 taken (42.9%)",
            "missed: state 'walk'",
            "missed: state 'off'",
            "missed: transition operating -power.off-> off",
            "missed: transition yellow -tick-> red",
            "missed: transition waiting -tick [In('red')]-> walk",
            "missed: transition walk -tick-> dontWalk",
        ])
        let text = try String(contentsOfFile: dot, encoding: .utf8)
        XCTAssertTrue(text.contains("\"walk\" [color=red, fontcolor=red, penwidth=2];"), text)
        XCTAssertTrue(text.contains("\"yellow\" -> \"red\" [label=\"tick\", color=red, fontcolor=red, penwidth=2];"), text)
        XCTAssertTrue(text.contains("\"red\" -> \"green\" [label=\"tick [In('dontWalk')]\"];"), text)
        let records = try write("red -tick-> green\ngreen -tick-> yellow\noperating -power.off-> off\n", "records.trace")
        let fromRecords = try CLI.run(["coverage", chart, records])
        XCTAssertEqual(fromRecords.lines.first, "states: 6 of 11 entered (54.5%); transitions: 3 of 7 taken (42.9%)")
    }

    /// The viewer's page holds everything it needs and refuses a trace of another chart.
    func testViewWritesOneSelfContainedPage() throws {
        let chart = "scxml/examples/traffic-light.scxml"
        let html = folder.appendingPathComponent("trace.html").path
        let result = try CLI.run(["view", chart, "--events", "scxml/examples/traffic-light.events", "-o", html])
        XCTAssertEqual(result.status, 0, result.stderr)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertFalse(page.contains("<script src"))
        XCTAssertFalse(page.contains("<link"))
        XCTAssertTrue(page.contains("default-src 'none'"))
        XCTAssertTrue(page.contains("\"label\":\"power.off\""), String(page.prefix(300)))
        let other = try write("{\"event\": null, \"configuration\": [\"stopped\"]}\n", "other.trace")
        let refused = try CLI.run(["view", chart, "--trace", other, "-o", html])
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stderr, "\(other):1: error: no state 'stopped' in the chart\n")
    }
}
