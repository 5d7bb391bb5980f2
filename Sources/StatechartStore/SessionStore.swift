import Foundation

/// Where durable sessions live: a database that keeps, per session, the last committed
/// snapshot, the ids of the events applied, an inbox of events waiting, the pending delayed
/// events as rows with a due time, and an outbox of events sent outward.
///
/// ``DurableSessions`` drives a store; applications pick an implementation
/// (`SQLiteSessionStore` in StatechartStoreSQLite, `PostgresSessionStore` in
/// StatechartStorePostgres) and never call these methods themselves.
///
/// ```swift
/// let store = try SQLiteSessionStore(path: "orders.sqlite")
/// let sessions = DurableSessions(store: store, kind: DurableChart(orderChart, version: "orders-1", context: Order()))
/// ```
///
/// Contract every implementation keeps:
/// - ``process(now:worker:limit:_:)`` claims at most one session with work, so that no other
///   caller (thread or process) works on it until the claim ends, hands its body up to `limit`
///   of the session's inbox messages, and writes what the body returns in one transaction: the
///   snapshot, the applied events' ids, the removal of those inbox messages, the session's
///   complete set of timers, and the outbox; either all of it or none.
/// - An event id is applied at most once per session, even when enqueued again after it was
///   applied.
/// - Messages of one session are claimed in the order they were enqueued.
public protocol SessionStore: Sendable {
    /// Creates the tables, or brings them to ``SessionStoreSchema/currentVersion``; safe to call
    /// from several processes at once and on every start.
    func migrate() async throws

    /// Puts `messages` in their sessions' inboxes (creating sessions not seen before), in
    /// order, skipping each one whose event id its session already has waiting or applied.
    /// - Returns: how many were added.
    @discardableResult
    func enqueue(_ messages: [InboxMessage]) async throws -> Int

    /// Claims one session that has a message waiting or a timer due by `now`, runs `body` with
    /// what is stored for it and its first `limit` (at least 1) inbox messages, and commits what
    /// `body` returns. Returns `nil` when no session has work (or all that have are claimed by
    /// others or faulted).
    ///
    /// When `body` throws a ``DurableError`` that names the session's data
    /// (``DurableError/chartVersionMismatch(session:stored:expected:)``,
    /// ``DurableError/unreadableSession(session:reason:)``), nothing of the session is changed;
    /// the store records the fault beside it (``faults()``) and stops offering the session, so
    /// the others go on. Any other error rolls the transaction back and is rethrown.
    func process(now: Date, worker: String, limit: Int,
                 _ body: @escaping @Sendable (ClaimedWork) throws -> SessionCommit) async throws -> ProcessedWork?

    /// The stored state of `session`, or `nil` when it has none yet.
    func load(_ session: String) async throws -> StoredSession?

    /// Messages committed to the outbox and not yet acknowledged, oldest first.
    func outbox(limit: Int) async throws -> [OutboxMessage]

    /// Removes delivered outbox messages.
    func acknowledge(_ ids: [String]) async throws

    /// The sessions refused with a fault, and why.
    func faults() async throws -> [SessionFault]

    /// How many inbox messages and timers are waiting, over all sessions.
    func backlog() async throws -> (messages: Int, timers: Int)

    /// The log of applied events of `session`: event ids in the order they were applied.
    func appliedEvents(_ session: String) async throws -> [String]
}

/// The schema version the stores write; a store opened on a database with a higher version
/// refuses it (``DurableError/newerSchema(found:supported:)``).
public enum SessionStoreSchema {
    /// Version 1: sessions, applied events, inbox, timers, outbox, faults.
    public static let currentVersion = 1
}

/// An event waiting in a session's inbox.
public struct InboxMessage: Sendable, Hashable {
    /// The session it is for.
    public var session: String
    /// The sender's id for the event: the session applies each id once.
    public var eventID: String
    /// The event as its machine kind encodes it (``DurableMachineKind/encode(_:)``).
    public var body: Data

    /// A message for `session`.
    public init(session: String, eventID: String, body: Data) {
        self.session = session
        self.eventID = eventID
        self.body = body
    }
}

/// A delayed event as a row: due at `due` (milliseconds since 1970, UTC), ordered by `order`
/// among events due at the same time.
public struct TimerRow: Sendable, Hashable {
    /// The send id (`<cancel>` and `cancel(sendID:)` name it).
    public var sendID: String
    /// Position among the session's timers in delivery order.
    public var order: Int
    /// When it is due, in milliseconds since 1970 (UTC).
    public var due: Int64
    /// The delayed event in the machine kind's snapshot form.
    public var body: Data

