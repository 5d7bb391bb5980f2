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

    func testInvalidDocumentExitsWithTwoAndAMessage() throws {
        let result = try CLI.run(["trace", "scxml/fixtures/invalid.scxml"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.hasPrefix("scxml/fixtures/invalid.scxml:4:5: error: transition target 'nowhere' does not name a state"), result.stderr)
    }
}
