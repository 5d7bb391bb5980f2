import Statechart
import XCTest

/// An ActionContext is valid only inside its callback; what outlives it is `ctx.machine`, which
/// another thread may send to once the action has returned (the pattern the Invocation
/// documentation shows).
final class ActionContextLifetimeTests: XCTestCase {
    final class Kept: @unchecked Sendable {
        var machine: Machine?
        var insideCallback: [Bool] = []
    }

    func testMachineKeptFromAContextReceivesSendsFromAnotherThread() throws {
        let kept = Kept()
        let chart = try CompiledChart(ChartDefinition(states: [
            StateDefinition("waiting", transitions: [TransitionDefinition(on: "tick", to: "ticked")],
                            onEntry: [{ ctx in
                                kept.machine = ctx.machine
                                kept.insideCallback.append(ctx.isActive("waiting"))
                            }]),
            StateDefinition("ticked"),
        ]))
        let machine = Machine(chart)
        try machine.start()
        XCTAssertTrue(kept.machine === machine)
        XCTAssertEqual(kept.insideCallback, [true])
        let sent = expectation(description: "sent from another thread")
        Thread {
            XCTAssertEqual(try? kept.machine?.send("tick"), .handled)
            sent.fulfill()
        }.start()
        wait(for: [sent], timeout: 10)
        XCTAssertEqual(machine.configuration, ["ticked"])
    }
}
