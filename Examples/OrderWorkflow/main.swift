// The durable order workflow of the StatechartStore article (DurableSessionsArticle.md):
//
//   OrderWorkflowExample sqlite PATH       one process on SQLite: enqueue, apply, deliver
//   OrderWorkflowExample postgres URL      two worker processes over PostgreSQL (this program
//                                          started twice as `worker`), fed by this one
//   OrderWorkflowExample worker URL NAME   one worker, until no order has work for 2 s
//
// Every loop is bounded in time. PostgreSQL: `eval "$(scripts/postgres.sh start)"` gives a URL.
import Foundation
import Statechart
import StatechartStore
import StatechartStorePostgres
import StatechartStoreSQLite

enum OrderState: String, Hashable, Sendable, Codable { case open, paid, shipped, cancelled }

enum OrderEvent: ChartEvent, Codable {
    case add(price: Int), pay(amount: Int), ship, cancel, reminder

    enum Name: Hashable, Sendable { case add, pay, ship, cancel, reminder }
    var name: Name {
        switch self {
        case .add: .add
        case .pay: .pay
        case .ship: .ship
        case .cancel: .cancel
        case .reminder: .reminder
        }
    }

    /// The order workflow's context.
    typealias Context = Order
}

struct Order: Sendable, Codable { var total = 0; var paid = 0; var reminders = 0 }

func orderChart() throws -> TypedChart<OrderState, OrderEvent> {
    try TypedChart(name: "order") {
        StateNode(.open) {
            // A durable timer: a row with a due time, fired after a restart if it passed meanwhile.
            OnEntry { ctx in ctx.send(.reminder, after: .milliseconds(500), id: "remind") }
            On(.add) { ctx in
                guard case .add(let price)? = ctx.event else { return }
                ctx.context.total += price
            }
            On(.reminder) { ctx in ctx.context.reminders += 1 }
            On(.pay, to: .paid) { ctx in
                guard case .pay(let amount)? = ctx.event else { return }
                ctx.cancel(sendID: "remind")
                ctx.context.paid += amount
                // Committed with this macrostep; delivered after the commit, at least once.
                ctx.sendOutward(["amount": amount], name: "paid", to: "mail:billing")
            }
            On(.cancel, to: .cancelled)
        }
        StateNode(.paid) { On(.ship, to: .shipped) }
        Final(.shipped)
        Final(.cancelled)
    }
}

/// What the front end sends: each event with the id its sender gave it.
let traffic: [(event: OrderEvent, id: String, session: String)] = [
    (.add(price: 30), "cart-1a", "order-1"), (.add(price: 12), "cart-1b", "order-1"),
    (.pay(amount: 42), "psp-1001", "order-1"), (.pay(amount: 42), "psp-1001", "order-1"),   // a retried delivery
    (.ship, "wh-1", "order-1"),
    (.add(price: 5), "cart-2a", "order-2"), (.cancel, "user-2", "order-2"),
    (.add(price: 8), "cart-3a", "order-3"),                                                // left open: reminded
    (.add(price: 20), "cart-4a", "order-4"), (.pay(amount: 20), "psp-1002", "order-4"),
]

func report(_ orders: DurableSessions<DurableChart<OrderState, OrderEvent, Order>>) async throws {
    for session in ["order-1", "order-2", "order-3", "order-4"] {
        guard let snapshot = try await orders.snapshot(of: session) else { continue }
        let context = snapshot.context
        print("\(session): \(snapshot.machine.activeStates.map(\.rawValue).joined(separator: ",")) total \(context.total) paid \(context.paid) reminders \(context.reminders)")
    }
    try await orders.deliverOutbox { message in
        print("deliver \(message.name) \(String(decoding: message.body, as: UTF8.self)) to \(message.target) as \(message.id)")
    }
}

let kind = DurableChart(try orderChart(), version: "order-1") { _ in Order() }
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: OrderWorkflowExample sqlite PATH | postgres URL | worker URL NAME\n".utf8))
    exit(2)
}

switch arguments[1] {
case "sqlite":
    let orders = DurableSessions(store: try SQLiteSessionStore(path: arguments[2]), kind: kind)
    try await orders.prepare()
    let accepted = try await orders.send(traffic)
    print("accepted \(accepted) of \(traffic.count) events (the retried payment is refused)")
    let deadline = ContinuousClock.now + .seconds(2)        // long enough for one reminder
    while ContinuousClock.now < deadline {
        if try await orders.processNext() == nil { try await Task.sleep(for: .milliseconds(20)) }
    }
    try await report(orders)

case "postgres":
    let url = arguments[2]
    let orders = DurableSessions(store: try PostgresSessionStore(url: url), kind: kind)
    try await orders.prepare()
    let workers = try ["w1", "w2"].map { name in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["worker", url, name]
        try process.run()
        return process
    }
    let accepted = try await orders.send(traffic)
    print("accepted \(accepted) of \(traffic.count) events (the retried payment is refused)")
    for worker in workers { worker.waitUntilExit() }
    try await report(orders)

case "worker":
    guard arguments.count >= 4 else { exit(2) }
    let orders = DurableSessions(store: try PostgresSessionStore(url: arguments[2]), kind: kind, worker: arguments[3])
    let deadline = ContinuousClock.now + .seconds(30)
    var lastWork = ContinuousClock.now
    var applied = 0
    while ContinuousClock.now < deadline, ContinuousClock.now - lastWork < .seconds(2) {
        if try await orders.processNext() != nil {
            lastWork = .now
            applied += 1
        } else {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
    print("\(arguments[3]) applied \(applied)")

default:
    exit(2)
}
exit(0)
