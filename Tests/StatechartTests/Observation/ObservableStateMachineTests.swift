import Observation
@testable import Statechart
import XCTest

/// The Observable view of a machine: readers are told of the changes to what they read, and
/// a machine nobody observes carries no observer.
final class ObservableStateMachineTests: XCTestCase {
    func machine() throws -> StateMachine<S, TallyEvent> {
        try StateMachine<S, TallyEvent>(clock: TestClock(), context: Tally()) {
            StateNode(.idle) {
                On(.go, to: .running)
                On(.tick) { ctx in ctx.context.attempts += 1 }
            }
            StateNode(.running) { On(.stop, to: .done) }
            Final(.done)
        }
    }

    func testReadersOfTheConfigurationAreToldOfAChange() throws {
        let machine = try machine()
        try machine.start()
        let view = ObservableStateMachine(machine)
        let changes = Log()
        let seen = withObservationTracking { view.configuration } onChange: { changes.add("configuration") }
        XCTAssertEqual(seen, [.idle])
        try machine.send(.tick)                       // the context changes, the configuration does not
        XCTAssertEqual(changes.take(), [])
        try machine.send(.go)
        XCTAssertEqual(changes.take(), ["configuration"])   // onChange fires once per tracking
        XCTAssertEqual(view.configuration, [.running])
        XCTAssertTrue(view.isActive(.running))
        _ = withObservationTracking { view.isFinished } onChange: { changes.add("finished") }
        try machine.send(.stop)
        XCTAssertEqual(changes.take(), ["finished"])
        XCTAssertTrue(view.isFinished)
    }

    func testReadersOfTheContextAreToldOfUpdatesOnly() throws {
        let machine = try machine()
        try machine.start()
        let view = ObservableStateMachine(machine)
        let changes = Log()
        let seen = withObservationTracking { view.context } onChange: { changes.add("context") }
        XCTAssertEqual(seen, Tally(attempts: 0))
        try machine.send(.tick)
        XCTAssertEqual(changes.take(), ["context"])
        XCTAssertEqual(view.context, Tally(attempts: 1))
        _ = withObservationTracking { view.context } onChange: { changes.add("context again") }
        try machine.send(.go)                         // the configuration changes, the context does not
        XCTAssertEqual(changes.take(), [])
    }

    func testAMachineNobodyObservesCarriesNoObserver() throws {
        let machine = try machine()
        try machine.start()
        XCTAssertFalse(machine.machine.runtime.wantsStateChanges)
        var view: ObservableStateMachine<S, TallyEvent>? = ObservableStateMachine(machine)
        XCTAssertTrue(machine.machine.runtime.wantsStateChanges)
        XCTAssertEqual(view?.configuration, [.idle])
        view = nil
        XCTAssertFalse(machine.machine.runtime.wantsStateChanges)
        try machine.send(.tick)                       // the released view's context observer is gone too
        XCTAssertEqual(machine.context, Tally(attempts: 1))
    }
}
