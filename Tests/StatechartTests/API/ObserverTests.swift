import Statechart
import XCTest

/// Observers see every entry, exit, transition and unhandled event, in order, synchronously;
/// they may send to the machine (queued) and add or remove observers while they run.
final class ObserverTests: XCTestCase {
    func machine() throws -> StateMachine<S, E> {
        try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.idle) { On(.start, to: .running) }
            StateNode(.running) {
                StateNode(.a) { On(.next, to: .b) }
                StateNode(.b)
                On(.stop, to: .idle)
            }
        }
    }

    func testObserversSeeTheInitialEntryAndEveryStepInOrder() throws {
        let seen = Log()
        let m = try machine()
        m.onEnter { seen.add("enter \($0)") }
        m.onExit { seen.add("exit \($0)") }
        m.onTransition { t in
            let targets = t.targets.map { "\($0)" }.joined(separator: ",")
            seen.add("take \(t.source)->\(targets) on \(t.event.map { "\($0)" } ?? "-")")
        }
        m.onUnhandled { seen.add("unhandled \($0)") }
        m.onEnter(.b) { seen.add("b!") }
        m.onExit(.running) { seen.add("left running") }
        try m.start()
        try m.send(.start)
        try m.send(.next)
        try m.send(.next)
        try m.send(.stop)
        XCTAssertEqual(seen.take(), [
            "enter idle",
            "exit idle", "take idle->running on start", "enter running", "enter a",
            "exit a", "take a->b on next", "enter b", "b!",
            "unhandled next",
            "exit b", "exit running", "left running", "take running->idle on stop", "enter idle",
        ])
    }

    func testRemovedObserversAreNotCalledAndObserversMayRemoveThemselves() throws {
        let seen = Log()
        let m = try machine()
        try m.start()
        final class TokenBox: @unchecked Sendable { var token: ObserverToken? }
        let box = TokenBox()
        box.token = m.onTransition { _ in
            seen.add("once")
            if let token = box.token { m.removeObserver(token) }
        }
        let other = m.onEnter { seen.add("enter \($0)") }
        try m.send(.start)
        m.removeObserver(other)
        try m.send(.stop)
        XCTAssertEqual(seen.take(), ["once", "enter running", "enter a"])
    }

    func testObserversMaySendAndTheEventRunsAfterTheMacrostep() throws {
        let seen = Log()
        let m = try machine()
        m.onEnter(.running) {
            seen.add("queued: \(String(describing: try? m.send(.next)))")
        }
        m.onEnter { seen.add("enter \($0)") }
        try m.start()
        try m.send(.start)
        XCTAssertEqual(seen.take(), ["enter idle", "queued: Optional(Statechart.SendOutcome.queued)", "enter running",
                                     "enter a", "enter b"])
        XCTAssertEqual(m.configuration, [.b])
    }

    func testUntypedObserversOfATypedMachine() throws {
        let seen = Log()
        let m = try machine()
        m.machine.onStateChange { state, entered in seen.add("\(entered ? "+" : "-")\(state)") }
        m.machine.onTransition { seen.add($0.description) }
        m.machine.onUnhandled { seen.add("unhandled \($0.name)") }
        try m.start()
        try m.send(.start)
        try m.send(.reset)
        XCTAssertEqual(seen.take(), ["+idle", "-idle", "idle -start-> running", "+running", "+a", "unhandled reset"])
    }

    func testTransitionStreamYieldsTransitionsAndFinishesWhenTheMachineHalts() async throws {
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.a) { On(.go, to: .b) }
            StateNode(.b) { On(.go, to: .done) }
            Final(.done)
        }
        let stream = m.transitions
        try m.start()
        try m.send(.go)
        try m.send(.go)
        var seen: [String] = []
        for await transition in stream { seen.append(transition.description) }
        XCTAssertEqual(seen, ["a -go-> b", "b -go-> done"])
        // A stream made after the machine halted finishes at once.
        for await _ in m.transitions { XCTFail("no transition expected") }
    }

    func testCancellingTheConsumerRemovesTheStreamsObserver() async throws {
        let m = try machine()
        try m.start()
        let received = Log()
        let consumer = Task {
            for await transition in m.transitions { received.add(transition.description) }
            received.add("finished")
        }
        // Wait until the stream is registered and has delivered something.
        while received.count == 0 {
            try m.send(.start)
            try m.send(.stop)
            await Task.yield()
        }
        consumer.cancel()
        await consumer.value
        XCTAssertEqual(received.snapshot().last, "finished")
        XCTAssertTrue(received.snapshot().dropLast().allSatisfy { $0 == "idle -start-> running" || $0 == "running -stop-> idle" })
    }

    func testStreamsFinishWhenTheMachineIsStopped() async throws {
        let m = try machine()
        try m.start()
        let stream = m.machine.transitions
        try m.send(.start)
        m.stop()
        var seen: [String] = []
        for await record in stream { seen.append(record.description) }
        XCTAssertEqual(seen, ["idle -start-> running"])
        XCTAssertTrue(m.isFinished)
    }
}
