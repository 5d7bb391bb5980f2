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
