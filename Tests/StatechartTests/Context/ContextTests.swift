import Foundation
@testable import Statechart
import XCTest

/// The context the events declare (`typealias Context = Tally`).
struct Tally: Sendable, Codable, Equatable, Hashable {
    var steps: [String] = []
    var attempts = 0
}

/// Payload-free events of charts whose context is a ``Tally``.
enum TallyEvent: ChartEvent, Codable {
    case start, go, tick, stop, fetch, fetched(Int)

    enum Name: Hashable, Sendable { case start, go, tick, stop, fetch, fetched }
    var name: Name {
        switch self {
        case .start: .start
        case .go: .go
        case .tick: .tick
        case .stop: .stop
        case .fetch: .fetch
        case .fetched: .fetched
        }
    }

    typealias Context = Tally
}

/// The machine's typed context: read by guards, written by actions in the order they run,
/// captured and restored by snapshots, told to observers once per write, read by invocations.
final class ContextTests: XCTestCase {
    func testWritesHappenInTheOrderActionsRun() throws {
        let machine = try StateMachine<S, TallyEvent>(clock: TestClock(), context: Tally()) {
            StateNode(.a, initial: .a1) {
                OnExit { ctx in ctx.context.steps.append("exit a") }
                StateNode(.a1) {
                    OnExit { ctx in ctx.context.steps.append("exit a1") }
                    On(.go, to: .b) { ctx in ctx.context.steps.append("take go") }
                }
            }
            StateNode(.b, initial: .b1) {
                OnEntry { ctx in ctx.context.steps.append("enter b") }
                OnEntry { ctx in
                    // A later action sees the earlier one's write within the same microstep.
                    let seen = ctx.context.steps.count
                    ctx.context.steps.append("second entry saw \(seen)")
                }
                StateNode(.b1) { OnEntry { ctx in ctx.context.steps.append("enter b1") } }
            }
        }
        try machine.start()
        XCTAssertEqual(machine.context, Tally())
        try machine.send(.go)
        XCTAssertEqual(machine.context.steps,
                       ["exit a1", "exit a", "take go", "enter b", "second entry saw 4", "enter b1"])
    }

    func testGuardsReadTheContextActionsWrote() throws {
        let machine = try StateMachine<S, TallyEvent>(clock: TestClock(), context: Tally(attempts: 0)) {
            StateNode(.running) {
                On(.tick, to: .running, guard: { ctx in ctx.context.attempts < 2 }) { ctx in
                    ctx.context.attempts += 1
                }
                On(.tick, to: .done)
            }
            StateNode(.done)
        }
        try machine.start()
        try machine.send(.tick)
        try machine.send(.tick)
        XCTAssertEqual(machine.configuration, [.running])
        XCTAssertEqual(machine.context.attempts, 2)
        try machine.send(.tick)          // the guard now fails: the fallback transition runs
        XCTAssertEqual(machine.configuration, [.done])
        XCTAssertEqual(machine.context.attempts, 2)
    }

    func testAssigningTheWholeContextReplacesIt() throws {
        let machine = try StateMachine<S, TallyEvent>(clock: TestClock(), context: Tally(steps: ["old"], attempts: 5)) {
            StateNode(.idle) { On(.stop) { ctx in ctx.context = Tally(steps: ["new"]) } }
        }
        try machine.start()
        try machine.send(.stop)
        XCTAssertEqual(machine.context, Tally(steps: ["new"], attempts: 0))
    }

    func testSnapshotRoundTripCarriesTheContext() throws {
        let chart = try TypedChart<S, TallyEvent>(name: "counter") {
            StateNode(.idle) { On(.start, to: .running) }
            StateNode(.running) {
                On(.tick) { ctx in ctx.context.attempts += 1 }
                On(.stop, to: .done, guard: { ctx in ctx.context.attempts >= 3 })
            }
            StateNode(.done)
        }
        let original = StateMachine(chart, clock: TestClock(), context: Tally())
        try original.start()
        try original.send(.start)
        try original.send(.tick)
        try original.send(.tick)
        let json = try JSONEncoder().encode(try original.snapshotWithContext())
        let decoded = try JSONDecoder().decode(StateMachine<S, TallyEvent>.ContextSnapshot<Tally>.self, from: json)
        XCTAssertEqual(decoded.context, Tally(steps: [], attempts: 2))
        XCTAssertEqual(decoded.machine.activeStates, [.running])
        let restored = try StateMachine(chart, restoring: decoded, clock: TestClock())
        XCTAssertEqual(restored.context, Tally(steps: [], attempts: 2))
        for machine in [original, restored] {
            XCTAssertEqual(try machine.send(.stop), .unhandled)      // 2 ticks are not enough
            try machine.send(.tick)
            XCTAssertEqual(try machine.send(.stop), .handled)
            XCTAssertEqual(machine.configuration, [.done])
            XCTAssertEqual(machine.context.attempts, 3)
        }
        // Restoring into a running machine replaces its context too.
        try original.restore(decoded)
        XCTAssertEqual(original.context.attempts, 2)
        XCTAssertEqual(original.configuration, [.running])
    }

    func testEachWriteIsObservedOnceAndReadsAreNot() throws {
        let machine = try StateMachine<S, TallyEvent>(clock: TestClock(), context: Tally()) {
            StateNode(.idle) {
                On(.tick, guard: { ctx in ctx.context.attempts < 10 }) { ctx in
                    ctx.context.attempts += 1
                    ctx.context.steps.append("tick \(ctx.context.attempts)")
                }
                On(.go, to: .running)
            }
            StateNode(.running)
        }
        try machine.start()
        let seen = Log()
        machine.machine.access {
            machine.contextStorage.observer = { [unowned machine] in
                // Told with the machine held, after the write: it reads the new value.
                seen.add("\(machine.contextHeld.attempts) \(machine.contextHeld.steps)")
            }
        }
        try machine.send(.tick)
        XCTAssertEqual(seen.take(), ["1 []", "1 [\"tick 1\"]"])
        try machine.send(.go)                        // a guard-free transition without writes
        XCTAssertEqual(seen.take(), [])
    }

    func testAnInvocationReadsTheContextAsItsStateWasEntered() async throws {
        let machine = try StateMachine<S, TallyEvent>(clock: TestClock(), context: Tally(attempts: 40)) {
            StateNode(.idle) { On(.fetch, to: .running) { ctx in ctx.context.attempts += 1 } }
            StateNode(.running) {
                OnEntry { ctx in ctx.context.steps.append("enter running") }
                Invoke({ invocation in invocation.context.attempts + invocation.context.steps.count },
                       onDone: { .fetched($0) }, onError: { _ in .stop })
                On(.fetched, to: .done) { ctx in
                    if case .fetched(let value)? = ctx.event { ctx.context.steps.append("fetched \(value)") }
                }
            }
            StateNode(.done)
        }
        try machine.start()
        try machine.send(.fetch)
        await eventually("the invocation's result arrived") { machine.isActive(.done) }
        XCTAssertEqual(machine.context, Tally(steps: ["enter running", "fetched 42"], attempts: 41))
    }

    func testAChartWithoutContextKeepsNoStorage() throws {
        let machine = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.idle) { On(.tick) { ctx in _ = ctx.context } }
        }
        try machine.start()
        try machine.send(.tick)
        XCTAssertEqual(machine.context, NoContext())
        XCTAssertNil(machine.machine.runtime.contextAddress)
    }
}
