import Foundation
import Statechart
import StatechartStore
import StatechartStorePostgres
import XCTest

/// The PostgreSQL store's own guarantees, in one process (the crash tests cover many).
final class PostgresSessionTests: XCTestCase {
    func testDuplicatesAreRefusedAndAFailedCommitWritesNothing() async throws {
        let url = try postgresURL()
        try await resetPostgres(url)
        let store = try PostgresSessionStore(url: url)
        let doors = DurableSessions(store: store, kind: DurableChart(try doorChart(), version: "door-1") { _ in DoorLog() })
        try await doors.prepare()
        let first = try await doors.send(.push(1), id: "a", to: "front")
        let retry = try await doors.send(.push(1), id: "a", to: "front")
        XCTAssertEqual([first, retry], [true, false])
        try await doors.processAvailable()
        let afterApplied = try await doors.send(.push(1), id: "a", to: "front")
        XCTAssertFalse(afterApplied, "an applied id is refused")
        // The server fails in the middle of the commit, after the snapshot's UPDATE.
        try await checkFailedCommitWritesNothing(doors, message: "No space left on device", failMidway: {
            _ = try await store.queryStrings("""
                CREATE FUNCTION statechart_test_full() RETURNS trigger LANGUAGE plpgsql AS
                  $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$
                """)
            _ = try await store.queryStrings("""
                CREATE TRIGGER statechart_test_full BEFORE INSERT ON statechart_applied
                  FOR EACH ROW EXECUTE FUNCTION statechart_test_full()
                """)
        }, recover: {
            _ = try await store.queryStrings("DROP TRIGGER statechart_test_full ON statechart_applied")
            _ = try await store.queryStrings("DROP FUNCTION statechart_test_full()")
        })
    }

    /// A worker's connection is terminated by the server (`pg_terminate_backend` from another
    /// connection) while it holds a session in the middle of committing a batch: its call fails
    /// with a storage error, nothing of the batch is committed, another worker skips the session
    /// while it is held and picks it up once the connection is gone, and every event is applied
    /// once; the first worker's pool then reconnects.
    func testAConnectionTerminatedMidCommitFailsTheClaimAndTheSessionIsPickedUpAgain() async throws {
        let url = try postgresURL()
        try await resetPostgres(url)
        let store = try PostgresSessionStore(url: url)
        let kind = DurableChart(try doorChart(), version: "door-1") { _ in DoorLog() }
        let first = DurableSessions(store: store, kind: kind, worker: "first", eventsPerClaim: 3)
        try await first.prepare()
        try await first.send(.push(1), id: "a", to: "front")
        try await first.processAvailable()              // front, and watcher's notify from a
        let before = try await store.load("front")

        // The commit's insert into the applied log waits on the server, after the snapshot's
        // UPDATE, holding front's row lock.
        _ = try await store.queryStrings("""
            CREATE OR REPLACE FUNCTION statechart_test_hold() RETURNS trigger LANGUAGE plpgsql AS
              $$ BEGIN PERFORM pg_sleep(60); RETURN NEW; END $$
            """)
        _ = try await store.queryStrings("""
            CREATE TRIGGER statechart_test_hold BEFORE INSERT ON statechart_applied
              FOR EACH STATEMENT EXECUTE FUNCTION statechart_test_hold()
            """)
        try await first.send([(.pull, "b", "front"), (.push(2), "c", "front"), (.pull, "d", "front")])
        let held = Task { try await first.processNext() }
        var holder: String?
        for _ in 0..<1000 where holder == nil {         // at most 10 s
            holder = try await store.queryStrings("SELECT pid::text FROM pg_stat_activity WHERE wait_event = 'PgSleep'").first
            if holder == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        guard let holder else { held.cancel(); return XCTFail("the claim never reached the applied log") }

        let second = DurableSessions(store: try PostgresSessionStore(url: url), kind: kind, worker: "second", eventsPerClaim: 3)
        let whileHeld = try await second.processNext()
        XCTAssertNil(whileHeld, "front is held by the first worker, and no other session has work")

        let terminated = try await store.queryStrings("SELECT pg_terminate_backend(\(holder))::text")
        XCTAssertEqual(terminated, ["true"])
        // The server's FATAL message when the client reads it before the socket closes,
        // postgres-nio's closed-connection error when it does not.
        await assertStorageError({ try await held.value }, {
            $0.contains("terminating connection due to administrator command") || $0.contains("connectionClosed")
                || $0.contains("serverClosedConnection")
        })
        // (DROP TRIGGER waits for the held transaction's lock on the table: dropped only now.)
        _ = try await store.queryStrings("DROP TRIGGER statechart_test_hold ON statechart_applied")
        // The snapshot's UPDATE went with the connection; b, c and d still wait.
        try await assertNothingCommitted(store, before: before, applied: ["a"], waiting: 3)

        let work = try await second.processAvailable()
        XCTAssertEqual(work, [.committed(session: "front", version: 4), .committed(session: "watcher", version: 2)])
        let log = try await store.appliedEvents("front")
        XCTAssertEqual(log, ["a", "b", "c", "d"])
        let front = try await second.snapshot(of: "front")
        XCTAssertEqual(front?.machine.activeStates, [.closed])
        XCTAssertEqual(front?.context.pushes, [1, 2])

        // The first worker's pool replaces the dropped connection; its cached machine is gone
        // (the stored version moved on), so it restores front and applies e after d.
        try await first.send(.push(3), id: "e", to: "front")
        let resumed = try await first.processNext()
        XCTAssertEqual(resumed, .committed(session: "front", version: 5))
        let pushes = try await first.snapshot(of: "front")?.context.pushes
        XCTAssertEqual(pushes, [1, 2, 3])
    }

    func testASessionOfAnotherChartVersionIsRefusedAndLeftUntouched() async throws {
        let url = try postgresURL()
        try await resetPostgres(url)
        let store = try PostgresSessionStore(url: url)
        let v1 = DurableSessions(store: store, kind: DurableChart(try doorChart(), version: "door-1") { _ in DoorLog() })
        try await v1.prepare()
        try await v1.send(.pull, id: "a", to: "old")
        try await v1.processAvailable()
        let before = try await store.load("old")

        let v2 = DurableSessions(store: store, kind: DurableChart(try doorChart(), version: "door-2") { _ in DoorLog() })
        try await v2.send([(.pull, "b", "old"), (.pull, "c", "new")])
        let work = try await v2.processAvailable()
        let refused = SessionFault(session: "old", reason: DurableError.chartVersionMismatch(session: "old", stored: "door-1", expected: "door-2").description)
        XCTAssertEqual(Set(work), [.faulted(refused), .committed(session: "new", version: 1)])
        let after = try await store.load("old")
        XCTAssertEqual(after, before, "left as stored")
        let faults = try await store.faults()
        XCTAssertEqual(faults, [refused])
    }
}
