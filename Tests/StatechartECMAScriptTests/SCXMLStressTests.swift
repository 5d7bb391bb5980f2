import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// Eight threads sending 100,000 events each into one `SCXMLMachine` whose document also sends
/// delayed events to itself and pings a session it invoked, which answers through the parent's
/// mailbox: every event's effect is counted exactly, each thread's events are processed in its
/// send order, and the transition observer sees exactly the order in which the document's
/// content ran (its `<log>`s). Runs under ThreadSanitizer in scripts/suites/85-tsan.sh with
/// fewer events (STATECHART_STRESS_EVENTS).
///
/// The events go without data, the way most are sent (an interned id, no payload), so a thread's
/// order is carried by the names: thread t's event `seq` is `t<t>.kick` for every 1000th event
/// and `t<t>.e<seq % 10>` otherwise, and the names of t's events must come out as exactly that
/// sequence. Any two of a thread's events processed out of order are caught unless they have
/// the same name (their positions differ by a multiple of 10 and neither is a kick).
final class SCXMLStressTests: XCTestCase {
    static let threads = 8
    static var eventsPerThread: Int {
        ProcessInfo.processInfo.environment["STATECHART_STRESS_EVENTS"].flatMap(Int.init) ?? 100_000
    }

    static func name(thread: Int, seq: Int) -> String {
        seq % 1_000 == 999 ? "t\(thread).kick" : "t\(thread).e\(seq % 10)"
    }

    /// `t<t>.e5` moves between `left` and `right`; a kick sends `later` one (virtual) second
    /// ahead and pings the invoked session, which answers `pong`. Every transition logs the name
    /// of its event, so the `<log>` hook sees the order the content ran in.
    static var document: String {
        var counted = "", flipsLeft = "", flipsRight = ""
        for t in 0..<threads {
            for k in 0..<10 where k != 5 {
                counted += #"<transition event="t\#(t).e\#(k)"><log label="t\#(t).e\#(k)"/></transition>"# + "\n"
            }
            counted += """
                <transition event="t\(t).kick"><log label="t\(t).kick"/><send event="later" delay="1s"/><send target="#_echo" event="ping"/></transition>

                """
            flipsLeft += #"<transition event="t\#(t).e5" target="right"><log label="t\#(t).e5"/></transition>"#
            flipsRight += #"<transition event="t\#(t).e5" target="left"><log label="t\#(t).e5"/></transition>"#
        }
        return """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="run">
              <state id="run" initial="left">
                <invoke id="echo">
                  <content>
                    <scxml version="1.0" datamodel="ecmascript">
                      <state id="wait">
                        <transition event="ping"><send target="#_parent" event="pong"/></transition>
                      </state>
                    </scxml>
                  </content>
                </invoke>
                \(counted)
                <transition event="later"><log label="later"/></transition>
                <transition event="pong"><log label="pong"/></transition>
                <state id="left">\(flipsLeft)</state>
                <state id="right">\(flipsRight)</state>
              </state>
            </scxml>
            """
    }

    /// What the observer (or the `<log>` hook) saw. Locked: the test thread reads it while the
    /// session's own queue may still be delivering the child's answers.
    final class Names: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        func append(_ name: String) { lock.withLock { names.append(name) } }
        var count: Int { lock.withLock { names.count } }
        var contents: [String] { lock.withLock { names } }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    func testEightThreadsWithDelayedSendsAndAnInvocationLoseNoEventAndKeepEachThreadsOrder() throws {
        let perThread = Self.eventsPerThread
        let kicksPerThread = (0..<perThread).filter { $0 % 1_000 == 999 }.count
        let flipsPerThread = (0..<perThread).filter { $0 % 1_000 != 999 && $0 % 10 == 5 }.count
        let kicks = Self.threads * kicksPerThread
        // Every sent event, plus one delayed "later" and one "pong" per kick.
        let expectedTotal = Self.threads * perThread + 2 * kicks

        var options = SCXMLMachine.Options.withECMAScript
        let clock = TestClock()
        options.clock = clock
        let scxml = try SCXMLMachine(string: Self.document, fileName: "stress.scxml", options: options)
        let observed = Names(), logged = Names()
        scxml.machine.onTransition { record in
            if let event = record.event { observed.append(event.name) }
        }
        scxml.onLog { label, _ in logged.append(label ?? "") }
        try scxml.start()
        XCTAssertEqual(scxml.configuration, ["left"])

        let start = DispatchSemaphore(value: 0)
        let senders = DispatchGroup()
        let notHandled = Counter()
        for thread in 0..<Self.threads {
            senders.enter()
            Thread {
                // Names made before the start, so the threads contend on the machine only.
                let names = (0..<perThread).map { Self.name(thread: thread, seq: $0) }
                start.wait()
                for name in names where (try? scxml.send(name)) != .handled { notHandled.increment() }
                senders.leave()
            }.start()
        }
        let sendersDone = Counter()
        let ticker = DispatchGroup()
        ticker.enter()
        Thread {
            while sendersDone.value == 0 {
                clock.advance(by: .milliseconds(100))
                usleep(200)
            }
            ticker.leave()
        }.start()
        usleep(10_000)                              // the threads build their names
        for _ in 0..<Self.threads { start.signal() }
        senders.wait()
        sendersDone.increment()
        ticker.wait()
        clock.advance(by: .seconds(2))              // the last delayed "later"s fall due

        // The child's pongs come through the parent's mailbox on its own queue: wait for them.
        let deadline = Date().addingTimeInterval(60)
        while observed.count < expectedTotal && Date() < deadline { usleep(2_000) }
        usleep(100_000)                             // anything extra would arrive now
        XCTAssertEqual(notHandled.value, 0, "sends that were not handled")

        let names = observed.contents
        XCTAssertEqual(names.count, expectedTotal)
        XCTAssertTrue(names == logged.contents, "the observer's sequence differs from the order the content ran in")
        XCTAssertEqual(names.filter { $0 == "later" }.count, kicks)
        XCTAssertEqual(names.filter { $0 == "pong" }.count, kicks)

        var byThread = [[String]](repeating: [], count: Self.threads)
        for name in names where name.hasPrefix("t") {
            guard let dot = name.firstIndex(of: "."), let thread = Int(name.dropFirst().prefix(upTo: dot)),
                  thread < Self.threads else { return XCTFail("unexpected event '\(name)'") }
            byThread[thread].append(name)
        }
        for thread in 0..<Self.threads {
            let expected = (0..<perThread).map { Self.name(thread: thread, seq: $0) }
            guard byThread[thread] == expected else {
                let at = zip(byThread[thread], expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(byThread[thread].count, expected.count)
                return XCTFail("thread \(thread): \(byThread[thread].count) events; the first out of order is number \(at)")
            }
        }
        XCTAssertEqual(scxml.configuration, (Self.threads * flipsPerThread).isMultiple(of: 2) ? ["left"] : ["right"])
    }
}
