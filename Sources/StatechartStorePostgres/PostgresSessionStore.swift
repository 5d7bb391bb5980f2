import Foundation
import Logging
import PostgresNIO
import StatechartStore

/// Durable sessions in PostgreSQL, shared by any number of worker processes on any hosts.
///
/// ```swift
/// let store = try PostgresSessionStore(url: "postgres://orders@127.0.0.1:5432/orders")
/// let orders = DurableSessions(store: store, kind: DurableChart(orderChart, version: "orders-1") { _ in Order() })
/// try await orders.prepare()
/// await orders.run(until: { stopping.load() })       // in each worker process
/// ```
///
/// **One writer per session: row locks.** A claim is one transaction that locks the session's
/// row with `SELECT ... FOR UPDATE SKIP LOCKED`, applies the timers due and up to the claim's
/// limit of waiting events, and commits; other workers skip locked rows and take other sessions. No lock outlives its
/// transaction, so a worker that dies loses its sessions when its transaction ends: at once
/// when its process is killed (the server sees the connection close), within
/// ``idleInTransactionTimeout`` when it hangs in a claim, and within the TCP keepalive time when
/// its host vanishes. Per-session order: inbox messages are claimed by their sequence number.
/// A worker keeps the machines it ran and reuses one when the session's version is still the
/// one it committed.
///
/// **Lost connections.** A connection that fails in a claim (server restart, network loss,
/// `pg_terminate_backend`) fails the call with `DurableError.storage`: the server ended
/// its transaction, so nothing of the claim is committed; the connection is closed, and the
/// next call runs on another one.
public final class PostgresSessionStore: SessionStore {
    private let client: PostgresClient
    private let connections: Int
    private let runner: Task<Void, Never>
    private let logger: Logger
    /// How long a worker may hold a claim without sending anything before the server ends it
    /// (`idle_in_transaction_session_timeout`): the bound on a hung worker keeping its session.
    public let idleInTransactionTimeout: Duration

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`), without TLS (loopback
    /// or a private network), with up to `connections` connections.
    public init(url: String, connections: Int = 4, idleInTransactionTimeout: Duration = .seconds(10)) throws {
        guard let parts = URLComponents(string: url), let host = parts.host, let user = parts.user,
              ["postgres", "postgresql"].contains(parts.scheme ?? "") else {
            throw DurableError.storage("'\(url)' is not a postgres://user@host:port/database URL")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: parts.port ?? 5432, username: user, password: parts.password,
            database: parts.path.isEmpty ? nil : String(parts.path.dropFirst()), tls: .disable)
        configuration.options.maximumConnections = connections
        self.connections = connections
        configuration.options.additionalStartupParameters = [
            ("idle_in_transaction_session_timeout", "\(idleInTransactionTimeout.components.seconds * 1000)"),
        ]
        var logger = Logger(label: "statechart.store.postgres")
        logger.logLevel = .critical
        self.logger = logger
        self.idleInTransactionTimeout = idleInTransactionTimeout
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    // MARK: - Schema

    static let migrations: [[PostgresQuery]] = [
        [
            "CREATE TABLE statechart_sessions (id TEXT PRIMARY KEY, version BIGINT NOT NULL DEFAULT 0, chart_version TEXT, state BYTEA, updated_at BIGINT)",
            "CREATE TABLE statechart_applied (session_id TEXT NOT NULL, event_id TEXT NOT NULL, session_version BIGINT NOT NULL, worker TEXT NOT NULL, applied_at BIGINT NOT NULL, PRIMARY KEY (session_id, event_id))",
            "CREATE TABLE statechart_inbox (seq BIGSERIAL PRIMARY KEY, session_id TEXT NOT NULL, event_id TEXT NOT NULL, body BYTEA NOT NULL, UNIQUE (session_id, event_id))",
            "CREATE INDEX statechart_inbox_session ON statechart_inbox (session_id, seq)",
            "CREATE TABLE statechart_timers (session_id TEXT NOT NULL, ord INTEGER NOT NULL, send_id TEXT NOT NULL, due BIGINT NOT NULL, body BYTEA NOT NULL, PRIMARY KEY (session_id, ord))",
            "CREATE INDEX statechart_timers_due ON statechart_timers (due)",
            "CREATE TABLE statechart_outbox (seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL, target TEXT NOT NULL, name TEXT NOT NULL, body BYTEA NOT NULL)",
            "CREATE TABLE statechart_faults (session_id TEXT PRIMARY KEY, reason TEXT NOT NULL, at BIGINT NOT NULL)",
        ],
    ]

    public func migrate() async throws {
        try await transaction { connection, logger in
            // One migrating process at a time; the others wait, then find the work done.
            try await connection.query("SELECT pg_advisory_xact_lock(7402617)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS statechart_schema (version INTEGER NOT NULL)", logger: logger)
            var found = 0
            for try await (version) in try await connection.query("SELECT COALESCE(MAX(version), 0) FROM statechart_schema", logger: logger).decode(Int.self) {
                found = version
            }
            guard found <= SessionStoreSchema.currentVersion else {
                throw DurableError.newerSchema(found: found, supported: SessionStoreSchema.currentVersion)
            }
            for version in found..<Self.migrations.count {
                for statement in Self.migrations[version] { try await connection.query(statement, logger: logger) }
                try await connection.query("INSERT INTO statechart_schema (version) VALUES (\(version + 1))", logger: logger)
            }
        }
    }

    // MARK: - SessionStore

    public func enqueue(_ messages: [InboxMessage]) async throws -> Int {
        // One statement per batch: the messages keep their order (ordinality) in the sequence.
        let sessions = messages.map(\.session)
        let ids = messages.map(\.eventID)
        let bodies = messages.map { ByteBuffer(bytes: $0.body) }
        return try await transaction { connection, logger in
            try await connection.query("""
                INSERT INTO statechart_sessions (id) SELECT DISTINCT unnest(\(sessions)::text[]) ON CONFLICT DO NOTHING
                """, logger: logger)
            var added = 0
            for try await _ in try await connection.query("""
                INSERT INTO statechart_inbox (session_id, event_id, body)
                SELECT m.s, m.e, m.b FROM unnest(\(sessions)::text[], \(ids)::text[], \(bodies)::bytea[]) WITH ORDINALITY AS m(s, e, b, n)
                WHERE NOT EXISTS (SELECT 1 FROM statechart_applied a WHERE a.session_id = m.s AND a.event_id = m.e)
                ORDER BY m.n
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger) { added += 1 }
            return added
        }
    }

    public func process(now: Date, worker: String, limit: Int,
                        _ body: @escaping @Sendable (ClaimedWork) throws -> SessionCommit) async throws -> ProcessedWork? {
        let nowMs = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let result: Result<ProcessedWork?, DurableError> = try await transaction { connection, logger in
            var claimed: StoredSession?
            for try await (id, version, chartVersion, state) in try await connection.query("""
                SELECT s.id, s.version, s.chart_version, s.state FROM statechart_sessions s
                WHERE (EXISTS (SELECT 1 FROM statechart_inbox i WHERE i.session_id = s.id)
                       OR EXISTS (SELECT 1 FROM statechart_timers t WHERE t.session_id = s.id AND t.due <= \(nowMs)))
                  AND NOT EXISTS (SELECT 1 FROM statechart_faults f WHERE f.session_id = s.id)
                ORDER BY s.updated_at NULLS FIRST LIMIT 1 FOR UPDATE OF s SKIP LOCKED
                """, logger: logger).decode((String, Int64, String?, Data?).self) {
                claimed = StoredSession(session: id, version: version, chartVersion: chartVersion, state: state, timers: [])
            }
            guard var stored = claimed else { return .success(nil) }
            let session = stored.session
            stored.timers = try await Self.timers(of: session, on: connection, logger: logger)
            var sequence: [Int64] = []
            var messages: [InboxMessage] = []
            var duplicates: [(seq: Int64, eventID: String)] = []
            for try await (seq, eventID, body, applied) in try await connection.query("""
                SELECT i.seq, i.event_id, i.body,
                  EXISTS (SELECT 1 FROM statechart_applied a WHERE a.session_id = i.session_id AND a.event_id = i.event_id)
                FROM statechart_inbox i WHERE i.session_id = \(session) ORDER BY i.seq LIMIT \(max(1, limit))
                """, logger: logger).decode((Int64, String, Data, Bool).self) {
                sequence.append(seq)
                messages.append(InboxMessage(session: session, eventID: eventID, body: body))
                if applied { duplicates.append((seq, eventID)) }
            }
            if let first = duplicates.first {
                try await connection.query("DELETE FROM statechart_inbox WHERE seq = ANY(\(duplicates.map(\.seq)))", logger: logger)
                return .success(.duplicate(session: session, eventID: first.eventID))
            }
            let commit: SessionCommit
            do {
                commit = try body(ClaimedWork(stored: stored, messages: messages, now: nowMs))
            } catch let error as DurableError where error.isSessionFault {
                throw SessionFaultAbort(error: error)      // rolls back; the fault is recorded below
            }
            let version = commit.version(after: stored.version)
            try await connection.query("""
                UPDATE statechart_sessions SET version = \(version), chart_version = \(commit.chartVersion),
                  state = \(commit.state), updated_at = \(nowMs) WHERE id = \(session)
                """, logger: logger)
            if !sequence.isEmpty {
                try await connection.query("DELETE FROM statechart_inbox WHERE seq = ANY(\(sequence))", logger: logger)
            }
            if !commit.appliedEventIDs.isEmpty {
                // The i-th event (from 1) is logged with version stored + i (SessionCommit.version).
                try await connection.query("""
                    INSERT INTO statechart_applied (session_id, event_id, session_version, worker, applied_at)
                    SELECT \(session), a.e, \(stored.version) + a.n, \(worker), \(nowMs)
                    FROM unnest(\(commit.appliedEventIDs)::text[]) WITH ORDINALITY AS a(e, n)
                    """, logger: logger)
            }
            if commit.timers != stored.timers {
                try await connection.query("DELETE FROM statechart_timers WHERE session_id = \(session)", logger: logger)
                for timer in commit.timers {
                    try await connection.query("""
                        INSERT INTO statechart_timers (session_id, ord, send_id, due, body)
                        VALUES (\(session), \(timer.order), \(timer.sendID), \(timer.due), \(timer.body))
                        """, logger: logger)
                }
            }
            for message in commit.outbox {
                if message.target.hasPrefix(OutboxMessage.sessionTargetPrefix) {
                    let target = String(message.target.dropFirst(OutboxMessage.sessionTargetPrefix.count))
                    _ = try await Self.insert(InboxMessage(session: target, eventID: message.id, body: message.body), on: connection, logger: logger)
                } else {
                    try await connection.query("""
                        INSERT INTO statechart_outbox (id, session_id, target, name, body)
                        VALUES (\(message.id), \(session), \(message.target), \(message.name), \(message.body))
                        """, logger: logger)
                }
            }
            return .success(.committed(session: session, version: version))
        } recovering: { error in
            (error as? SessionFaultAbort).map { .failure($0.error) }
        }
        switch result {
        case .success(let work): return work
        case .failure(let error):
            let fault = SessionFault(session: error.session ?? "", reason: error.description)
            try await transaction { connection, logger in
                try await connection.query("""
                    INSERT INTO statechart_faults (session_id, reason, at) VALUES (\(fault.session), \(fault.reason), \(nowMs))
                    ON CONFLICT (session_id) DO UPDATE SET reason = EXCLUDED.reason, at = EXCLUDED.at
                    """, logger: logger)
            }
            return .faulted(fault)
        }
    }

    public func load(_ session: String) async throws -> StoredSession? {
        try await transaction { connection, logger in
            var stored: StoredSession?
            for try await (version, chartVersion, state) in try await connection.query(
                "SELECT version, chart_version, state FROM statechart_sessions WHERE id = \(session)",
                logger: logger).decode((Int64, String?, Data?).self) {
                stored = StoredSession(session: session, version: version, chartVersion: chartVersion, state: state, timers: [])
            }
            stored?.timers = try await Self.timers(of: session, on: connection, logger: logger)
            return stored
        }
    }

    public func outbox(limit: Int) async throws -> [OutboxMessage] {
        try await transaction { connection, logger in
            var messages: [OutboxMessage] = []
            for try await (id, session, target, name, body) in try await connection.query(
                "SELECT id, session_id, target, name, body FROM statechart_outbox ORDER BY seq LIMIT \(limit)",
                logger: logger).decode((String, String, String, String, Data).self) {
                messages.append(OutboxMessage(id: id, session: session, target: target, name: name, body: body))
            }
            return messages
        }
    }

    public func acknowledge(_ ids: [String]) async throws {
        try await transaction { connection, logger in
            for id in ids { try await connection.query("DELETE FROM statechart_outbox WHERE id = \(id)", logger: logger) }
        }
    }

    public func faults() async throws -> [SessionFault] {
        try await transaction { connection, logger in
            var faults: [SessionFault] = []
            for try await (session, reason) in try await connection.query(
                "SELECT session_id, reason FROM statechart_faults ORDER BY session_id", logger: logger).decode((String, String).self) {
                faults.append(SessionFault(session: session, reason: reason))
            }
            return faults
        }
    }

    public func backlog() async throws -> (messages: Int, timers: Int) {
        try await transaction { connection, logger in
            var counts = (messages: 0, timers: 0)
            for try await (messages, timers) in try await connection.query(
                "SELECT (SELECT COUNT(*) FROM statechart_inbox), (SELECT COUNT(*) FROM statechart_timers)",
                logger: logger).decode((Int, Int).self) {
                counts = (messages, timers)
            }
            return counts
        }
    }

    public func appliedEvents(_ session: String) async throws -> [String] {
        try await transaction { connection, logger in
            var ids: [String] = []
            for try await (id) in try await connection.query(
                "SELECT event_id FROM statechart_applied WHERE session_id = \(session) ORDER BY session_version",
                logger: logger).decode(String.self) {
                ids.append(id)
            }
            return ids
        }
    }

    /// Runs `sql` (a statement of the application's, such as the tests' inspection queries) and
    /// returns the first column of each row as text.
    public func queryStrings(_ sql: String) async throws -> [String] {
        try await transaction { connection, logger in
            var values: [String] = []
            for try await (value) in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String.self) {
                values.append(value)
            }
            return values
        }
    }

    // MARK: - Helpers

    /// Thrown out of a claim's transaction to roll it back when the session is faulted.
    private struct SessionFaultAbort: Error { var error: DurableError }

    /// A pooled connection that failed at `BEGIN`, before anything of the transaction was sent.
    private struct StaleConnection: Error { var error: any Error }

    /// Whether `error` ended the connection: closed by either side, or a FATAL server error
    /// (such as `pg_terminate_backend`'s "terminating connection due to administrator command").
    private static func isConnectionLoss(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        return [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(error.code)
            || (error.code == .server && error.serverInfo?[.severity] == "FATAL")
    }

    private static func insert(_ message: InboxMessage, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        try await connection.query("INSERT INTO statechart_sessions (id) VALUES (\(message.session)) ON CONFLICT DO NOTHING", logger: logger)
        return try await exists("""
            INSERT INTO statechart_inbox (session_id, event_id, body)
            SELECT \(message.session), \(message.eventID), \(message.body)
            WHERE NOT EXISTS (SELECT 1 FROM statechart_applied WHERE session_id = \(message.session) AND event_id = \(message.eventID))
            ON CONFLICT DO NOTHING RETURNING 1
            """, on: connection, logger: logger)
    }

    private static func exists(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        for try await _ in try await connection.query(query, logger: logger) { return true }
        return false
    }

    private static func timers(of session: String, on connection: PostgresConnection, logger: Logger) async throws -> [TimerRow] {
        var timers: [TimerRow] = []
        for try await (sendID, order, due, body) in try await connection.query(
            "SELECT send_id, ord, due, body FROM statechart_timers WHERE session_id = \(session) ORDER BY due, ord",
            logger: logger).decode((String, Int, Int64, Data).self) {
            timers.append(TimerRow(sendID: sendID, order: order, due: due, body: body))
        }
        return timers
    }

    /// Runs `body` in a transaction on one connection: committed when it returns, rolled back
    /// when it throws. Database failures become ``DurableError/storage(_:)``; `recovering`
    /// turns an error of the body into a result after the rollback.
    @discardableResult
    private func transaction<T: Sendable>(_ body: (PostgresConnection, Logger) async throws -> T,
                                          recovering: (any Error) -> T? = { _ in nil }) async throws -> T {
        let logger = self.logger
        do {
            // A connection the server closed (a restart, `pg_terminate_backend`) can still be in
            // the pool and fail at BEGIN: nothing was sent, so the transaction starts again on
            // another connection, at most once per pooled connection.
            var attempts = 0
            while true {
                do {
                    return try await client.withConnection { connection in
                        do {
                            try await connection.query("BEGIN", logger: logger)
                        } catch {
                            throw StaleConnection(error: error)
                        }
                        do {
                            let result = try await body(connection, logger)
                            try await connection.query("COMMIT", logger: logger)
                            return result
                        } catch {
                            // A lost connection's transaction ended with it on the server. It is
                            // closed here, before the pool gets it back: a query sent to a
                            // connection still closing may never be answered.
                            if Self.isConnectionLoss(error) {
                                try? await connection.close()
                            } else {
                                _ = try? await connection.query("ROLLBACK", logger: logger)
                            }
                            throw error
                        }
                    }
                } catch let stale as StaleConnection {
                    attempts += 1
                    if attempts > connections { throw stale.error }
                }
            }
        } catch {
            if let value = recovering(error) { return value }
            if let error = error as? DurableError { throw error }
            throw DurableError.storage(String(reflecting: error))
        }
    }
}
