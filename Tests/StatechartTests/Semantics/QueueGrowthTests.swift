import Statechart
import XCTest

/// Issue 12, defect 3: a machine never drops a raised event below
/// ``MachineOptions/maximumInternalQueueLength``: the core's internal queue starts small and the
/// runtime moves it into twice the slots whenever it fills (sc_host.queue_full).
final class QueueGrowthTests: XCTestCase {
    /// A chart whose `go` raises `count` events e(0) ... e(count - 1) in one action; each e runs
    /// a targetless transition that records its payload.
    private func raisingMachine(count: Int, options: MachineOptions) throws -> (Machine, Log) {
        let seen = Log()
        let chart = try CompiledChart(ChartDefinition(states: [
            StateDefinition("s", transitions: [
                TransitionDefinition(on: ["go"], actions: [{ ctx in
                    for i in 0..<count { ctx.raise(Event("e", payload: i)) }
                }]),
                TransitionDefinition(on: ["e"], actions: [{ ctx in seen.add("\(ctx.event?.payload as? Int ?? -1)") }]),
            ]),
        ]))
        let machine = Machine(chart, options: options)
        try machine.start()
        return (machine, seen)
    }

    func testTenThousandEventsRaisedInOneMacrostepAreAllProcessedInOrder() throws {
        // The core's default slots to start with (8): the queue grows to 16,384 on the way.
        let (machine, seen) = try raisingMachine(count: 10_000, options: MachineOptions())
        XCTAssertEqual(try machine.send("go"), .handled)
        XCTAssertEqual(seen.take(), (0..<10_000).map { "\($0)" })
        XCTAssertEqual(machine.configuration, ["s"])
    }

    func testTheQueueStopsGrowingAtItsLimitWithAClearError() throws {
        var options = MachineOptions(internalQueueCapacity: 4)
        options.maximumInternalQueueLength = 100
        let (machine, seen) = try raisingMachine(count: 101, options: options)
        XCTAssertThrowsError(try machine.send("go")) { error in
            XCTAssertEqual(error as? MachineError, .queueFull(event: "e", queue: "internal"))
            XCTAssertEqual("\(error)", "the internal event queue is full (MachineOptions.maximumInternalQueueLength); event 'e' was not queued")
        }
        // The 100 that fit were processed, in order; the machine goes on.
        XCTAssertEqual(seen.take(), (0..<100).map { "\($0)" })
        XCTAssertEqual(try machine.send("nothing"), .unhandled)
    }
}