    /// A timer row.
    public init(sendID: String, order: Int, due: Int64, body: Data) {
        self.sendID = sendID
        self.order = order
        self.due = due
        self.body = body
    }
}

/// An event a session sent outward, committed with the macrostep that sent it.
public struct OutboxMessage: Sendable, Hashable {
    /// Unique and stable: `<session>/<version>/<n>`, the same if the macrostep is run again.
    public var id: String
    /// The sending session.
    public var session: String
    /// Where it goes: `session:<id>` for another durable session of the same store
    /// (delivered to its inbox in the same transaction), anything else for the application's
    /// outbox handler.
    public var target: String
    /// The event's name.
    public var name: String
    /// The event as JSON (its kind's encoding for a session target).
    public var body: Data

    /// An outbox message.
    public init(id: String, session: String, target: String, name: String, body: Data) {
        self.id = id
        self.session = session
        self.target = target
        self.name = name
        self.body = body
    }

    /// The prefix of targets that are durable sessions of the same store.
    public static let sessionTargetPrefix = "session:"
}

/// What a store holds for a session.
public struct StoredSession: Sendable, Hashable {
    /// The session's id.
    public var session: String
    /// Advanced by every commit (``SessionCommit/version(after:)``); 0: created by an enqueue,
    /// never run. The applied-event log is ordered by it.
    public var version: Int64
    /// The chart or document version that wrote the snapshot; `nil` before the first commit.
    public var chartVersion: String?
    /// The snapshot, without its delayed events (they are ``timers``); `nil` before the first commit.
    public var state: Data?
    /// The pending delayed events, in due order.
    public var timers: [TimerRow]

    /// A stored session.
    public init(session: String, version: Int64, chartVersion: String?, state: Data?, timers: [TimerRow]) {
        self.session = session
        self.version = version
        self.chartVersion = chartVersion
        self.state = state
        self.timers = timers
    }
}

/// What a claim hands to ``SessionStore/process(now:worker:limit:_:)``'s body.
public struct ClaimedWork: Sendable {
    /// The session as stored.
    public var stored: StoredSession
    /// The next inbox messages in enqueue order, at most the claim's limit; empty when the
    /// claim is for due timers only. A message whose event id was applied already never reaches
    /// the body: the store removes it.
    public var messages: [InboxMessage]
    /// The claim's time, in milliseconds since 1970 (UTC).
    public var now: Int64

    /// A claim.
    public init(stored: StoredSession, messages: [InboxMessage], now: Int64) {
        self.stored = stored
        self.messages = messages
        self.now = now
    }
}

/// What a processed claim writes, in one transaction.
public struct SessionCommit: Sendable {
    /// The new snapshot without its delayed events.
    public var state: Data
    /// The chart or document version.
    public var chartVersion: String
    /// The ids of the events applied, in order, recorded in the log; empty for timers only.
    public var appliedEventIDs: [String]
    /// The session's timers after the macrosteps (replacing all stored ones).
    public var timers: [TimerRow]
    /// The events sent outward.
    public var outbox: [OutboxMessage]

    /// A commit.
    public init(state: Data, chartVersion: String, appliedEventIDs: [String], timers: [TimerRow], outbox: [OutboxMessage]) {
        self.state = state
        self.chartVersion = chartVersion
        self.appliedEventIDs = appliedEventIDs
        self.timers = timers
        self.outbox = outbox
    }

    /// The session's version once this commit is written over `stored`: one more per applied
    /// event (at least one), so the applied event `appliedEventIDs[i]` is logged with version
    /// `stored + 1 + i` and the log keeps the order of a batch.
    public func version(after stored: Int64) -> Int64 {
        Self.version(after: stored, applying: appliedEventIDs.count)
    }

    /// The version after `stored` of a commit applying `events` events.
    public static func version(after stored: Int64, applying events: Int) -> Int64 {
        stored + Int64(max(1, events))
    }
}

/// What one call of ``SessionStore/process(now:worker:limit:_:)`` did.
public enum ProcessedWork: Sendable, Hashable {
    /// The session's messages or due timers were applied and committed; `version` is the
    /// session's version after the commit.
    case committed(session: String, version: Int64)
    /// The session's next message was a duplicate of an applied event and was removed (with
    /// any other duplicates among the messages the claim read); nothing was applied.
    case duplicate(session: String, eventID: String)
    /// The session was refused and recorded as faulted; its data is untouched.
    case faulted(SessionFault)
}

/// A session a store refused to run, and why.
public struct SessionFault: Sendable, Hashable {
    /// The session.
    public var session: String
    /// The error's description.
    public var reason: String

    /// A fault.
    public init(session: String, reason: String) {
        self.session = session
        self.reason = reason
    }
}
