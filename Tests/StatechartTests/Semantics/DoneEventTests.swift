import Statechart
import XCTest

/// done.state.<id>: raised after the final child's entry, for compound parents and for
/// parallel grandparents once every region is final; a top-level final state halts the machine.
final class DoneEventTests: XCTestCase {
    let c = Charts()

    func testFinalChildRaisesDoneOfItsParentWithinTheSameMacrostep() throws {
        let m = try c.start([
            c.state("work", [c.state("step1", on: [c.on("finish", to: ["done"], "finish")]), c.final("done")],
                    on: [c.on("done.state.work", to: ["next"], "workdone")]),
            c.state("next"),
        ])
        _ = c.log.take()
        try m.send("finish")
        XCTAssertEqual(c.log.take(), ["exit step1", "take finish", "enter done", "exit done", "exit work",
                                      "take workdone", "enter next"])
        XCTAssertEqual(m.configuration, ["next"])
    }

    func testParallelIsDoneWhenEveryRegionIsFinal() throws {
        let m = try c.start([
            c.parallel("p", [
                c.state("r1", [c.state("r1a", on: [c.on("f1", to: ["r1done"], "f1")]), c.final("r1done")]),
                c.state("r2", [c.state("r2a", on: [c.on("f2", to: ["r2done"], "f2")]), c.final("r2done")]),
            ], on: [c.on("done.state.r1", "r1event"), c.on("done.state.p", to: ["after"], "pdone")]),
            c.state("after"),
        ])
        _ = c.log.take()
        try m.send("f1")
        XCTAssertEqual(c.log.take(), ["exit r1a", "take f1", "enter r1done", "take r1event"])
        try m.send("f2")
        XCTAssertEqual(c.log.take(), ["exit r2a", "take f2", "enter r2done", "exit r2done", "exit r2",
                                      "exit r1done", "exit r1", "exit p", "take pdone", "enter after"])
    }

    func testTopLevelFinalHaltsAfterRunningExitActions() throws {
        let m = try c.start([c.state("s", on: [c.on("end", to: ["fin"], "end")]), c.final("fin")])
        _ = c.log.take()
        XCTAssertFalse(m.isFinished)
        try m.send("end")
        XCTAssertEqual(c.log.take(), ["exit s", "take end", "enter fin", "exit fin"])
        XCTAssertTrue(m.isFinished)
        XCTAssertEqual(m.configuration, ["fin"])
        XCTAssertEqual(try m.send("end"), .halted)
        XCTAssertEqual(c.log.take(), [])
    }

    func testDoneDataIsTheDoneEventsPayload() throws {
        let received = Log()
        let m = try c.start([
            StateDefinition("job", children: [
                StateDefinition("run", transitions: [TransitionDefinition(on: "ok", to: "end")]),
                StateDefinition("end", kind: .final, doneData: { _ in 42 }),
            ], transitions: [TransitionDefinition(on: ["done.state.job"], to: ["idle"], actions: [{ ctx in
                received.add("\(ctx.event?.name ?? "-") \(ctx.event?.payload(as: Int.self) ?? -1)")
            }])]),
            StateDefinition("idle"),
        ])
        try m.send("ok")
        XCTAssertEqual(received.take(), ["done.state.job 42"])
        XCTAssertEqual(m.configuration, ["idle"])
    }
}
