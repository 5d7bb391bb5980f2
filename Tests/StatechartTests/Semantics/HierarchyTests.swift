import Statechart
import XCTest

/// Exit innermost-first, entry outermost-first, both bounded by the transition domain (LCCA).
final class HierarchyTests: XCTestCase {
    let c = Charts()

    func chart() -> [StateDefinition] {
        [
            c.state("s", [
                c.state("s1", [
                    c.state("s11", [c.state("s111", on: [
                        c.on("go", to: ["s21"], "go"),
                        c.on("out", to: ["t"], "out"),
                    ])]),
                    c.state("s12"),
                ], on: [c.on("up", to: ["s12"], "up")]),
                c.state("s2", [c.state("s21", on: [
                    c.on("again", to: ["s21"], "again"),
                    c.on("top", to: ["s2"], "top"),
                ])]),
            ]),
            c.state("t"),
        ]
    }

    func testStartEntersDefaultDescendantsOutermostFirst() throws {
        let m = try c.start(chart())
        XCTAssertEqual(c.log.take(), ["enter s", "enter s1", "enter s11", "enter s111"])
        XCTAssertEqual(m.configuration, ["s111"])
        XCTAssertEqual(m.activeStates, ["s", "s1", "s11", "s111"])
    }

    func testTransitionBetweenBranchesExitsUpToTheLCCA() throws {
        let m = try c.start(chart())
        _ = c.log.take()
        XCTAssertEqual(try m.send("go"), .handled)
        XCTAssertEqual(c.log.take(), ["exit s111", "exit s11", "exit s1", "take go", "enter s2", "enter s21"])
        XCTAssertEqual(m.activeStates, ["s", "s2", "s21"])
    }

    func testTransitionOfAnAncestorIsSelectedAndExitsTheAncestor() throws {
        let m = try c.start(chart())
        _ = c.log.take()
        try m.send("up")     // defined on s1, external, target s12: domain is s
        XCTAssertEqual(c.log.take(), ["exit s111", "exit s11", "exit s1", "take up", "enter s1", "enter s12"])
        XCTAssertEqual(m.configuration, ["s12"])
    }

    func testSelfTransitionExitsAndReentersTheState() throws {
        let m = try c.start(chart())
        try m.send("go")
        _ = c.log.take()
        try m.send("again")
        XCTAssertEqual(c.log.take(), ["exit s21", "take again", "enter s21"])
        XCTAssertEqual(m.configuration, ["s21"])
    }

    func testTransitionToOwnAncestorReentersItWithDefaults() throws {
        let m = try c.start(chart())
        try m.send("go")
        _ = c.log.take()
        try m.send("top")
        XCTAssertEqual(c.log.take(), ["exit s21", "exit s2", "take top", "enter s2", "enter s21"])
    }

    func testTransitionToTopLevelStateExitsEverything() throws {
        let m = try c.start(chart())
        _ = c.log.take()
        try m.send("out")
        XCTAssertEqual(c.log.take(), ["exit s111", "exit s11", "exit s1", "exit s", "take out", "enter t"])
        XCTAssertEqual(m.activeStates, ["t"])
    }

    func testUnmatchedEventIsUnhandledAndChangesNothing() throws {
        let m = try c.start(chart())
        _ = c.log.take()
        let seen = Log()
        m.onUnhandled { seen.add($0.name) }
        XCTAssertEqual(try m.send("nothing"), .unhandled)
        XCTAssertEqual(c.log.take(), [])
        XCTAssertEqual(seen.take(), ["nothing"])
        XCTAssertEqual(m.configuration, ["s111"])
    }

    func testDeepNestingTwentyLevels() throws {
        var inner = c.state("leaf20", on: [c.on("hop", to: ["other"], "hop")])
        for level in stride(from: 19, through: 1, by: -1) { inner = c.state("n\(level)", [inner]) }
        let m = try c.start([inner, c.state("other")])
        XCTAssertEqual(c.log.take(), (1...19).map { "enter n\($0)" } + ["enter leaf20"])
        try m.send("hop")
        XCTAssertEqual(c.log.take(), ["exit leaf20"] + (1...19).reversed().map { "exit n\($0)" } + ["take hop", "enter other"])
    }
}
