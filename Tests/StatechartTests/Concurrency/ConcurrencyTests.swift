import Foundation
import Statechart
import XCTest

/// One machine hammered from many tasks and threads: every event is processed exactly once,
/// sends are serialized (one macrostep at a time), events sent from actions and observers
/// are queued without deadlock, and every observer sees the same consistent sequence.
final class ConcurrencyTests: XCTestCase {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        private var inside = 0
        private(set) var overlapped = false

        func add(_ n: Int = 1) { lock.withLock { value += n } }
        var count: Int { lock.withLock { value } }

        /// Marks the start and end of an action, to detect two macrosteps running at once.
        func enter() { lock.withLock { inside += 1; if inside > 1 { overlapped = true } } }
        func leave() { lock.withLock { inside -= 1 } }
    }

    /// A toggle whose transitions count themselves and check that no two actions overlap.
    func toggle(_ counter: Counter) throws -> StateMachine<S, E> {
        try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) {
                On(.toggle, to: .b) { _ in counter.enter(); counter.add(); counter.leave() }
            }
            StateNode(.b) {
                On(.toggle, to: .a) { _ in counter.enter(); counter.add(); counter.leave() }
            }
        }
    }

    func testManyTasksLoseNoEventAndEveryObserverSeesTheSameAlternatingSequence() async throws {
        let counter = Counter()
        let m = try toggle(counter)
        let observers = (0..<3).map { _ in Log() }
        for log in observers {
            m.onTransition { log.add("\($0.source)->\($0.targets[0])") }
        }
        try m.start()
        let tasks = 16, sendsPerTask = 1_000
        let outcomes = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var handled = 0
                    for _ in 0..<sendsPerTask where try m.send(.toggle) == .handled { handled += 1 }
                    return handled
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(outcomes, tasks * sendsPerTask)
        XCTAssertEqual(counter.count, tasks * sendsPerTask)
        XCTAssertFalse(counter.overlapped, "two macrosteps ran at the same time")
        XCTAssertEqual(m.configuration, [.a])       // an even number of toggles
        let sequences = observers.map { $0.take() }
        XCTAssertEqual(sequences[0].count, tasks * sendsPerTask)
        XCTAssertEqual(sequences[0], sequences[1])
        XCTAssertEqual(sequences[1], sequences[2])
        for (i, step) in sequences[0].enumerated() {
            XCTAssertEqual(step, i % 2 == 0 ? "a->b" : "b->a", "step \(i)")
            if step != (i % 2 == 0 ? "a->b" : "b->a") { break }
        }
    }

    func testEventsSentFromActionsAndObserversUnderContentionAreAllProcessed() throws {
        let counter = Counter()
        let echoes = Counter()
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.idle) {
                On(.go) { ctx in
                    counter.add()
                    ctx.send(.tick)           // external: after this macrostep
                    ctx.raise(.next)          // internal: within it
                }
                On(.next) { _ in counter.add() }
                On(.tick) { _ in counter.add() }
            }
        }
        m.onTransition { transition in
            if transition.event == .tick {
                echoes.add()
                _ = try? m.send(.reset)       // queued; unhandled, reported below
            }
        }
        let unhandled = Counter()
        m.onUnhandled { _ in unhandled.add() }
        try m.start()
        let threads = 8, sendsPerThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<sendsPerThread { XCTAssertEqual(try? m.send(.go), .handled) }
        }
        let total = threads * sendsPerThread
        XCTAssertEqual(counter.count, 3 * total)
        XCTAssertEqual(echoes.count, total)
        XCTAssertEqual(unhandled.count, total)
    }

    func testPayloadsAreNeverMixedUpBetweenConcurrentSenders() async throws {
        final class Sum: @unchecked Sendable {
            let lock = NSLock()
            var total = 0.0
            var seen = Set<Double>()
        }
        let sum = Sum()
        let m = try StateMachine<S, Media>(clock: TestClock()) {
            StateNode(.playing) {
                On(.seek) { ctx in
                    guard case .seek(let position)? = ctx.event else { return }
                    sum.lock.withLock { sum.total += position; sum.seen.insert(position) }
                }
            }
        }
        try m.start()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<500 { _ = try? m.send(.seek(to: Double(task * 500 + i))) }
                }
            }
        }
        XCTAssertEqual(sum.seen.count, 4_000)
        XCTAssertEqual(sum.total, Double((0..<4_000).reduce(0, +)))
    }

    func testReadersNeverSeeAConfigurationInTheMiddleOfAMacrostep() throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            Parallel(.p) {
                StateNode(.a) {
                    StateNode(.a1) { On(.toggle, to: .a2) }
                    StateNode(.a2) { On(.toggle, to: .a1) }
                }
                StateNode(.b) {
                    StateNode(.b1) { On(.toggle, to: .b2) }
                    StateNode(.b2) { On(.toggle, to: .b1) }
                }
            }
        }
        try m.start()
        let bad = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for _ in 0..<2_000 {
                if worker.isMultiple(of: 2) {
                    _ = try? m.send(.toggle)
                } else {
                    let configuration = m.configuration
                    if configuration != [.a1, .b1] && configuration != [.a2, .b2] { bad.add() }
                }
            }
        }
        XCTAssertEqual(bad.count, 0)
    }

    func testDelayedEventsFromTheRealClockInterleaveSafelyWithDirectSends() throws {
        let counter = Counter()
        let m = try StateMachine<S, E> {
            StateNode(.a) {
                On(.toggle, to: .b) { _ in counter.enter(); counter.add(); counter.leave() }
                On(.tick) { _ in counter.enter(); counter.add(); counter.leave() }
            }
            StateNode(.b) {
                On(.toggle, to: .a) { _ in counter.enter(); counter.add(); counter.leave() }
                On(.tick) { _ in counter.enter(); counter.add(); counter.leave() }
            }
        }
        try m.start()
        for i in 0..<200 { m.send(.tick, after: .milliseconds(i % 20)) }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<250 { _ = try? m.send(.toggle) }
        }
        let deadline = Date().addingTimeInterval(10)
        while counter.count < 1_200 && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(counter.count, 1_200)
        XCTAssertFalse(counter.overlapped)
        XCTAssertEqual(m.pendingSendIDs, [])
    }

    func testTheMachineIsSendableAcrossTasksAndActors() async throws {
        actor Driver {
            let machine: StateMachine<S, E>
            init(_ machine: StateMachine<S, E>) { self.machine = machine }
            func push() throws -> SendOutcome { try machine.send(.toggle) }
        }
        let m = try toggle(Counter())
        try m.start()
        let driver = Driver(m)
        let outcome = try await driver.push()
        XCTAssertEqual(outcome, .handled)
        let configuration = await Task.detached { m.configuration }.value
        XCTAssertEqual(configuration, [.b])
    }
}
