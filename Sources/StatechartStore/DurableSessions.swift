import Foundation
import Statechart
import Synchronization

/// Sessions of one machine kind that survive crashes: every event has a sender-chosen id,
/// waits in its session's inbox, and is applied by one macrostep whose result (the snapshot,
/// the event id, the delayed events as rows with a due time, the events sent outward) is
/// committed in one transaction. After a crash a session resumes after its last committed
/// event; an event enqueued twice is applied once.
///
/// ```swift
/// let store = try SQLiteSessionStore(path: "orders.sqlite")
/// let orders = DurableSessions(store: store, kind: DurableChart(orderChart, version: "orders-1") { _ in Order() })
/// try await orders.prepare()
/// try await orders.send(.paid(amount: 30), id: "pay-17", to: "order-17")
/// try await orders.processAvailable()          // or run(until:) in worker processes
/// ```
///
/// **Batches.** With `eventsPerClaim` above 1, a claim applies up to that many of the
/// session's waiting events, each its own macrostep in order, and commits them together: one
/// transaction for the batch, every event id in the log, all of it or none (a failed commit
/// or a crash leaves every event of the batch waiting, to be applied once by a later claim).
/// It trades the commit per event for a longer hold of the session:
///
/// ```swift
/// let orders = DurableSessions(store: store, kind: kind, eventsPerClaim: 50)
/// ```
///
/// Any number of `DurableSessions` (threads, processes, hosts on PostgreSQL) may work on one
/// store: the store lets one of them at a time claim a session. Each caches the machines it
/// ran and reuses one while the stored version is the one it committed; otherwise it restores
/// the session from the store.
public final class DurableSessions<Kind: DurableMachineKind>: Sendable {
    /// The store.
    public let store: any SessionStore
    /// The machine kind.
    public let kind: Kind
    /// This worker's name, recorded by stores that log who applied what.
    public let worker: String
    /// The most waiting events of one session a claim applies and commits together.
    public let eventsPerClaim: Int

    private let cache = Mutex<[String: CachedInstance]>([:])

    /// What the claim's body ran, read after the store returns.
    private final class ClaimRecord: Sendable {
        private let value = Mutex<(session: String, cached: CachedInstance?)?>(nil)
        func set(_ session: String, _ cached: CachedInstance?) { value.withLock { $0 = (session, cached) } }
        var session: String? { value.withLock { $0?.session } }
        var cached: CachedInstance? { value.withLock { $0?.cached } }
    }

    private struct CachedInstance: @unchecked Sendable {
        // @unchecked: the instance is used only by the holder of its session's claim, and the
        // claim's body runs on one thread at a time.
        var instance: Kind.Instance
        var clock: TestClock
        var version: Int64
    }

    /// Sessions of `kind` in `store`, worked on by `worker`, each claim applying up to
    /// `eventsPerClaim` (at least 1) of a session's waiting events in one transaction.
    public init(store: any SessionStore, kind: Kind, worker: String = "worker-\(ProcessInfo.processInfo.processIdentifier)",
                eventsPerClaim: Int = 1) {
        self.store = store
        self.kind = kind
        self.worker = worker
        self.eventsPerClaim = max(1, eventsPerClaim)
    }

    /// Creates or migrates the store's tables.
    public func prepare() async throws {
        try await store.migrate()
    }

    /// Puts `event` in `session`'s inbox under the sender's `id` (creating the session when it
    /// has never been seen). Applying it is the workers' job (``processNext(now:)``).
    ///
    /// ```swift
    /// try await orders.send(.cancel, id: "cancel-17", to: "order-17")
    /// ```
    /// - Returns: `false` when `session` already had an event with this id, waiting or applied.
    @discardableResult
    public func send(_ event: Kind.Event, id: String, to session: String) async throws -> Bool {
        try await store.enqueue([InboxMessage(session: session, eventID: id, body: kind.encode(event))]) == 1
    }

    /// Enqueues several events at once (one transaction), in order.
    @discardableResult
    public func send(_ events: [(event: Kind.Event, id: String, session: String)]) async throws -> Int {
        try await store.enqueue(events.map { InboxMessage(session: $0.session, eventID: $0.id, body: try kind.encode($0.event)) })
    }

    /// Claims one session with work, applies its timers due by `now` and its next events (up to
    /// ``eventsPerClaim``), and commits. Returns `nil` when there is no work.
    ///
    /// - Throws: ``DurableError/storage(_:)`` when the database fails; nothing was committed
    ///   and the session's cached machine is dropped, so the next claim restores it from the
    ///   store. Faulted sessions are not errors: they come back as ``ProcessedWork/faulted(_:)``.
    ///   A `MachineError` of the macrostep (a runaway, a full queue) is not one either: the
    ///   machine stopped the macrostep and stays usable, and what it holds is committed.
    @discardableResult
    public func processNext(now: Date = Date()) async throws -> ProcessedWork? {
        let ran = ClaimRecord()
        do {
            let result = try await store.process(now: now, worker: worker, limit: eventsPerClaim) { [self] work in
                let session = work.stored.session
                ran.set(session, nil)
                let (commit, cached) = try run(work)
                ran.set(session, cached)
                return commit
            }
            if case .committed(let session, _)? = result, let cached = ran.cached {
                cache.withLock { $0[session] = cached }
            } else if let session = ran.session {
                cache.withLock { $0[session] = nil }
            }
            return result
        } catch {
            if let session = ran.session { cache.withLock { $0[session] = nil } }
            throw error
        }
    }

