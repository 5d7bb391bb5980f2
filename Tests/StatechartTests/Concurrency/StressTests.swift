import Foundation
import Statechart
import XCTest

/// Eight threads sending 100,000 events each into one `StateMachine`, while a ninth advances the
/// clock that fires the delayed events the machine's actions scheduled: every event's effect is
/// counted exactly, each thread's events are processed in the order it sent them, and an
/// observer sees exactly the sequence the actions ran in. The same test runs under
/// ThreadSanitizer in scripts/suites/85-tsan.sh with fewer events (STATECHART_STRESS_EVENTS).
final class StressTests: XCTestCase {
    enum Lane: Hashable, Sendable { case run, left, right }

    enum Work: ChartEvent {
        /// Counted by the parent state's targetless transition.
        case put(thread: Int, seq: Int)
        /// Moves between `left` and `right`.
        case flip(thread: Int, seq: Int)
        /// Scheduled by a `put` action one virtual second ahead; fired by the clock thread.
        case later(thread: Int, seq: Int)

        enum Name: Hashable, Sendable { case put, flip, later }
        var name: Name {
            switch self {
            case .put: .put
            case .flip: .flip
            case .later: .later
            }
        }
    }

    /// Events in the order the machine processed them. Appended to only by actions (or only by
    /// observers), which run with the machine held, one macrostep at a time, so there is no lock
    /// of its own: were two macrosteps ever to overlap, ThreadSanitizer would report the race,
    /// and without it the counts below would come out wrong.
    final class Sequence: @unchecked Sendable {
        var events: [Work] = []
        init(capacity: Int) { events.reserveCapacity(capacity) }
    }

    static let threads = 8
    static var eventsPerThread: Int {
        ProcessInfo.processInfo.environment["STATECHART_STRESS_EVENTS"].flatMap(Int.init) ?? 100_000
    }
    /// Every 10th event of a thread is a flip; every 1000th put schedules a delayed event.
    static func isFlip(_ seq: Int) -> Bool { seq % 10 == 5 }
    static func schedulesLater(_ seq: Int) -> Bool { seq % 1_000 == 999 }

    func testEightThreadsLoseNoEventKeepEachThreadsOrderAndObserversSeeTheProcessingOrder() throws {
        let perThread = Self.eventsPerThread
        let flipsPerThread = (0..<perThread).filter(Self.isFlip).count
        let latersPerThread = (0..<perThread).filter { !Self.isFlip($0) && Self.schedulesLater($0) }.count
        let expectedTotal = Self.threads * (perThread + latersPerThread)

        let processed = Sequence(capacity: expectedTotal)
        let observed = Sequence(capacity: expectedTotal)
        let clock = TestClock()
        let machine = try StateMachine<Lane, Work>(clock: clock) {
            StateNode(.run) {
                On(.put) { ctx in
                    guard let event = ctx.event, case .put(let thread, let seq) = event else { return }
                    processed.events.append(event)
                    if Self.schedulesLater(seq) { ctx.send(.later(thread: thread, seq: seq), after: .seconds(1)) }
                }
                On(.later) { ctx in if let event = ctx.event { processed.events.append(event) } }
                StateNode(.left) {
                    On(.flip, to: .right) { ctx in if let event = ctx.event { processed.events.append(event) } }
                }
                StateNode(.right) {
                    On(.flip, to: .left) { ctx in if let event = ctx.event { processed.events.append(event) } }
                }
            }
        }
        machine.onTransition { transition in
            if let event = transition.event { observed.events.append(event) }
        }
        try machine.start()
        XCTAssertEqual(machine.configuration, [.left])

        // Senders start together; the clock thread advances virtual time until they are done.
        let start = DispatchSemaphore(value: 0)
        let senders = DispatchGroup()
        let unhandled = ManagedCounter()
        let sendersDone = ManagedFlag()
        for thread in 0..<Self.threads {
            senders.enter()
            Thread {
                start.wait()
                for seq in 0..<perThread {
                    let event: Work = Self.isFlip(seq) ? .flip(thread: thread, seq: seq) : .put(thread: thread, seq: seq)
                    if (try? machine.send(event)) != .handled { unhandled.increment() }
                }
                senders.leave()
            }.start()
        }
        let ticker = DispatchGroup()
        ticker.enter()
        Thread {
            while !sendersDone.value {
                clock.advance(by: .milliseconds(100))
                usleep(200)
            }
            ticker.leave()
        }.start()
        for _ in 0..<Self.threads { start.signal() }
        senders.wait()
        sendersDone.set()
        ticker.wait()
        clock.advance(by: .seconds(2))             // every delayed event still pending falls due

        XCTAssertEqual(unhandled.value, 0, "sends that were not handled")
        XCTAssertEqual(machine.pendingSendIDs, [])
        XCTAssertEqual(processed.events.count, expectedTotal)
        XCTAssertTrue(processed.events == observed.events, "the observer saw another sequence than the actions ran")

        // Each thread's sends in its send order, each exactly once; its delayed events likewise.
        var nextSeq = [Int](repeating: 0, count: Self.threads)
        var nextLater = [Int](repeating: 0, count: Self.threads)
        var flips = 0, laters = 0
        for event in processed.events {
            switch event {
            case .put(let thread, let seq), .flip(let thread, let seq):
                if case .flip = event { flips += 1 }
                guard seq == nextSeq[thread] else {
                    return XCTFail("thread \(thread): event \(seq) processed when \(nextSeq[thread]) was due")
                }
                nextSeq[thread] += 1
            case .later(let thread, let seq):
                laters += 1
                let expected = nextLater[thread] * 1_000 + 999
                guard seq == expected else {
                    return XCTFail("thread \(thread): delayed event of \(seq) fired when that of \(expected) was due")
                }
                guard seq < nextSeq[thread] else {
                    return XCTFail("thread \(thread): delayed event of \(seq) fired before its put was processed")
                }
                nextLater[thread] += 1
            }
        }
        XCTAssertEqual(nextSeq, [Int](repeating: perThread, count: Self.threads))
        XCTAssertEqual(flips, Self.threads * flipsPerThread)
        XCTAssertEqual(laters, Self.threads * latersPerThread)
        // 8 x 10,000 flips (an even number) from `left`.
        XCTAssertEqual(machine.configuration, flips.isMultiple(of: 2) ? [.left] : [.right])
    }
}

/// A counter and a flag shared by the test's threads (outside any machine, so they lock).
final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    func set() { lock.withLock { isSet = true } }
    var value: Bool { lock.withLock { isSet } }
}
