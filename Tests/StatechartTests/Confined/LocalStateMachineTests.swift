import Statechart
import Synchronization
import XCTest

/// LocalStateMachine: the typed machine confined to one thread, with StateMachine's semantics.
final class LocalStateMachineTests: XCTestCase {
    enum Job: Hashable, Sendable { case idle, busy, done, timedOut }
    enum Signal: String, ChartEvent { case start, finish, tick, reset }

    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    func jobChart(_ log: Log) throws -> TypedChart<Job, Signal> {
        try TypedChart(name: "job") {
            StateNode(.idle) {
                OnExit { _ in log.append("exit idle") }
                On(.start, to: .busy) { ctx in
                    log.append("start")
                    ctx.send(.finish)       // queued: runs after this macrostep
                }
            }
            StateNode(.busy) {
                OnEntry { _ in log.append("enter busy") }
                On(.finish, to: .done) { _ in log.append("finish") }
            }
            StateNode(.done) {
                On(.reset, to: .idle)
            }
        }
    }

    func testAnEventSentFromAnActionRunsAfterTheMacrostep() throws {
        let log = Log()
        let machine = LocalStateMachine(try jobChart(log))
        try machine.start()
        XCTAssertEqual(try machine.send(.start), .handled)
        // exit idle, the transition's action, entry of busy; then the queued finish.
        XCTAssertEqual(log.all, ["exit idle", "start", "enter busy", "finish"])
        XCTAssertEqual(machine.configuration, [.done])
        XCTAssertEqual(try machine.send(.finish), .unhandled)
        XCTAssertEqual(try machine.send(.reset), .handled)
        XCTAssertTrue(machine.isActive(.idle))
    }

    func testSameErrorsAsStateMachine() throws {
        let machine = LocalStateMachine(try jobChart(Log()))
        XCTAssertThrowsError(try machine.send(.start)) { XCTAssertEqual($0 as? MachineError, .notStarted) }
        try machine.start()
        XCTAssertThrowsError(try machine.start()) { XCTAssertEqual($0 as? MachineError, .alreadyStarted) }
        let loop = LocalStateMachine(try TypedChart<Job, Signal>(name: "loop") {
            StateNode(.idle) { On(.start, to: .busy) }
            StateNode(.busy) { Always(to: .busy) }
        }, options: MachineOptions(maximumStepsPerMacrostep: 10))
        try loop.start()
        XCTAssertThrowsError(try loop.send(.start)) {
            XCTAssertEqual($0 as? MachineError, .runaway(steps: 10, configuration: ["busy"]))
        }
    }

    func testObserversSeeWhatTheyWouldSeeOnAStateMachine() throws {
        let log = Log()
        let machine = LocalStateMachine(try jobChart(Log()))
        machine.onStateChange { state, entered in log.append("\(entered ? "+" : "-")\(state)") }
        machine.onUnhandled { event in log.append("unhandled \(event)") }
        try machine.start()
        XCTAssertEqual(try machine.send(.tick), .unhandled)
        XCTAssertEqual(try machine.send(.start), .handled)
        XCTAssertEqual(log.all, ["+idle", "unhandled tick", "-idle", "+busy", "-busy", "+done"])
    }

    /// An action that keeps `ctx.machine` hands the machine out: another thread may then send
    /// to it, and the confined machine's own sends take the lock from then on.
    func testAHandedOutMachineTakesSendsFromAnotherThread() throws {
        final class Kept: @unchecked Sendable { var machine: StateMachine<Job, Signal>? }
        let kept = Kept()
        let machine = LocalStateMachine(try TypedChart<Job, Signal>(name: "handed") {
            StateNode(.idle) {
                OnEntry { ctx in kept.machine = ctx.machine }
                On(.tick, to: .busy)
            }
            StateNode(.busy) { On(.reset, to: .idle) }
        })
        try machine.start()
        XCTAssertNotNil(kept.machine)
        let sent = expectation(description: "sent from another thread")
        Thread {
            XCTAssertEqual(try? kept.machine?.send(.tick), .handled)
            sent.fulfill()
        }.start()
        wait(for: [sent], timeout: 10)
        XCTAssertEqual(machine.configuration, [.busy])
        XCTAssertEqual(try machine.send(.reset), .handled)
        XCTAssertEqual(machine.configuration, [.idle])
    }

    /// The machine handed out inside a macrostep that holds it with plain stores: a thread that
    /// sends meanwhile finds it held and waits, and the end of that macrostep (the real release,
    /// since the machine was handed out) wakes it.
    func testAThreadThatWaitsForAMachineHandedOutMidMacrostepIsWoken() throws {
        final class Kept: @unchecked Sendable {
            var machine: StateMachine<Job, Signal>?
            let sent = Mutex<SendOutcome?>(nil)
        }
        let kept = Kept()
        let finished = expectation(description: "the other thread's send returned")
        let machine = LocalStateMachine(try TypedChart<Job, Signal>(name: "handed") {
            StateNode(.idle) { On(.start, to: .busy) }
            StateNode(.busy) {
                OnEntry { ctx in
                    guard kept.machine == nil else { return }
                    kept.machine = ctx.machine
                    Thread {
                        let outcome = try? kept.machine?.send(.finish)
                        kept.sent.withLock { $0 = outcome }
                        finished.fulfill()
                    }.start()
                    Thread.sleep(forTimeInterval: 0.1)      // the thread now waits for the machine
                }
                On(.finish, to: .done)
            }
            StateNode(.done)
        })
        try machine.start()
        XCTAssertEqual(try machine.send(.start), .handled)
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(kept.sent.withLock { $0 }, .handled)
        XCTAssertEqual(machine.configuration, [.done])
    }

    /// A callback that hands the machine out during a send that held nothing (the direct
    /// confined send) and sends to it at once: the hand-out took the gate for this thread, so
    /// the send is queued (not a deadlock, not a macrostep inside another) and runs after the
    /// current one; the machine is free again afterwards.
    func testAMachineHandedOutDuringADirectSendQueuesItsOwnSends() throws {
        final class Kept: @unchecked Sendable { var outcomes: [SendOutcome?] = [] }
        let kept = Kept()
        let machine = LocalStateMachine(try TypedChart<Job, Signal>(name: "handed") {
            StateNode(.idle) { On(.start, to: .busy) }
            StateNode(.busy) {
                OnEntry { ctx in kept.outcomes.append(try? ctx.machine?.send(.finish)) }
                On(.finish, to: .done)
            }
            StateNode(.done) { On(.reset, to: .idle) }
        })
        try machine.start()
        XCTAssertEqual(try machine.send(.start), .handled)
        XCTAssertEqual(kept.outcomes, [.queued])
        XCTAssertEqual(machine.configuration, [.done])
        XCTAssertEqual(try machine.send(.reset), .handled)      // the gate was released
        XCTAssertEqual(machine.configuration, [.idle])
    }

    func testDelayedTransitionsFireOnTheMachinesClock() throws {
        let clock = TestClock()
        let machine = LocalStateMachine(try TypedChart<Job, Signal>(name: "timer") {
            StateNode(.busy) { After(.seconds(2), to: .timedOut) }
            StateNode(.timedOut)
        }, clock: clock)
        try machine.start()
        clock.advance(by: .seconds(1))
        XCTAssertEqual(machine.configuration, [.busy])
        clock.advance(by: .seconds(1))
        XCTAssertEqual(machine.configuration, [.timedOut])
    }
}
