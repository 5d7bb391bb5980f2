import Foundation
import XCTest

/// `statechart trace`: one JSON line after start-up and after each input event's macrostep.
final class TraceCommandTests: XCTestCase {
    func line(_ event: String?, _ configuration: [String]) -> String {
        let e = event.map { "\"\($0)\"" } ?? "null"
        return "{\"event\": \(e), \"configuration\": [\(configuration.map { "\"\($0)\"" }.joined(separator: ","))]}"
    }

    func testTrafficLightRegionsGuardEachOtherWithIn() throws {
        let result = try CLI.run(["trace", "scxml/examples/traffic-light.scxml"], input: try CLI.events("traffic-light"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [
            line(nil, ["red", "dontWalk"]),
            line("tick", ["green", "dontWalk"]),
            line("tick", ["yellow", "dontWalk"]),
            line("button", ["yellow", "waiting"]),
            line("tick", ["red", "waiting"]),      // In('red') was false when "tick" selected transitions
            line("tick", ["red", "walk"]),
            line("tick", ["red", "dontWalk"]),
            line("tick", ["green", "dontWalk"]),
            line("power.off", ["off"]),
            line("tick", ["off"]),                 // halted: keeps reporting where it stopped
        ])
        XCTAssertEqual(result.stderr, "log: pedestrians: request noted\n")
    }

    func testMicrowaveEventlessTransitionsAndCancelledTimer() throws {
        let result = try CLI.run(["trace", "scxml/examples/microwave.scxml"], input: try CLI.events("microwave"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [
            line(nil, ["off", "open"]),
            line("door.close", ["off", "closed"]),
            line("turn.on", ["cooking", "closed"]),
            line("door.open", ["idle", "open"]),
            line("door.close", ["cooking", "closed"]),
            line("time.up", ["served"]),
        ])
    }

    func testMediaPlayerDeepAndShallowHistory() throws {
        let result = try CLI.run(["trace", "scxml/examples/media-player.scxml"], input: try CLI.events("media-player"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [
            line(nil, ["stopped"]),
            line("play", ["intro"]),        // no history yet: the default transition
            line("next", ["verse"]),
            line("stop", ["stopped"]),
            line("play", ["verse"]),        // deep history restores the part of the track
            line("next", ["chorus"]),
            line("pause", ["paused"]),
            line("pause", ["chorus"]),      // shallow history of "playing"
            line("eject", ["ejected"]),
        ])
    }

    func testEventsSentToSelfRunAfterTheLineIsPrinted() throws {
        let result = try CLI.run(["trace", "scxml/fixtures/self-send.scxml"], input: "go\ncheck\n")
        XCTAssertEqual(result.lines, [line(nil, ["s0"]), line("go", ["s2"]), line("check", ["s4"])])
    }

    func testEventDataAndBlankLines() throws {
        let result = try CLI.run(["trace", "scxml/examples/traffic-light.scxml"], input: "\nbutton {\"who\": \"ann\"}\n")
        XCTAssertEqual(result.lines, [line(nil, ["red", "dontWalk"]), line("button", ["red", "waiting"])])
    }

    /// The first line is where start-up's macrostep ended; "ready", which start-up sent to the
    /// machine, runs after it (before "go" is read). Until this was fixed, start-up's sends ran
    /// first and the first line said "idle". The delayed "timeout" never fires in a trace.
    func testStartUpLineComesBeforeStartUpsSelfSentEvents() throws {
        let result = try CLI.run(["trace", "scxml/fixtures/startup-send.scxml"], input: "go\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [line(nil, ["booting"]), line("go", ["running"])])
    }

    /// Spaces, tabs and carriage returns around a line are ignored and a blank line is skipped
    /// (a line of spaces used to send an event with an empty name); the name ends at a space or tab.
    func testBlankLinesAndSurroundingSpaces() throws {
        let result = try CLI.run(["trace", "scxml/examples/traffic-light.scxml"], input: "   \n\t\r\n  tick\t\r\nbutton\t{}\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [line(nil, ["red", "dontWalk"]), line("tick", ["green", "dontWalk"]),
                                      line("button", ["green", "waiting"])])
    }

    /// A line that is not UTF-8 is reported and skipped (it used to be replaced silently with
    /// U+FFFD and sent); the exit status tells that input was rejected.
    func testInvalidUTF8IsReportedNotReplaced() throws {
        var bytes = Data("tick\n".utf8)
        bytes.append(contentsOf: [0x74, 0xFF, 0x6B, 0x0A])
        bytes.append(contentsOf: Data("tick\n".utf8))
        let result = try CLI.run(["trace", "scxml/examples/traffic-light.scxml"], bytes: bytes)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines, [line(nil, ["red", "dontWalk"]), line("tick", ["green", "dontWalk"]),
                                      line("tick", ["yellow", "dontWalk"])])
        XCTAssertEqual(result.stderr, "trace: line 2 is not valid UTF-8; skipped\n")
    }

    func testInvalidDocumentExitsWithTwoAndAMessage() throws {
        let result = try CLI.run(["trace", "scxml/fixtures/invalid.scxml"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.hasPrefix("scxml/fixtures/invalid.scxml:4:5: error: transition target 'nowhere' does not name a state"), result.stderr)
    }
}
