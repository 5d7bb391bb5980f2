import Statechart
import Synchronization
import XCTest

/// Typed invoke: started when the macrostep that entered the state completes, cancelled on
/// exit, its result and errors delivered as the chart's own events, nothing after exit.
final class TypedInvokeTests: XCTestCase {
    func testWorkStartsAfterTheEnteringMacrostepAndItsResultIsADoneEvent() async throws {
        let log = Log()
        let machine = try StateMachine<Fetch, FetchEvent>(clock: TestClock()) {
            StateNode(.idle) { On(.load, to: .loading) }
            StateNode(.loading) {
                OnEntry { ctx in log.add("enter loading"); ctx.raise(.ping) }
                On(.ping) { _ in log.add("ping") }
                Invoke({ _ in log.add("work started"); return 7 },
                       onDone: { .loaded($0) }, onError: { .failed("\($0)") })
                On(.loaded, to: .loaded) { ctx in
                    if case .loaded(let value)? = ctx.event { log.add("loaded \(value)") }
                }
                OnExit { _ in log.add("exit loading") }
            }
            StateNode(.loaded) { OnEntry { _ in log.add("enter loaded") } }
        }
        try machine.start()
        XCTAssertEqual(try machine.send(.load), .handled)
        await eventually("the result arrived") { machine.isActive(.loaded) }
        // The raised ping belongs to the entering macrostep: it runs before the work starts.
        // Exit actions, then the transition's, then entry actions (SCXML microstep order).
        XCTAssertEqual(log.take(), ["enter loading", "ping", "work started", "exit loading", "loaded 7", "enter loaded"])
    }

    func testAStateEnteredAndLeftInOneMacrostepNeverStartsItsWork() async throws {
        let log = Log()
        let machine = try StateMachine<Fetch, FetchEvent>(clock: TestClock()) {
            StateNode(.idle) { On(.load, to: .probe) }
            StateNode(.probe) {
                Invoke({ _ in log.add("probe started"); return 1 }, onDone: { .loaded($0) }, onError: { _ in .cancel })
                Always(to: .done)
            }
            StateNode(.done)
        }
        try machine.start()
        try machine.send(.load)
        await settle()
        XCTAssertEqual(log.take(), [])
        XCTAssertEqual(machine.configuration, [.done])
    }

    func testExitingCancelsTheTaskAndTheCancellationIsNotDelivered() async throws {
        let log = Log(), cancellations = Log()
        let clock = TestClock()
        let machine = try StateMachine<Fetch, FetchEvent>(clock: clock) {
            StateNode(.idle) { On(.load, to: .loading) }
            StateNode(.loading) {
                Invoke({ invocation in
                    do {
                        try await invocation.sleep(for: .seconds(60))
                    } catch {
                        cancellations.add("cancelled: \(error is CancellationError)")
                        throw error
                    }
                    return 1
                }, onDone: { .loaded($0) }, onError: { .failed("\($0)") })
                On(.cancel, to: .idle) { _ in log.add("take cancel") }
                On(.failed, to: .failed) { _ in log.add("take failed") }
                OnExit { _ in log.add("exit loading") }
            }
            StateNode(.failed)
        }
        try machine.start()
        try machine.send(.load)
        await eventually("the work is waiting on the clock") { clock.pendingWakeUps == 1 }
        XCTAssertEqual(try machine.send(.cancel), .handled)
        await eventually("the task saw its cancellation") { cancellations.count == 1 }
        await settle()
        XCTAssertEqual(cancellations.take(), ["cancelled: true"])
        // The CancellationError the work threw was not turned into .failed: the state was gone.
        XCTAssertEqual(log.take(), ["exit loading", "take cancel"])
        XCTAssertEqual(machine.configuration, [.idle])
        clock.advance(by: .seconds(60))
        await settle()
        XCTAssertEqual(machine.configuration, [.idle])
    }

    func testAResultArrivingAfterExitIsDroppedAndTheNewEntrysResultIsDelivered() async throws {
        let log = Log()
        let latches = [Latch(), Latch()]
        let runs = Mutex(0)
        let machine = try StateMachine<Fetch, FetchEvent>(clock: TestClock()) {
            StateNode(.idle) { On(.load, to: .loading) }
            StateNode(.loading) {
                Invoke({ _ in
                    let run = runs.withLock { $0 += 1; return $0 }
                    await latches[run - 1].wait()      // finishes even when cancelled
                    log.add("run \(run) returns")
                    return run * 10
                }, onDone: { .loaded($0) }, onError: { .failed("\($0)") })
                On(.cancel, to: .idle)
                On(.loaded, to: .loaded) { ctx in
                    if case .loaded(let value)? = ctx.event { log.add("loaded \(value)") }
                }
            }
            StateNode(.loaded)
        }
        try machine.start()
        try machine.send(.load)
        await eventually("run 1 started") { runs.withLock { $0 } == 1 }
        try machine.send(.cancel)
        try machine.send(.load)
        await eventually("run 2 started") { runs.withLock { $0 } == 2 }
        latches[0].open()
        await eventually("run 1 returned") { log.count == 1 }
        await settle()
        XCTAssertEqual(log.take(), ["run 1 returns"])
        XCTAssertEqual(machine.configuration, [.loading])
        latches[1].open()
        await eventually("run 2's result arrived") { machine.isActive(.loaded) }
        XCTAssertEqual(log.take(), ["run 2 returns", "loaded 20"])
    }

