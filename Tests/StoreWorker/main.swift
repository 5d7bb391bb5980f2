// The worker process of the durable-session crash tests (Tests/StatechartStoreTests): it
// enqueues events, works on sessions until told to stop or killed, and checks a store against
// an uninterrupted in-memory run of the same events. Every loop is bounded in count and time.
//
//   StatechartStoreWorker enqueue STORE SESSIONS EVENTS     events s<i>-e<j>, round robin
//   StatechartStoreWorker work STORE NAME SECONDS [IDLE_MS [BATCH]]
//                                                          work, BATCH events per claim (1);
//                                                          exit after SECONDS, or once idle
//                                                          IDLE_MS with no backlog
//   StatechartStoreWorker verify STORE SESSIONS EVENTS      compare with the in-memory run
//   StatechartStoreWorker timers STORE SESSION              schedule the timer test's events
//   StatechartStoreWorker fired STORE SESSION               print the timer test's firings
//   StatechartStoreWorker bench STORE SESSIONS EVENTS [BATCH]
//                                                          enqueue, then time processing
//   StatechartStoreWorker memory STORE SESSIONS EVENTS      the same events in memory, timed
//                                                          (STORE is opened, not used)
//
// STORE is `sqlite:PATH`, `sqlite-normal:PATH` (synchronous NORMAL) or a postgres:// URL.
import Foundation
import Statechart
import StatechartStore
import StatechartStorePostgres
import StatechartStoreSQLite

// MARK: - The ledger chart

enum LedgerState: String, Hashable, Sendable, Codable { case running, even, odd }

enum LedgerEvent: ChartEvent, Codable {
    case add(Int), schedule(tag: Int, afterMs: Int), cancel(tag: Int), fired(tag: Int)

    enum Name: Hashable, Sendable { case add, schedule, cancel, fired }
    var name: Name {
        switch self {
        case .add: .add
        case .schedule: .schedule
        case .cancel: .cancel
        case .fired: .fired
        }
    }
    typealias Context = Tally
}

/// The session's datamodel: an order-sensitive hash chain shows each event applied once, in order.
struct Tally: Sendable, Codable, Equatable {
    var count = 0
    var sum = 0
    var chain: UInt64 = 0xcbf2_9ce4_8422_2325
    var fired: [Int] = []
    var firedAt: [Int64] = []

    mutating func record(_ value: Int) {
        count += 1
        sum += value
        chain = (chain ^ UInt64(value)) &* 0x0000_0100_0000_01b3
    }
}

func ledgerChart() throws -> TypedChart<LedgerState, LedgerEvent> {
    @Sendable func add(_ ctx: StateMachine<LedgerState, LedgerEvent>.Context) {
        guard case .add(let value)? = ctx.event else { return }
        ctx.context.record(value)
        // Every tenth event is reported outward: committed with its macrostep.
        if ctx.context.count % 10 == 0 { ctx.sendOutward(value, name: "audit", to: "audit:ledger") }
    }
    return try TypedChart(name: "ledger") {
        StateNode(.running, initial: .even) {
            StateNode(.even) { On(.add, to: .odd, action: add) }
            StateNode(.odd) { On(.add, to: .even, action: add) }
            On(.schedule) { ctx in
                guard case .schedule(let tag, let afterMs)? = ctx.event else { return }
                ctx.send(.fired(tag: tag), after: .milliseconds(afterMs), id: "t\(tag)")
            }
            On(.cancel) { ctx in
                guard case .cancel(let tag)? = ctx.event else { return }
                ctx.cancel(sendID: "t\(tag)")
            }
            On(.fired) { ctx in
                guard case .fired(let tag)? = ctx.event else { return }
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                ctx.context.fired.append(tag)
                ctx.context.firedAt.append(now)
            }
        }
    }
}

func value(session: Int, event: Int) -> Int { (session * 7919 + event * 104_729) % 1000 }

// MARK: - Commands

