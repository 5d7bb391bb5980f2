import Foundation
import Statechart
import XCTest

/// A context used outside its callback stops the program with a message, and never touches the
/// machine it stood for, even one that has been deallocated (the context holds no reference to
/// it: see `callback_frame.h`). Each misuse runs in a child process, this test binary run
/// again on one test with `STATECHART_MISUSE` naming the misuse; the parent checks that the
/// child died of a signal and printed the message.
final class ActionContextMisuseTests: XCTestCase {
    final class Kept: @unchecked Sendable {
        var context: ActionContext?
        var typed: StateMachine<Light, Switch>.Context?
        var uses = 0
    }

    enum Light: Hashable, Sendable { case off, on }
    enum Switch: String, ChartEvent { case flip }

    static let message = "ActionContext used after its action or guard returned, or from another thread"

    // MARK: - The misuses (run in the child)

    /// A context kept by an entry action, used once the send has returned.
    static func useAfterReturn() throws {
        let kept = Kept()
        let machine = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("idle", onEntry: [{ ctx in kept.context = ctx }]),
        ])))
        try machine.start()
        _ = kept.context!.isActive("idle")      // traps
    }

    /// A context kept past its machine's deallocation: the check reads no freed memory.
    static func useAfterMachineIsGone() throws {
        let kept = Kept()
        do {
            let machine = Machine(try CompiledChart(ChartDefinition(states: [
                StateDefinition("idle", onEntry: [{ ctx in kept.context = ctx }]),
            ])))
            try machine.start()
        }
        // The machine, its runtime and its chart are freed; allocate over them.
        let filler = (0..<64).map { _ in [UInt8](repeating: 0xAB, count: 512) }
        _ = filler.count
        kept.context!.raise("again")            // traps
    }

    /// A typed context kept past its machine's deallocation (its maps are gone too).
    static func typedUseAfterMachineIsGone() throws {
        let kept = Kept()
        do {
            let machine = try StateMachine<Light, Switch>(initial: .off) {
                StateNode(.off) {
                    OnEntry { ctx in kept.typed = ctx }
                    On(.flip, to: .on)
                }
                StateNode(.on) { On(.flip, to: .off) }
            }
            try machine.start()
        }
        _ = kept.typed!.isActive(.off)          // traps
    }

    /// A context used by another thread while its callback still runs.
    static func useFromAnotherThread() throws {
        let kept = Kept()
        let machine = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("idle", onEntry: [{ ctx in
                kept.context = ctx
                let other = Thread { _ = kept.context!.isActive("idle") }     // traps
                other.start()
                Thread.sleep(forTimeInterval: 10)
            }]),
        ])))
        try machine.start()
    }

    /// A context kept by one callback and used in a later callback of the same machine.
    static func useInALaterCallback() throws {
        let kept = Kept()
        let machine = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("a", transitions: [TransitionDefinition(on: "go", to: "b")],
                            onEntry: [{ ctx in kept.context = ctx }]),
            StateDefinition("b", onEntry: [{ _ in _ = kept.context!.isActive("b") }]),     // traps
        ])))
        try machine.start()
        try machine.send("go")
    }

    /// A context kept by a guard of a confined machine, used once the send has returned (the
    /// guard's frame closed when the guard returned).
    static func useAfterConfinedSend() throws {
        let kept = Kept()
        let machine = try LocalStateMachine<Light, Switch>(initial: .off) {
            StateNode(.off) { On(.flip, to: .on, guard: { ctx in kept.typed = ctx; return true }) }
            StateNode(.on) { On(.flip, to: .off) }
        }
        try machine.start()
        try machine.send(.flip)
        _ = kept.typed!.isActive(.on)           // traps
    }

    /// A context kept by a transition's action of a typed machine, used once the send returned.
    static func useAfterTypedSend() throws {
        let kept = Kept()
        let machine = try StateMachine<Light, Switch>(initial: .off) {
            StateNode(.off) { On(.flip, to: .on) { ctx in kept.typed = ctx } }
            StateNode(.on) { On(.flip, to: .off) }
        }
        try machine.start()
        try machine.send(.flip)
        _ = kept.typed!.isActive(.on)           // traps
    }

    /// A context kept by an exit action that `stop()` ran, used once it has returned.
    static func useAfterStop() throws {
        let kept = Kept()
        let machine = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("idle", onExit: [{ ctx in kept.context = ctx }]),
        ])))
        try machine.start()
        machine.stop()
        _ = kept.context!.isActive("idle")      // traps
    }

    /// A context kept by an action, used by a state observer later in the same macrostep.
    static func useInAStateObserver() throws {
        let kept = Kept()
        let machine = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("a", transitions: [TransitionDefinition(on: "go", to: "b", actions: [{ ctx in kept.context = ctx }])]),
            StateDefinition("b"),
        ])))
        try machine.start()
        machine.onStateChange { state, entered in
            if state == "b" && entered { _ = kept.context!.isActive("b") }     // traps
        }
        try machine.send("go")
    }

    static let misuses: [String: @Sendable () throws -> Void] = [
        "useAfterConfinedSend": useAfterConfinedSend,
        "useAfterTypedSend": useAfterTypedSend,
        "useAfterStop": useAfterStop,
        "useInAStateObserver": useInAStateObserver,
        "useAfterReturn": useAfterReturn,
        "useAfterMachineIsGone": useAfterMachineIsGone,
        "typedUseAfterMachineIsGone": typedUseAfterMachineIsGone,
        "useFromAnotherThread": useFromAnotherThread,
        "useInALaterCallback": useInALaterCallback,
    ]

    // MARK: - The tests (the parent)

    func testContextUsedAfterItsCallbackReturnedStopsTheProgram() throws {
        try expectStop("useAfterReturn")
    }

    func testContextKeptPastItsMachinesDeallocationStopsTheProgram() throws {
        try expectStop("useAfterMachineIsGone")
    }

    func testTypedContextKeptPastItsMachinesDeallocationStopsTheProgram() throws {
        try expectStop("typedUseAfterMachineIsGone")
    }

    func testContextUsedFromAnotherThreadStopsTheProgram() throws {
        try expectStop("useFromAnotherThread")
    }

    func testContextUsedInALaterCallbackStopsTheProgram() throws {
        try expectStop("useInALaterCallback")
    }

    func testContextUsedAfterAConfinedSendStopsTheProgram() throws {
        try expectStop("useAfterConfinedSend")
    }

    func testContextUsedAfterATypedSendStopsTheProgram() throws {
        try expectStop("useAfterTypedSend")
    }

    func testContextUsedAfterStopStopsTheProgram() throws {
        try expectStop("useAfterStop")
    }

    func testContextUsedInAStateObserverLaterInTheMacrostepStopsTheProgram() throws {
        try expectStop("useInAStateObserver")
    }

    /// An action asks its own machine `canHandle`, which runs a guard inside it: the action's
    /// context is live again afterwards, and the guard's was live in the guard.
    func testContextStaysLiveAcrossCanHandleFromItsOwnCallback() throws {
        final class Holder: @unchecked Sendable { weak var machine: Machine? }
        let log = Kept(), holder = Holder()
        let machine = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("idle", transitions: [
                TransitionDefinition(on: "go", guard: { ctx in
                    if ctx.isActive("idle") { log.uses += 10 }
                    return true
                }, to: "busy"),
            ], onEntry: [{ ctx in
                if holder.machine!.canHandle("go") { log.uses += 100 }
                if ctx.isActive("idle") { log.uses += 1 }
            }]),
            StateDefinition("busy"),
        ])))
        holder.machine = machine
        try machine.start()
        XCTAssertEqual(log.uses, 111)
        XCTAssertEqual(machine.configuration, ["idle"])
    }

    /// Machine A's action sends to machine B, whose callbacks run inside A's: A's context is
    /// live again once B's send returns (the frames nest), and B's contexts were live in B's.
    func testContextStaysLiveAcrossASendToAnotherMachine() throws {
        let log = Kept()
        let other = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("waiting", transitions: [TransitionDefinition(on: "ping", to: "pinged")]),
            StateDefinition("pinged", onEntry: [{ ctx in if ctx.isActive("pinged") { log.uses += 10 } }]),
        ])))
        try other.start()
        let machine = Machine(try CompiledChart(ChartDefinition(states: [
            StateDefinition("idle", onEntry: [{ ctx in
                _ = try? other.send("ping")
                if ctx.isActive("idle") { log.uses += 1 }
            }]),
        ])))
        try machine.start()
        XCTAssertEqual(log.uses, 11)
        XCTAssertEqual(other.configuration, ["pinged"])
    }

    /// Runs this test binary again on the calling test (`test`, its name) with the misuse
    /// `name`; the child must die of a signal after printing the context's message.
    private func expectStop(_ name: String, test function: String = #function) throws {
        let test = function.hasSuffix("()") ? String(function.dropLast(2)) : function
        if let misuse = ProcessInfo.processInfo.environment["STATECHART_MISUSE"] {
            guard misuse == name else { return }         // another test's child: nothing to do
            try Self.misuses[name]!()
            XCTFail("the misuse '\(name)' did not stop the program")
            exit(0)                                      // the parent sees a normal exit: a failure
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["StatechartTests.ActionContextMisuseTests/\(test)"]
        var environment = ProcessInfo.processInfo.environment
        environment["STATECHART_MISUSE"] = name
        child.environment = environment
        let errors = Pipe()
        child.standardError = errors
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal, "\(name): the child exited normally:\n\(output)")
        XCTAssertTrue(output.contains(Self.message), "\(name): the child did not print the message:\n\(output)")
    }
}
