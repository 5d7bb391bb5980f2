import Foundation
import XCTest

/// `statechart trace --verbose`: one JSON line per microstep before each macrostep's line,
/// worked out by hand from the W3C algorithm (exit, transition content, entry; internal
/// events in the order raised).
final class TraceVerboseTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("verbose-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ text: String) throws -> String {
        let file = folder.appendingPathComponent("chart.scxml").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    static func microstep(_ number: Int, _ event: String?, transitions: String = "", exited: String = "",
                          entered: String = "", raised: String = "", sent: String = "", errors: String = "") -> String {
        "{\"microstep\": \(number), \"event\": \(event.map { "\"\($0)\"" } ?? "null"), \"transitions\": [\(transitions)], "
            + "\"exited\": [\(exited)], \"entered\": [\(entered)], \"raised\": [\(raised)], \"sent\": [\(sent)], \"errors\": [\(errors)]}"
    }

    /// "go": a's <onexit> raises "left", the transition's content sends "later" in 2 s (it
    /// never fires: a trace's clock does not advance), b's <onentry> fails with
    /// error.execution. Then "left" (raised first) takes b's targetless transition, then
    /// error.execution leaves b for the final c, which halts the machine.
    func testRaisedSentAndErrorEventsTargetlessAndHalting() throws {
        let file = try write("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a">
                <onexit><raise event="left"/></onexit>
                <transition event="go" target="b"><send event="later" delay="2s"/></transition>
              </state>
              <state id="b">
                <onentry><send event="x" type="bogus"/></onentry>
                <transition event="left"/>
                <transition event="error.execution" target="c"/>
              </state>
              <final id="c"/>
            </scxml>
            """)
        let result = try CLI.run(["trace", "--verbose", file], input: "go\nping\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [
            Self.microstep(1, nil, entered: #""a""#),
            #"{"event": null, "configuration": ["a"]}"#,
            Self.microstep(2, "go", transitions: #"{"source": "a", "targets": ["b"]}"#, exited: #""a""#, entered: #""b""#,
                           raised: #""left""#, sent: #"{"event": "later", "target": null, "delay": 2}"#,
                           errors: #"{"event": "error.execution", "message": "<send> type 'bogus' is not supported (use the SCXML or BasicHTTP Event I/O Processor)"}"#),
            Self.microstep(3, "left", transitions: #"{"source": "b", "targets": []}"#),
            Self.microstep(4, "error.execution", transitions: #"{"source": "b", "targets": ["c"]}"#, exited: #""b""#, entered: #""c""#),
            #"{"event": "go", "configuration": ["c"]}"#,
            #"{"event": "ping", "configuration": ["c"]}"#,     // halted: no microstep
        ])
    }

    /// p's <onentry> raises e1 in the microstep that enters p; its <onexit> raises e2 in the
    /// next (eventless) one, although both come between the same two state changes. e1 then
    /// moves q to r; e2 enables nothing. An input event that enables nothing says so.
    func testEntryAndExitContentBelongToTheirOwnMicrosteps() throws {
        let file = try write("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="s">
              <state id="s"><transition event="go" target="p"/></state>
              <state id="p">
                <onentry><raise event="e1"/></onentry>
                <onexit><raise event="e2"/></onexit>
                <transition target="q"/>
              </state>
              <state id="q"><transition event="e1" target="r"/></state>
              <state id="r"/>
            </scxml>
            """)
        let result = try CLI.run(["trace", "--verbose", file], input: "go\nnothing\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [
            Self.microstep(1, nil, entered: #""s""#),
            #"{"event": null, "configuration": ["s"]}"#,
            Self.microstep(2, "go", transitions: #"{"source": "s", "targets": ["p"]}"#, exited: #""s""#, entered: #""p""#, raised: #""e1""#),
            Self.microstep(3, nil, transitions: #"{"source": "p", "targets": ["q"]}"#, exited: #""p""#, entered: #""q""#, raised: #""e2""#),
            Self.microstep(4, "e1", transitions: #"{"source": "q", "targets": ["r"]}"#, exited: #""q""#, entered: #""r""#),
            #"{"event": "go", "configuration": ["r"]}"#,
            #"{"unhandled": "nothing"}"#,
            #"{"event": "nothing", "configuration": ["r"]}"#,
        ])
    }

    /// Parallel regions: one microstep takes both regions' transitions (document order),
    /// exits in reverse document order and enters in document order. Events the chart sends
    /// to itself run after the macrostep's line; their microsteps follow it.
    func testParallelRegionsAndEventsSentToItself() throws {
        let file = try write("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <parallel id="both">
                <state id="x">
                  <state id="x1"><transition event="t" target="x2"><send event="echo"/></transition></state>
                  <state id="x2"/>
                </state>
                <state id="y">
                  <state id="y1"><transition event="t" target="y2"/></state>
                  <state id="y2"><transition event="echo" target="y1"/></state>
                </state>
              </parallel>
            </scxml>
            """)
        let result = try CLI.run(["trace", "--verbose", file], input: "t\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [
            Self.microstep(1, nil, entered: #""both","x","x1","y","y1""#),
            #"{"event": null, "configuration": ["x1","y1"]}"#,
            Self.microstep(2, "t", transitions: #"{"source": "x1", "targets": ["x2"]},{"source": "y1", "targets": ["y2"]}"#,
                           exited: #""y1","x1""#, entered: #""x2","y2""#, sent: #"{"event": "echo", "target": null, "delay": 0}"#),
            #"{"event": "t", "configuration": ["x2","y2"]}"#,
            Self.microstep(3, "echo", transitions: #"{"source": "y2", "targets": ["y1"]}"#, exited: #""y2""#, entered: #""y1""#),
        ])
    }

    func testWithoutTheFlagNothingChanges() throws {
        let result = try CLI.run(["trace", "scxml/examples/traffic-light.scxml"], input: "tick\n")
        XCTAssertEqual(result.lines, [#"{"event": null, "configuration": ["red","dontWalk"]}"#,
                                      #"{"event": "tick", "configuration": ["green","dontWalk"]}"#])
    }
}
