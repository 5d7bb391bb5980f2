import Foundation
import Statechart
import XCTest

/// Machines whose actions talk to each other: a one-way synchronous send is fine; a cycle of
/// machines sending to each other from different threads uses a zero delay, which never waits
/// for the other machine, so it cannot deadlock.
final class CrossMachineTests: XCTestCase {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    final class Peer: @unchecked Sendable {
        var machine: StateMachine<S, E>?
    }

    func testAnActionMaySendSynchronouslyToAnotherMachine() throws {
        let log = Log()
        let b = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.idle) { On(.go, to: .running) { _ in log.add("b runs") } }
            StateNode(.running)
        }
        let a = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.idle) {
                On(.go, to: .running) { _ in
                    log.add("a sends: \(String(describing: try? b.send(.go)))")
                }
            }
            StateNode(.running)
        }
        try a.start()
        try b.start()
        try a.send(.go)
        XCTAssertEqual(log.take(), ["b runs", "a sends: Optional(Statechart.SendOutcome.handled)"])
    }

    func testMachinesPingingEachOtherFromManyThreadsDoNotDeadlock() throws {
        let pings = Counter(), pongs = Counter()
        let peerOfA = Peer(), peerOfB = Peer()
        func machine(_ counter: Counter, _ peer: Peer, answer: E) throws -> StateMachine<S, E> {
            try StateMachine<S, E> {
                StateNode(.idle) {
                    On(.x) { _ in
                        counter.add()
                        peer.machine?.send(answer, after: .zero)        // never waits for the peer
                    }
                    On(.y) { _ in counter.add() }
                }
            }
        }
        let a = try machine(pings, peerOfA, answer: .y)
        let b = try machine(pongs, peerOfB, answer: .y)
        peerOfA.machine = b
        peerOfB.machine = a
        try a.start()
        try b.start()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            for _ in 0..<250 { _ = try? (i.isMultiple(of: 2) ? a : b).send(.x) }
        }
        let deadline = Date().addingTimeInterval(10)
        while pings.count + pongs.count < 2_000 && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(pings.count + pongs.count, 2_000)   // 1,000 x, each answered by one y
    }
}
