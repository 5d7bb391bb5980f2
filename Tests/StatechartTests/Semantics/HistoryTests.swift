import Statechart
import XCTest

/// Shallow and deep history: recorded on exit, restored on entry, default transition (with its
/// content, run after the parent's entry) when nothing is recorded.
final class HistoryTests: XCTestCase {
    let c = Charts()

    func chart(_ type: HistoryType) -> [StateDefinition] {
        [
            c.state("home", on: [c.on("toh", to: ["h"], "toh")]),
            c.state("media", [
                StateDefinition(history: "h", type: type, defaultTargets: ["menu"], actions: [c.logging("take hdefault")]),
                c.state("menu", on: [c.on("play", to: ["playing"], "play")]),
                c.state("playing", [
                    c.state("track1", on: [c.on("next", to: ["track2"], "next")]),
                    c.state("track2"),
                ]),
            ], on: [c.on("back", to: ["home"], "back")]),
        ]
    }

    func testEmptyHistoryTakesTheDefaultTransitionAndRunsItsContentAfterTheParentsEntry() throws {
        let m = try c.start(chart(.shallow))
        _ = c.log.take()
        try m.send("toh")
        XCTAssertEqual(c.log.take(), ["exit home", "take toh", "enter media", "take hdefault", "enter menu"])
        XCTAssertEqual(m.configuration, ["menu"])
    }

    func testShallowHistoryRestoresTheChildAndEntersItsDefaults() throws {
        let m = try c.start(chart(.shallow))
        try m.send("toh")
        try m.send("play")
        try m.send("next")
        XCTAssertEqual(m.configuration, ["track2"])
        try m.send("back")
        _ = c.log.take()
        try m.send("toh")
        XCTAssertEqual(c.log.take(), ["exit home", "take toh", "enter media", "enter playing", "enter track1"])
        XCTAssertEqual(m.configuration, ["track1"])
    }

    func testDeepHistoryRestoresTheAtomicDescendants() throws {
        let m = try c.start(chart(.deep))
        try m.send("toh")
        try m.send("play")
        try m.send("next")
        try m.send("back")
        _ = c.log.take()
        try m.send("toh")
        XCTAssertEqual(c.log.take(), ["exit home", "take toh", "enter media", "enter playing", "enter track2"])
        XCTAssertEqual(m.configuration, ["track2"])
    }

    func testHistoryRecordsTheLatestExit() throws {
        let m = try c.start(chart(.deep))
        try m.send("toh")       // default: menu
        try m.send("back")      // records menu
        try m.send("toh")
        XCTAssertEqual(m.configuration, ["menu"])
        try m.send("play")
        try m.send("back")      // records track1
        try m.send("toh")
        XCTAssertEqual(m.configuration, ["track1"])
    }

    func testDeepHistoryOfAParallelStateRestoresEveryRegion() throws {
        let m = try c.start([
            c.state("off", on: [c.on("on", to: ["ph"], "on")]),
            c.parallel("p", [
                StateDefinition(history: "ph", type: .deep, defaultTargets: ["a1", "b1"]),
                c.state("a", [c.state("a1", on: [c.on("x", to: ["a2"], "x")]), c.state("a2")]),
                c.state("b", [c.state("b1", on: [c.on("y", to: ["b2"], "y")]), c.state("b2")]),
            ], on: [c.on("off", to: ["off"], "off")]),
        ])
        try m.send("on")
        XCTAssertEqual(m.configuration, ["a1", "b1"])
        try m.send("y")
        try m.send("off")
        _ = c.log.take()
        try m.send("on")
        XCTAssertEqual(c.log.take(), ["exit off", "take on", "enter p", "enter a", "enter a1", "enter b", "enter b2"])
        XCTAssertEqual(m.configuration, ["a1", "b2"])
    }
}