    func testAThrownErrorBecomesTheErrorEvent() async throws {
        let log = Log()
        let machine = try StateMachine<Fetch, FetchEvent>(clock: TestClock()) {
            StateNode(.loading) {
                Invoke({ _ -> Int in throw Offline.noNetwork }, onDone: { .loaded($0) }, onError: { .failed("\($0)") })
                On(.loaded, to: .loaded)
                On(.failed, to: .failed) { ctx in
                    if case .failed(let reason)? = ctx.event { log.add("failed: \(reason)") }
                }
            }
            StateNode(.loaded)
            StateNode(.failed)
        }
        try machine.start()
        await eventually("the error arrived") { machine.isActive(.failed) }
        XCTAssertEqual(log.take(), ["failed: no network"])
    }

    func testWorkWaitingOnTheTestClockFinishesWhenTheClockAdvances() async throws {
        let clock = TestClock()
        let machine = try StateMachine<Fetch, FetchEvent>(clock: clock) {
            StateNode(.loading) {
                Invoke({ invocation in
                    try await invocation.sleep(for: .seconds(2))
                    return 5
                }, onDone: { .loaded($0) }, onError: { .failed("\($0)") })
                On(.loaded, to: .loaded)
            }
            StateNode(.loaded)
        }
        try machine.start()
        await eventually("the work is waiting on the clock") { clock.pendingWakeUps == 1 }
        clock.advance(by: .seconds(1))
        await settle()
        XCTAssertEqual(machine.configuration, [.loading])
        clock.advance(by: .seconds(1))
        await eventually("the result arrived") { machine.isActive(.loaded) }
    }

    func testEachElementOfASequenceIsAnEventThenTheEndEvent() async throws {
        let log = Log()
        let machine = try StateMachine<Fetch, FetchEvent>(clock: TestClock()) {
            StateNode(.watching) {
                Invoke(each: { _ in
                    AsyncStream<Int> { continuation in
                        for reading in [3, 1, 2] { continuation.yield(reading) }
                        continuation.finish()
                    }
                }, onElement: { .reading($0) }, onDone: .ended, onError: { .failed("\($0)") })
                On(.reading) { ctx in
                    if case .reading(let value)? = ctx.event { log.add("reading \(value)") }
                }
                On(.ended, to: .done) { _ in log.add("ended") }
            }
            StateNode(.done)
        }
        try machine.start()
        await eventually("the sequence ended") { machine.isActive(.done) }
        XCTAssertEqual(log.take(), ["reading 3", "reading 1", "reading 2", "ended"])
    }

    func testAChildMachinesCompletionIsTheParentsDoneEvent() async throws {
        enum Step: Hashable, Sendable { case working, finished }
        let log = Log()
        let children = Mutex<[StateMachine<Step, String>]>([])
        let parent = try StateMachine<Fetch, FetchEvent>(clock: TestClock()) {
            StateNode(.loading) {
                Invoke(child: { _ in
                    let child = try StateMachine<Step, String>(name: "child") {
                        StateNode(.working) { On("finish", to: .finished) }
                        Final(.finished)
                    }
                    children.withLock { $0.append(child) }
                    return child
                }, onDone: { child in .childDone(child.isActive(Step.finished) ? "child finished" : "child elsewhere") }, onError: { .failed("\($0)") })
                On(.childDone, to: .done) { ctx in
                    if case .childDone(let report)? = ctx.event { log.add(report) }
                }
            }
            StateNode(.done)
        }
        try parent.start()
        await eventually("the child started") { children.withLock { $0.first?.isStarted } == true }
        let child = children.withLock { $0[0] }
        XCTAssertEqual(child.configuration, [.working])
        XCTAssertEqual(parent.configuration, [.loading])
        try child.send("finish")
        await eventually("the parent heard the child finish") { parent.isActive(.done) }
        XCTAssertEqual(log.take(), ["child finished"])
    }

    func testExitingStopsTheChildMachine() async throws {
        enum Step: Hashable, Sendable { case working, finished }
        let children = Mutex<[StateMachine<Step, String>]>([])
        let parent = try StateMachine<Fetch, FetchEvent>(clock: TestClock()) {
            StateNode(.loading) {
                Invoke(child: { _ in
                    let child = try StateMachine<Step, String>(name: "child") {
                        StateNode(.working) { On("finish", to: .finished) }
                        Final(.finished)
                    }
                    children.withLock { $0.append(child) }
                    return child
                }, onDone: { _ in .childDone("done") }, onError: { .failed("\($0)") })
                On(.cancel, to: .idle)
                On(.childDone, to: .done)
            }
            StateNode(.idle)
            StateNode(.done)
        }
        try parent.start()
        await eventually("the child started") { children.withLock { $0.first?.isStarted } == true }
        try parent.send(.cancel)
        let child = children.withLock { $0[0] }
        await eventually("the child was stopped") { child.isFinished }
        await settle()
        XCTAssertEqual(child.configuration, [.working])
        XCTAssertEqual(parent.configuration, [.idle])
    }

    func testInvokeAtTheTopLevelIsAnErrorWithItsLocation() {
        XCTAssertThrowsError(try TypedChart<Fetch, FetchEvent>(name: "top") {
            StateNode(.idle)
            Invoke({ _ in 1 }, onDone: { .loaded($0) }, onError: { _ in .cancel })
        }) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("TypedInvokeTests.swift:"), text)
            XCTAssertTrue(text.contains("Invoke must be inside a state"), text)
        }
    }
}
