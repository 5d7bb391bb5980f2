import Foundation
import GRDB
import Statechart
import StatechartStore
import StatechartStoreSQLite
import XCTest

/// Claims that apply several waiting events (`eventsPerClaim`) and commit them together.
final class BatchTests: XCTestCase {
    private func doors(_ store: SQLiteSessionStore, eventsPerClaim: Int) async throws -> DoorSessions {
        let doors = DurableSessions(store: store, kind: DurableChart(try doorChart(), version: "door-1") { _ in DoorLog() },
                                    worker: "test", eventsPerClaim: eventsPerClaim)
        try await doors.prepare()
        return doors
    }

    /// push 1, pull, push 2, pull, push 3 to "front".
    private static let events: [(event: DoorEvent, id: String, session: String)] = [
        (.push(1), "a", "front"), (.pull, "b", "front"), (.push(2), "c", "front"), (.pull, "d", "front"), (.push(3), "e", "front"),
    ]

    func testABatchIsOneCommitThatLogsEveryEventInOrder() async throws {
        let (store, _) = try makeStore()
        let doors = try await doors(store, eventsPerClaim: 3)
        try await doors.send(Self.events)
        let work = try await doors.processAvailable()
        // front: a-c in one commit (version 0 + 3), d-e in the next (3 + 2); watcher's three
        // notifies (from pushes 1, 2 and 3) wait behind front's messages and form one batch.
        XCTAssertEqual(work, [.committed(session: "front", version: 3), .committed(session: "front", version: 5),
                              .committed(session: "watcher", version: 3)])
        let front = try await doors.snapshot(of: "front")
        XCTAssertEqual(front?.machine.activeStates, [.open])
        XCTAssertEqual(front?.context.pushes, [1, 2, 3])
        let frontLog = try await store.appliedEvents("front")
        XCTAssertEqual(frontLog, ["a", "b", "c", "d", "e"])
        // Outbox ids number the batch's sends in order: each push sends notify, then mail.
        let watcherLog = try await store.appliedEvents("watcher")
        XCTAssertEqual(watcherLog, ["front/3/0", "front/3/2", "front/5/0"])
        let watcher = try await doors.snapshot(of: "watcher")
        XCTAssertEqual(watcher?.context.notes, ["opened by 1", "opened by 2", "opened by 3"])
        let mail = try await store.outbox(limit: 10).map(\.id)
        XCTAssertEqual(mail, ["front/3/1", "front/3/3", "front/5/1"])
    }

    func testABatchWhoseCommitFailsPartwayIsAppliedOnceOnRetry() async throws {
        let (store, path) = try makeStore()
        let doors = try await doors(store, eventsPerClaim: 4)
        try await doors.send([Self.events[0]])
        try await doors.processAvailable()                  // a, and watcher's notify from a
        let before = try await store.load("front")
        // The disk fills while the batch b-e is logged: b and c are in the log, d fails.
        let database = try DatabaseQueue(path: path)
        try await database.write {
            try $0.execute(sql: """
                CREATE TRIGGER full_disk BEFORE INSERT ON statechart_applied WHEN NEW.event_id = 'd'
                BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                """)
        }
        try await doors.send(Array(Self.events[1...]))
        await assertStorageError({ try await doors.processNext() }, { $0.contains("database or disk is full") })
        try await assertNothingCommitted(store, before: before, applied: ["a"], waiting: 4)   // b-e

        // The machine that ran b and c before the failure is dropped: the retry restores the
        // stored session, so b and c are not applied twice.
        try await database.write { try $0.execute(sql: "DROP TRIGGER full_disk") }
        try await doors.processAvailable()
        let front = try await doors.snapshot(of: "front")
        XCTAssertEqual(front?.machine.activeStates, [.open])
        XCTAssertEqual(front?.context.pushes, [1, 2, 3])
        let log = try await store.appliedEvents("front")
        XCTAssertEqual(log, ["a", "b", "c", "d", "e"])
    }

    func testASenderRetryingAPartlyAppliedBatchHasOnlyTheNewEventsApplied() async throws {
        let (store, _) = try makeStore()
        let doors = try await doors(store, eventsPerClaim: 2)
        let sent = try await doors.send(Array(Self.events[0..<4]))
        XCTAssertEqual(sent, 4)
        try await doors.processNext()                       // a and b committed
        let resent = try await doors.send(Self.events)      // the sender did not hear back
        XCTAssertEqual(resent, 1, "a, b applied and c, d waiting are refused; e is new")
        try await doors.processAvailable()
        let log = try await store.appliedEvents("front")
        XCTAssertEqual(log, ["a", "b", "c", "d", "e"])
        let front = try await doors.snapshot(of: "front")
        XCTAssertEqual(front?.context.pushes, [1, 2, 3])
    }

    func testADuplicateAmongABatchsMessagesIsRemovedAndTheRestAppliedOnce() async throws {
        let (store, path) = try makeStore()
        let doors = try await doors(store, eventsPerClaim: 3)
        try await doors.send([Self.events[0]])
        try await doors.processAvailable()
        // A race between an enqueue and the commit of the same id (possible on PostgreSQL)
        // leaves an applied id in the inbox; here it is written directly.
        let database = try DatabaseQueue(path: path)
        try await database.write {
            try $0.execute(sql: "INSERT INTO statechart_inbox (session_id, event_id, body) VALUES ('front', 'a', x'00')")
        }
        try await doors.send([Self.events[1], Self.events[2]])
        let work = try await doors.processAvailable()
        XCTAssertEqual(work, [.duplicate(session: "front", eventID: "a"), .committed(session: "front", version: 3),
                              .committed(session: "watcher", version: 2)])
        let log = try await store.appliedEvents("front")
        XCTAssertEqual(log, ["a", "b", "c"])
        let front = try await doors.snapshot(of: "front")
        XCTAssertEqual(front?.context.pushes, [1, 2])
    }
}
