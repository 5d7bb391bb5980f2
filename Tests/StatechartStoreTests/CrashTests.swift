import Foundation
import StatechartStore
import StatechartStorePostgres
import XCTest

/// Worker processes killed with SIGKILL at random moments and restarted: every session must
/// end as an uninterrupted in-memory run of its events leaves it, each event applied once
/// (half of the worker starts apply one event per claim, the others batches of 16, so kills
/// land in and between batches)
/// (the worker's `verify` command checks configurations, contexts, the applied-event log and
/// the outbox). Every wait is bounded.
final class CrashTests: XCTestCase {
    static let sessions = 100
    static let eventsPerSession = 100

    func testPostgresFourWorkersKilledAtRandom() async throws {
        let url = try postgresURL()
        try await resetPostgres(url)
        try crashRun(store: url, workers: 4, kills: 12)
    }

    func testSQLiteOneProcessKilledAndRestarted() throws {
        let path = temporaryPath("crash.sqlite")
        try crashRun(store: "sqlite:\(path)", workers: 1, kills: 8)
    }

    /// Delayed events pending when the worker is killed fire after the restart: the overdue
    /// ones at once in due order, the one not yet due at its time, the cancelled one never.
    func testDelayedEventsPendingAtAKillFireAfterRestartInDueOrder() throws {
        let store = "sqlite:\(temporaryPath("timers.sqlite"))"
        XCTAssertEqual(try WorkerProcess.run(["timers", store, "t"]).status, 0)
        let scheduledAt = Date()
        var worker = try WorkerProcess.start(["work", store, "w1", "30"])
        var state = ""
        for _ in 0..<200 {           // until the six events are committed (at most 2 s)
            state = try WorkerProcess.run(["fired", store, "t"]).output
            if state.contains("pending [\"t2@") && state.components(separatedBy: "@").count == 5 { break }
            usleep(10_000)
        }
        WorkerProcess.killHard(worker)
        let atKill = try WorkerProcess.run(["fired", store, "t"]).output
        XCTAssertTrue(atKill.contains("t4@"), "the 4 s timer is pending at the kill: \(atKill)")
        XCTAssertFalse(atKill.contains("t5@"), "the cancelled timer is gone: \(atKill)")
        // All but the 4 s timer are overdue when the worker comes back.
        usleep(UInt32(max(0, 2.0 - Date().timeIntervalSince(scheduledAt)) * 1_000_000))
        worker = try WorkerProcess.start(["work", store, "w2", "30"])
        defer { WorkerProcess.killHard(worker) }
        var fired = ""
        for _ in 0..<800 {           // at most 8 s
            fired = try WorkerProcess.run(["fired", store, "t"]).output
            if fired.contains("pending []") { break }
            usleep(10_000)
        }
        XCTAssertTrue(fired.hasPrefix("fired [2, 3, 1, 4] at "), fired)
        let times = fired.components(separatedBy: " at [")[1].components(separatedBy: "]")[0]
            .components(separatedBy: ", ").compactMap { Double($0) }
        XCTAssertEqual(times.count, 4, fired)
        if times.count == 4 {
            XCTAssertGreaterThanOrEqual(times[3] - scheduledAt.timeIntervalSince1970 * 1000, 3900,
                                        "the 4 s timer fires at its time, not at the restart")
            XCTAssertLessThan(times[2] - times[0], 1000, "the overdue timers fire at once after the restart")
        }
    }

    // MARK: - Helpers

    private func crashRun(store: String, workers: Int, kills: Int) throws {
        let (sessions, events) = (Self.sessions, Self.eventsPerSession)
        let enqueued = try WorkerProcess.run(["enqueue", store, "\(sessions)", "\(events)"])
        XCTAssertEqual(enqueued.status, 0, enqueued.output)
        var starts = 0
        func startWorker(_ n: Int) throws -> Process {
            starts += 1
            return try WorkerProcess.start(["work", store, "w\(n)", "240", "1500", starts % 2 == 0 ? "16" : "1"])
        }
        var running = try (0..<workers).map(startWorker)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<kills {
            usleep(UInt32.random(in: 100_000...700_000, using: &generator))
            let victim = Int.random(in: 0..<workers, using: &generator)
            WorkerProcess.killHard(running[victim])
            running[victim] = try startWorker(victim)
        }
        for process in running {
            XCTAssertTrue(WorkerProcess.wait(process, timeout: .seconds(240)), "a worker did not finish")
            if process.isRunning { WorkerProcess.killHard(process) }
        }
        let verified = try WorkerProcess.run(["verify", store, "\(sessions)", "\(events)"])
        XCTAssertEqual(verified.status, 0, verified.output)
        XCTAssertTrue(verified.output.contains("verified \(sessions) sessions, \(sessions * events) events applied once each"),
                      verified.output)
    }

    private func temporaryPath(_ name: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-store-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder.appendingPathComponent(name).path
    }
}

/// The server scripts/suites/90-store.sh started (scripts/postgres.sh).
func postgresURL() throws -> String {
    guard let url = ProcessInfo.processInfo.environment["STATECHART_POSTGRES_URL"] else { throw MissingServer() }
    return url
}

/// A missing server fails the test (it is not skipped).
struct MissingServer: Error, CustomStringConvertible {
    var description: String {
        "STATECHART_POSTGRES_URL is not set: run scripts/suites/90-store.sh, which starts PostgreSQL with scripts/postgres.sh"
    }
}

/// Drops the store's tables so each test starts from an empty database.
func resetPostgres(_ url: String) async throws {
    let store = try PostgresSessionStore(url: url)
    _ = try await store.queryStrings("""
        DROP TABLE IF EXISTS statechart_schema, statechart_sessions, statechart_applied, statechart_inbox,
          statechart_timers, statechart_outbox, statechart_faults
        """)
}
