import Statechart
import XCTest

/// A typed chart's callbacks are stored as untyped ones whose contexts carry the chart's maps
/// (`ActionContext.argument`, put there by the dispatch path from the callback's box). A typed
/// chart's public `definition` can be compiled again and run by an untyped `Machine`, and its
/// callbacks read through the definitions' public properties and put in another definition: in
/// both cases a typed guard or action must still see its typed event and states, never a
/// context without maps.
final class TypedCallbacksReusedTests: XCTestCase {
    /// idle --go [guard]/take--> running --stop--> idle; idle's entry reports what it sees.
    private func chart(_ log: Log) throws -> TypedChart<S, E> {
        let name: @Sendable (E?) -> String = { $0.map { "\($0)" } ?? "none" }
        return try TypedChart<S, E>(name: "reused", initial: .idle) {
            StateNode(.idle) {
                OnEntry { ctx in log.add("enter idle, running \(ctx.isActive(.running)), event \(name(ctx.event))") }
                On(.go, to: .running, guard: { ctx in
                    log.add("guard \(name(ctx.event)), idle \(ctx.isActive(.idle))")
                    return true
                }) { ctx in
                    log.add("take \(name(ctx.event)), running \(ctx.isActive(.running))")
                }
            }
            StateNode(.running) {
                On(.stop, to: .idle)
            }
        }
    }

    /// The run every test expects, whichever machine runs the callbacks.
    private func assertRun(_ machine: Machine, _ log: Log, file: StaticString = #filePath, line: UInt = #line) throws {
        try machine.start()
        XCTAssertEqual(log.take(), ["enter idle, running false, event none"], file: file, line: line)
        XCTAssertEqual(try machine.send("go"), .handled, file: file, line: line)
        // The transition's action runs between exiting idle and entering running: neither active.
        XCTAssertEqual(log.take(), ["guard go, idle true", "take go, running false"], file: file, line: line)
        XCTAssertEqual(try machine.send("stop"), .handled, file: file, line: line)
        XCTAssertEqual(log.take(), ["enter idle, running false, event stop"], file: file, line: line)
        XCTAssertEqual(machine.configuration, ["idle"], file: file, line: line)
    }

    func testTheTypedMachineRunsItsCallbacks() throws {
        let log = Log()
        let machine = StateMachine(try chart(log), clock: TestClock())
        try machine.start()
        XCTAssertEqual(log.take(), ["enter idle, running false, event none"])
        XCTAssertEqual(try machine.send(.go), .handled)
        XCTAssertEqual(log.take(), ["guard go, idle true", "take go, running false"])
    }

    func testTheDefinitionCompiledAgainRunsItsTypedCallbacks() throws {
        let log = Log()
        let typed = try chart(log)
        try assertRun(Machine(try CompiledChart(typed.definition)), log)
    }

    func testCallbacksReadThroughThePropertiesRunWithTheirTypedContext() throws {
        let log = Log()
        let typed = try chart(log)
        let idle = try XCTUnwrap(typed.definition.states.first { $0.id == "idle" })
        let go = try XCTUnwrap(idle.transitions.first { $0.events == ["go"] })
        XCTAssertEqual(idle.onEntry.count, 1)
        XCTAssertNotNil(go.guardCondition)
        XCTAssertEqual(go.actions.count, 1)
        // The same structure (so the same state indices), built from the closures read back.
        let copy = ChartDefinition(name: "copy", states: [
            StateDefinition("idle", transitions: [
                TransitionDefinition(on: ["go"], guard: go.guardCondition, to: ["running"], actions: go.actions),
            ], onEntry: idle.onEntry),
            StateDefinition("running", transitions: [TransitionDefinition(on: "stop", to: "idle")]),
        ])
        try assertRun(Machine(try CompiledChart(copy)), log)
    }

    /// A state's entry actions are one list, run by one call from the core: here two typed
    /// entries (their contexts carry the chart's maps) around the untyped action an `After`
    /// adds (its context carries none). Each must get its own box's argument: the typed ones
    /// see their typed states and event, the timer is scheduled, and the order is kept.
    func testAnEntryListMixingTypedAndUntypedActionsGivesEachItsOwnArgument() throws {
        let log = Log()
        let clock = TestClock()
        let name: @Sendable (E?) -> String = { $0.map { "\($0)" } ?? "none" }
        let chart = try TypedChart<S, E>(name: "mixed", initial: .running) {
            StateNode(.idle) {
                OnEntry { ctx in log.add("first: idle \(ctx.isActive(.idle)), event \(name(ctx.event))") }
                After(.seconds(5), to: .running)
                OnEntry { ctx in log.add("second: running \(ctx.isActive(.running)), event \(name(ctx.event))") }
            }
            StateNode(.running) {
                On(.stop, to: .idle)
            }
        }
        let machine = StateMachine(chart, clock: clock)
        try machine.start()
        XCTAssertEqual(try machine.send(.stop), .handled)
        XCTAssertEqual(log.take(), ["first: idle true, event stop", "second: running false, event stop"])
        XCTAssertEqual(machine.configuration, [.idle])
        clock.advance(by: .seconds(5))      // the untyped entry action scheduled the timer
        XCTAssertEqual(machine.configuration, [.running])
    }
}