    /// Calls ``processNext(now:)`` until there is no work left or `limit` claims were made.
    /// - Returns: the claims made.
    @discardableResult
    public func processAvailable(now: @Sendable () -> Date = { Date() }, limit: Int = 1_000_000) async throws -> [ProcessedWork] {
        var done: [ProcessedWork] = []
        while done.count < limit, let work = try await processNext(now: now()) { done.append(work) }
        return done
    }

    /// Works until `stop` returns `true`: processes while there is work, else waits `idle`
    /// (timers fall due, other processes enqueue). Each database error is passed to `onError`
    /// and the loop goes on after `idle`.
    public func run(idle: Duration = .milliseconds(20), onError: @Sendable (any Error) -> Void = { _ in },
                    until stop: @Sendable () -> Bool) async {
        while !stop() {
            do {
                if try await processNext() == nil { try await Task.sleep(for: idle) }
            } catch {
                onError(error)
                try? await Task.sleep(for: idle)
            }
        }
    }

    /// Hands every committed outbox message to `deliver` in order, acknowledging each one it
    /// returns from without throwing: delivery is at least once (a crash between `deliver` and
    /// the acknowledgement delivers again, with the same id).
    /// - Returns: how many were delivered.
    @discardableResult
    public func deliverOutbox(limit: Int = 1_000, _ deliver: (OutboxMessage) async throws -> Void) async throws -> Int {
        var delivered = 0
        for message in try await store.outbox(limit: limit) {
            try await deliver(message)
            try await store.acknowledge([message.id])
            delivered += 1
        }
        return delivered
    }

    /// The session's stored state decoded (its delayed events with the time left from now), or
    /// `nil` before its first commit.
    public func snapshot(of session: String) async throws -> Kind.Snapshot? {
        guard let stored = try await store.load(session), let state = stored.state else { return nil }
        do {
            let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
            return try kind.decodeSnapshot(state: state, timers: stored.timers.map {
                PendingTimer(sendID: $0.sendID, remaining: .milliseconds(max(0, $0.due - now)), body: $0.body)
            })
        } catch {
            throw DurableError.unreadableSession(session: session, reason: "\(error)")
        }
    }

    // MARK: - One claim

    private func run(_ work: ClaimedWork) throws -> (SessionCommit, CachedInstance) {
        let stored = work.stored
        let session = stored.session
        if let version = stored.chartVersion, version != kind.version {
            throw DurableError.chartVersionMismatch(session: session, stored: version, expected: kind.version)
        }
        let now = Duration.milliseconds(work.now)
        var cached = cache.withLock { $0[session] }
        if cached?.version != stored.version { cached = nil }
        if cached == nil {
            let clock = TestClock(now: now)
            let instance: Kind.Instance
            if let state = stored.state {
                // Overdue timers are due at once, in their stored order (due time, then order).
                let timers = stored.timers.map {
                    PendingTimer(sendID: $0.sendID, remaining: .milliseconds(max(0, $0.due - work.now)), body: $0.body)
                }
                do {
                    instance = try kind.restoreInstance(session: session, state: state, timers: timers, clock: clock)
                } catch let error as DurableError {
                    throw error
                } catch {
                    throw DurableError.unreadableSession(session: session, reason: "\(error)")
                }
            } else {
                instance = try kind.makeInstance(session: session, clock: clock)
            }
            cached = CachedInstance(instance: instance, clock: clock, version: stored.version)
        }
        guard var cached else { preconditionFailure("set above") }
        // Timers due by now fire first, each its own macrostep, in due order.
        cached.clock.advance(to: now)
        for message in work.messages {
            do {
                try cached.instance.apply(message.body)
            } catch let error as DecodingError {
                throw DurableError.unreadableEvent(session: session, eventID: message.eventID, reason: "\(error)")
            } catch is MachineError {
                // A runaway or overflowing macrostep was stopped by the machine, which stays
                // usable: its state is committed as an in-memory machine would keep it, so the
                // event is not retried forever.
            }
        }
        let (state, pending) = try cached.instance.capture()
        let base = Int64(cached.clock.now.components.seconds) * 1000 + cached.clock.now.components.attoseconds / 1_000_000_000_000_000
        let timers = pending.enumerated().map { index, timer in
            let ms = timer.remaining.components.seconds * 1000 + timer.remaining.components.attoseconds / 1_000_000_000_000_000
            return TimerRow(sendID: timer.sendID, order: index, due: base + ms, body: timer.body)
        }
        let version = SessionCommit.version(after: stored.version, applying: work.messages.count)
        let outbox = cached.instance.takeOutbox().enumerated().map { index, event in
            OutboxMessage(id: "\(session)/\(version)/\(index)", session: session, target: event.target, name: event.name, body: event.body)
        }
        cached.version = version
        return (SessionCommit(state: state, chartVersion: kind.version, appliedEventIDs: work.messages.map(\.eventID),
                              timers: timers, outbox: outbox), cached)
    }
}
