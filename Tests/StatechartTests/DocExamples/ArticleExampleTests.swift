import Foundation
import Observation
import Statechart
import XCTest

/// The examples of the InvokingWork, MachineContext and ObservingMachines articles, as written
/// there (with printing turned into logging), so they keep compiling and doing what they say.
final class ArticleExampleTests: XCTestCase {
    enum Weather: Hashable, Sendable { case idle, loading, shown, offline }
    enum WeatherEvent: ChartEvent {
        case refresh, loaded(Int), failed(String)

        enum Name { case refresh, loaded, failed }
        var name: Name {
            switch self {
            case .refresh: .refresh
            case .loaded: .loaded
            case .failed: .failed
            }
        }
    }

    enum Door: Hashable, Sendable, Codable { case closed, open }
    enum DoorEvent: ChartEvent, Codable {
        case knock
        typealias Context = Tally
    }
    struct Tally: Sendable, Codable, Equatable { var attempts = 0 }

    func testInvokingWork() async throws {
        let clock = TestClock()
        let weather = try StateMachine<Weather, WeatherEvent>(clock: clock) {
            StateNode(.idle) { On(.refresh, to: .loading) }
            StateNode(.loading) {
                Invoke({ invocation in
                    try await invocation.sleep(for: .seconds(1))     // stands for the network call
                    return 21
                }, onDone: { .loaded($0) }, onError: { .failed("\($0)") })
                On(.loaded, to: .shown)
                On(.failed, to: .offline)
                On(.refresh, to: .loading)      // leaving and re-entering cancels the call and starts another
            }
            StateNode(.shown) { On(.refresh, to: .loading) }
            StateNode(.offline) { On(.refresh, to: .loading) }
        }
        try weather.start()
        try weather.send(.refresh)
        await eventually("the call waits on the clock") { clock.pendingWakeUps == 1 }
        clock.advance(by: .milliseconds(500))
        try weather.send(.refresh)                     // restarts: the new call needs a full second
        // The clock still holds the cancelled call's wake-up (wake-ups are never withdrawn):
        // when it fires at 1 s it finds nothing to resume.
        await eventually("the new call waits on the clock") { clock.pendingWakeUps == 2 }
        clock.advance(by: .milliseconds(500))
        await settle()
        XCTAssertEqual(weather.configuration, [.loading])
        clock.advance(by: .milliseconds(500))
        await eventually("the result arrived") { weather.isActive(.shown) }
    }

    func doorChart() throws -> TypedChart<Door, DoorEvent> {
        try TypedChart<Door, DoorEvent>(name: "door") {
            StateNode(.closed) {
                On(.knock, to: .closed, guard: { ctx in ctx.context.attempts < 2 }) { ctx in
                    ctx.context.attempts += 1
                }
                On(.knock, to: .open)           // the third knock opens the door
            }
            StateNode(.open)
        }
    }

    func testMachineContext() throws {
        let chart = try doorChart()
        let door = StateMachine(chart, context: Tally())
        try door.start()
        try door.send(.knock)
        XCTAssertEqual(door.context, Tally(attempts: 1))

        let data = try JSONEncoder().encode(try door.snapshotWithContext())
        let saved = try JSONDecoder().decode(StateMachine<Door, DoorEvent>.ContextSnapshot<Tally>.self, from: data)
        let restored = try StateMachine(chart, restoring: saved)
        XCTAssertEqual(restored.context, Tally(attempts: 1))
        try restored.send(.knock)
        XCTAssertEqual(restored.configuration, [.closed])
        try restored.send(.knock)
        XCTAssertEqual(restored.configuration, [.open])
        XCTAssertEqual(restored.context, Tally(attempts: 2))
    }

    func testObservingMachines() throws {
        let log = Log()
        let door = StateMachine(try doorChart(), context: Tally())
        try door.start()
        let view = ObservableStateMachine(door)
        withObservationTracking {
            _ = view.configuration
        } onChange: {
            log.add("the door's state changed")       // once, at the next change
        }
        try door.send(.knock)
        XCTAssertEqual(log.take(), ["the door's state changed"])
        try door.send(.knock)
        XCTAssertEqual(log.take(), [])                 // tracking ends at the first change
    }
}
