import Foundation
import GRDB
import StatechartStore

/// Durable sessions in one SQLite file (through GRDB), for one process or several on one
/// machine: every claim is an `IMMEDIATE` transaction, so one writer at a time holds the
/// database and claims stay short (one macrostep per event of the claim).
///
/// ```swift
/// let store = try SQLiteSessionStore(path: "orders.sqlite", synchronous: .full)
/// let orders = DurableSessions(store: store, kind: DurableChart(orderChart, version: "orders-1") { _ in Order() })
/// try await orders.prepare()
/// ```
/// The file is in WAL mode. With ``Synchronous/normal`` a commit survives a crash of the
/// process but the last commits may be lost on power loss; ``Synchronous/full`` (the default)
/// waits for the disk on every commit.
public final class SQLiteSessionStore: SessionStore {
    /// SQLite's `synchronous` setting for the WAL file.
    public enum Synchronous: String, Sendable {
        /// `synchronous = NORMAL`: durable across process crashes, not power loss.
        case normal = "NORMAL"
        /// `synchronous = FULL`: every commit reaches the disk before it returns.
        case full = "FULL"
    }

    private let database: DatabaseQueue

    /// Opens (creating) the database at `path`. Other processes may open the same file;
    /// they wait up to `busyTimeout` for each other's transactions.
    public init(path: String, synchronous: Synchronous = .full, busyTimeout: Duration = .seconds(10)) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(TimeInterval(busyTimeout.components.seconds))
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous.rawValue)")
        }
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw DurableError.storage("cannot open '\(path)': \(error)")
        }
    }

    // MARK: - Schema

    /// The statements of each schema version, applied in order by ``migrate()``.
    static let migrations: [[String]] = [
        [
            "CREATE TABLE statechart_sessions (id TEXT PRIMARY KEY, version INTEGER NOT NULL DEFAULT 0, chart_version TEXT, state BLOB, updated_at INTEGER)",
            "CREATE TABLE statechart_applied (session_id TEXT NOT NULL, event_id TEXT NOT NULL, session_version INTEGER NOT NULL, worker TEXT NOT NULL, applied_at INTEGER NOT NULL, PRIMARY KEY (session_id, event_id))",
            "CREATE TABLE statechart_inbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, event_id TEXT NOT NULL, body BLOB NOT NULL, UNIQUE (session_id, event_id))",
            "CREATE INDEX statechart_inbox_session ON statechart_inbox (session_id, seq)",
            "CREATE TABLE statechart_timers (session_id TEXT NOT NULL, ord INTEGER NOT NULL, send_id TEXT NOT NULL, due INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (session_id, ord))",
            "CREATE INDEX statechart_timers_due ON statechart_timers (due)",
            "CREATE TABLE statechart_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL, target TEXT NOT NULL, name TEXT NOT NULL, body BLOB NOT NULL)",
            "CREATE TABLE statechart_faults (session_id TEXT PRIMARY KEY, reason TEXT NOT NULL, at INTEGER NOT NULL)",
        ],
    ]

    public func migrate() async throws {
        try await write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS statechart_schema (version INTEGER NOT NULL)")
            let found = try Int.fetchOne(db, sql: "SELECT MAX(version) FROM statechart_schema") ?? 0
            guard found <= SessionStoreSchema.currentVersion else {
                throw DurableError.newerSchema(found: found, supported: SessionStoreSchema.currentVersion)
            }
            for version in found..<Self.migrations.count {
                for statement in Self.migrations[version] { try db.execute(sql: statement) }
                try db.execute(sql: "INSERT INTO statechart_schema (version) VALUES (?)", arguments: [version + 1])
            }
        }
    }

    // MARK: - SessionStore

    public func enqueue(_ messages: [InboxMessage]) async throws -> Int {
        try await write { db in try messages.reduce(0) { $0 + (try Self.insert($1, into: db) ? 1 : 0) } }
    }

    public func process(now: Date, worker: String, limit: Int,
                        _ body: @escaping @Sendable (ClaimedWork) throws -> SessionCommit) async throws -> ProcessedWork? {
        let nowMs = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let result: Result<ProcessedWork?, DurableError> = try await write { db in
            // Due timers first, then the session of the oldest message (both by index).
            guard let session = try String.fetchOne(db, sql: """
                SELECT session_id FROM statechart_timers WHERE due <= ?
                  AND session_id NOT IN (SELECT session_id FROM statechart_faults) ORDER BY due LIMIT 1
                """, arguments: [nowMs]) ?? String.fetchOne(db, sql: """
                SELECT session_id FROM statechart_inbox
                WHERE session_id NOT IN (SELECT session_id FROM statechart_faults) ORDER BY seq LIMIT 1
                """) else { return .success(nil) }
            let stored = try Self.load(session, from: db)
            let rows = try Row.fetchAll(db, sql: """
                SELECT i.seq, i.event_id, i.body,
                  EXISTS (SELECT 1 FROM statechart_applied a WHERE a.session_id = i.session_id AND a.event_id = i.event_id) AS applied
                FROM statechart_inbox i WHERE i.session_id = ? ORDER BY i.seq LIMIT ?
                """, arguments: [session, max(1, limit)])
            let duplicates = rows.filter { $0["applied"] as Bool }
            if let first = duplicates.first {
                for row in duplicates { try db.execute(sql: "DELETE FROM statechart_inbox WHERE seq = ?", arguments: [row["seq"] as Int64]) }
                return .success(.duplicate(session: session, eventID: first["event_id"]))
            }
            let messages = rows.map { InboxMessage(session: session, eventID: $0["event_id"], body: $0["body"]) }
            let commit: SessionCommit
            do {
                commit = try body(ClaimedWork(stored: stored, messages: messages, now: nowMs))
            } catch let error as DurableError where error.isSessionFault {
                return .failure(error)      // nothing written; the fault is recorded below
            }
            let version = commit.version(after: stored.version)
            try db.execute(sql: "UPDATE statechart_sessions SET version = ?, chart_version = ?, state = ?, updated_at = ? WHERE id = ? AND version = ?",
                           arguments: [version, commit.chartVersion, commit.state, nowMs, session, stored.version])
            guard db.changesCount == 1 else { throw DurableError.storage("session '\(session)' changed during its claim") }
            for row in rows { try db.execute(sql: "DELETE FROM statechart_inbox WHERE seq = ?", arguments: [row["seq"] as Int64]) }
            for (index, eventID) in commit.appliedEventIDs.enumerated() {
                try db.execute(sql: "INSERT INTO statechart_applied (session_id, event_id, session_version, worker, applied_at) VALUES (?, ?, ?, ?, ?)",
                               arguments: [session, eventID, stored.version + 1 + Int64(index), worker, nowMs])
            }
            try db.execute(sql: "DELETE FROM statechart_timers WHERE session_id = ?", arguments: [session])
            for timer in commit.timers {
                try db.execute(sql: "INSERT INTO statechart_timers (session_id, ord, send_id, due, body) VALUES (?, ?, ?, ?, ?)",
                               arguments: [session, timer.order, timer.sendID, timer.due, timer.body])
            }
            for message in commit.outbox {
                if message.target.hasPrefix(OutboxMessage.sessionTargetPrefix) {
                    let target = String(message.target.dropFirst(OutboxMessage.sessionTargetPrefix.count))
                    _ = try Self.insert(InboxMessage(session: target, eventID: message.id, body: message.body), into: db)
                } else {
                    try db.execute(sql: "INSERT INTO statechart_outbox (id, session_id, target, name, body) VALUES (?, ?, ?, ?, ?)",
                                   arguments: [message.id, session, message.target, message.name, message.body])
                }
            }
            return .success(.committed(session: session, version: version))
        }
        switch result {
        case .success(let work): return work
        case .failure(let error):
            let fault = SessionFault(session: error.session ?? "", reason: error.description)
            try await write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO statechart_faults (session_id, reason, at) VALUES (?, ?, ?)",
                               arguments: [fault.session, fault.reason, nowMs])
            }
            return .faulted(fault)
        }
    }

    public func load(_ session: String) async throws -> StoredSession? {
        try await read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM statechart_sessions WHERE id = ?", arguments: [session]) != nil else { return nil }
            return try Self.load(session, from: db)
        }
    }

    public func outbox(limit: Int) async throws -> [OutboxMessage] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, session_id, target, name, body FROM statechart_outbox ORDER BY seq LIMIT ?", arguments: [limit]).map {
                OutboxMessage(id: $0["id"], session: $0["session_id"], target: $0["target"], name: $0["name"], body: $0["body"])
            }
        }
    }

    public func acknowledge(_ ids: [String]) async throws {
        try await write { db in
            for id in ids { try db.execute(sql: "DELETE FROM statechart_outbox WHERE id = ?", arguments: [id]) }
        }
    }

    public func faults() async throws -> [SessionFault] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT session_id, reason FROM statechart_faults ORDER BY session_id").map {
                SessionFault(session: $0["session_id"], reason: $0["reason"])
            }
        }
    }

    public func backlog() async throws -> (messages: Int, timers: Int) {
        try await read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM statechart_inbox") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM statechart_timers") ?? 0)
        }
    }

    public func appliedEvents(_ session: String) async throws -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT event_id FROM statechart_applied WHERE session_id = ? ORDER BY session_version",
                                arguments: [session])
        }
    }

    // MARK: - Helpers

    /// Adds `message` unless its session has its event id waiting or applied.
    private static func insert(_ message: InboxMessage, into db: Database) throws -> Bool {
        try db.execute(sql: "INSERT OR IGNORE INTO statechart_sessions (id, version) VALUES (?, 0)", arguments: [message.session])
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM statechart_applied WHERE session_id = ? AND event_id = ?",
                             arguments: [message.session, message.eventID]) != nil { return false }
        try db.execute(sql: "INSERT OR IGNORE INTO statechart_inbox (session_id, event_id, body) VALUES (?, ?, ?)",
                       arguments: [message.session, message.eventID, message.body])
        return db.changesCount == 1
    }

    private static func load(_ session: String, from db: Database) throws -> StoredSession {
        guard let row = try Row.fetchOne(db, sql: "SELECT version, chart_version, state FROM statechart_sessions WHERE id = ?", arguments: [session]) else {
            return StoredSession(session: session, version: 0, chartVersion: nil, state: nil, timers: [])
        }
        let timers = try Row.fetchAll(db, sql: "SELECT send_id, ord, due, body FROM statechart_timers WHERE session_id = ? ORDER BY due, ord",
                                      arguments: [session]).map {
            TimerRow(sendID: $0["send_id"], order: $0["ord"], due: $0["due"], body: $0["body"])
        }
        return StoredSession(session: session, version: row["version"], chartVersion: row["chart_version"], state: row["state"], timers: timers)
    }

    /// A write transaction taking the database's write lock at once (`BEGIN IMMEDIATE`);
    /// database failures become ``DurableError/storage(_:)``.
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as DurableError {
            throw error
        } catch {
            throw DurableError.storage("\(error)")
        }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.read(body)
        } catch {
            throw DurableError.storage("\(error)")
        }
    }
}