func open(_ spec: String) throws -> any SessionStore {
    if spec.hasPrefix("sqlite:") { return try SQLiteSessionStore(path: String(spec.dropFirst(7)), synchronous: .full) }
    if spec.hasPrefix("sqlite-normal:") { return try SQLiteSessionStore(path: String(spec.dropFirst(14)), synchronous: .normal) }
    return try PostgresSessionStore(url: spec)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StatechartStoreWorker: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: see Tests/StoreWorker/main.swift") }
func integer(_ index: Int) -> Int {
    guard arguments.count > index, let value = Int(arguments[index]) else { fail("argument \(index) must be a number") }
    return value
}

let store = try open(arguments[2])
let batchArgument = ["work": 6, "bench": 5][arguments[1]].flatMap { arguments.count > $0 ? $0 : nil }
let sessions = DurableSessions(store: store, kind: DurableChart(try ledgerChart(), version: "ledger-1") { _ in Tally() },
                               worker: arguments.count > 3 ? arguments[3] : "worker",
                               eventsPerClaim: batchArgument.map(integer) ?? 1)
try await sessions.prepare()

switch arguments[1] {
case "enqueue":
    let (count, events) = (integer(3), integer(4))
    var batch: [(event: LedgerEvent, id: String, session: String)] = []
    for j in 0..<events {
        for i in 0..<count {
            batch.append((.add(value(session: i, event: j)), "s\(i)-e\(j)", "s\(i)"))
            if batch.count == 500 { try await sessions.send(batch); batch = [] }
        }
    }
    if !batch.isEmpty { try await sessions.send(batch) }

case "work":
    let deadline = ContinuousClock.now + .seconds(integer(4))
    let idleLimit = arguments.count > 5 ? Duration.milliseconds(integer(5)) : nil
    var idleSince: ContinuousClock.Instant?
    var lastError = ""
    while ContinuousClock.now < deadline {
        do {
            if try await sessions.processNext() != nil { idleSince = nil; continue }
        } catch {
            // Reported once per kind of failure; the loop goes on (the store may come back).
            let text = "\(error)"
            if text != lastError { FileHandle.standardError.write(Data("StatechartStoreWorker: \(text)\n".utf8)) }
            lastError = text
        }
        let now = ContinuousClock.now
        if let idleLimit, let since = idleSince, now - since >= idleLimit,
           (try? await store.backlog())?.messages == 0 { break }
        if idleSince == nil { idleSince = now }
        try await Task.sleep(for: .milliseconds(5))
    }

case "verify":
    let (count, events) = (integer(3), integer(4))
    let chart = try ledgerChart()
    var mismatches: [String] = []
    for i in 0..<count {
        let reference = StateMachine(chart, clock: TestClock(), context: Tally())
        try reference.start()
        for j in 0..<events { _ = try reference.send(.add(value(session: i, event: j))) }
        let expected = try reference.snapshotWithContext()
        guard let stored = try await sessions.snapshot(of: "s\(i)") else { mismatches.append("s\(i): not stored"); continue }
        if stored.machine.activeStates != expected.machine.activeStates || stored.context != expected.context {
            mismatches.append("s\(i): stored \(stored.machine.activeStates) \(stored.context), expected \(expected.machine.activeStates) \(expected.context)")
        }
        let applied = try await store.appliedEvents("s\(i)")
        if applied != (0..<events).map({ "s\(i)-e\($0)" }) {
            mismatches.append("s\(i): applied log has \(applied.count) events, \(Set(applied).count) distinct, not e0...e\(events - 1) in order")
        }
    }
    var outbox: [String: Int] = [:]
    for message in try await store.outbox(limit: 1_000_000) { outbox[message.id, default: 0] += 1 }
    if outbox.count != count * (events / 10) { mismatches.append("outbox has \(outbox.count) messages, expected \(count * (events / 10))") }
    let backlog = try await store.backlog()
    if backlog.messages != 0 { mismatches.append("\(backlog.messages) messages still in the inboxes") }
    if !mismatches.isEmpty { fail(mismatches.prefix(10).joined(separator: "\n")) }
    print("verified \(count) sessions, \(count * events) events applied once each, \(outbox.count) outbox messages")

case "timers":
    // Due 1.5 s, 0.5 s, 1 s and 4 s from now; the 2.5 s one is cancelled.
    let session = arguments[3]
    try await sessions.send([(.schedule(tag: 1, afterMs: 1500), "\(session)-1", session),
                             (.schedule(tag: 2, afterMs: 500), "\(session)-2", session),
                             (.schedule(tag: 3, afterMs: 1000), "\(session)-3", session),
                             (.schedule(tag: 4, afterMs: 4000), "\(session)-4", session),
                             (.schedule(tag: 5, afterMs: 2500), "\(session)-5", session),
                             (.cancel(tag: 5), "\(session)-6", session)])

case "fired":
    let stored = try await sessions.snapshot(of: arguments[3])
    let timers = try await store.load(arguments[3])?.timers ?? []
    print("fired \(stored?.context.fired ?? []) at \(stored?.context.firedAt ?? []) pending \(timers.map { "\($0.sendID)@\($0.due)" })")

case "bench":
    let (count, events) = (integer(3), integer(4))
    var batch: [(event: LedgerEvent, id: String, session: String)] = []
    for j in 0..<events { for i in 0..<count { batch.append((.add(value(session: i, event: j)), "s\(i)-e\(j)", "s\(i)")) } }
    try await sessions.send(batch)
    let start = ContinuousClock.now
    let claims = try await sessions.processAvailable().count
    let elapsed = ContinuousClock.now - start
    let left = try await store.backlog().messages
    if left != 0 { fail("\(left) events still wait after the run") }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let done = count * events
    print(String(format: "%d events in %d claims, %.2f s: %.0f events/s", done, claims, seconds, Double(done) / seconds))

case "memory":
    // The same events sent to in-memory machines, and with a snapshot encoded after each one
    // (what a durable commit writes), for the cost of durability against the plain send.
    let (count, events) = (integer(3), integer(4))
    let chart = try ledgerChart()
    let machines = try (0..<count).map { _ in
        let machine = StateMachine(chart, clock: TestClock(), context: Tally())
        try machine.start()
        return machine
    }
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
    let plain = try seconds { for j in 0..<events { for i in 0..<count { _ = try machines[i].send(.add(value(session: i, event: j))) } } }
    let encoder = JSONEncoder()
    let captured = try seconds {
        for j in 0..<events {
            for i in 0..<count {
                _ = try machines[i].send(.add(value(session: i, event: j)))
                _ = try encoder.encode(machines[i].snapshotWithContext())
            }
        }
    }
    let total = Double(count * events)
    print(String(format: "in-memory send %.2f us/event; send + snapshot + JSON %.2f us/event", plain / total * 1e6, captured / total * 1e6))

default:
    fail("unknown command '\(arguments[1])'")
}
exit(0)
