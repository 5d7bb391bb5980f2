import Foundation
import Statechart
import Synchronization

/// Typed `StateMachine`s with their context as a ``DurableMachineKind``: the stored state is
/// the machine's `ContextSnapshot` as JSON, so states, events and the context (the events'
/// `Context`) are `Codable`.
///
/// ```swift
/// struct Order: Codable, Sendable { var paid = 0 }
/// let kind = DurableChart(orderChart, version: "orders-1") { session in Order() }
/// ```
/// Actions send outward (to another session, or to the application's outbox handler) with
/// `StateMachine.Context.sendOutward(_:name:to:)`; those events are
/// committed with the macrostep.
public struct DurableChart<State: Hashable & Sendable & Codable, Event: ChartEvent & Codable, Context: Sendable & Codable>: DurableMachineKind
where Event.Context == Context {
    /// The chart.
    public let chart: TypedChart<State, Event>
    /// The version written with every snapshot: change it whenever a change of the chart or
    /// the context makes old snapshots wrong to restore.
    public let version: String
    /// Bounds of the machines.
    public let options: MachineOptions
    /// The context of a new session.
    public let initialContext: @Sendable (_ session: String) -> Context

    /// A kind for `chart`, whose sessions start with `initialContext(session)`.
    public init(_ chart: TypedChart<State, Event>, version: String, options: MachineOptions = MachineOptions(),
                context initialContext: @escaping @Sendable (_ session: String) -> Context) {
        self.chart = chart
        self.version = version
        self.options = options
        self.initialContext = initialContext
    }

    /// The stored form: the machine's snapshot with its context.
    public typealias Snapshot = StateMachine<State, Event>.ContextSnapshot<Context>
    private typealias Delayed = StateMachine<State, Event>.Snapshot.DelayedEvent
    private typealias Pending = StateMachine<State, Event>.Snapshot.PendingEvent

    public func encode(_ event: Event) throws -> Data {
        try JSONEncoder().encode(event)
    }

    public func makeInstance(session: String, clock: TestClock) throws -> Instance {
        let machine = StateMachine(chart, options: options, clock: clock, context: initialContext(session))
        let instance = Instance(machine: machine)
        try machine.start()
        return instance
    }

    public func restoreInstance(session: String, state: Data, timers: [PendingTimer], clock: TestClock) throws -> Instance {
        let snapshot = try decodeSnapshot(state: state, timers: timers)
        return Instance(machine: try StateMachine(chart, restoring: snapshot, options: options, clock: clock))
    }

    public func decodeSnapshot(state: Data, timers: [PendingTimer]) throws -> Snapshot {
        let decoder = JSONDecoder()
        var snapshot = try decoder.decode(Snapshot.self, from: state)
        snapshot.machine.delayedEvents = try timers.map {
            Delayed(sendID: $0.sendID, event: try decoder.decode(Pending.self, from: $0.body), remaining: $0.remaining)
        }
        return snapshot
    }

    /// One session's typed machine.
    public final class Instance: DurableInstance {
        /// The machine.
        public let machine: StateMachine<State, Event>
        let outbox = OutboxBuffer()

        init(machine: StateMachine<State, Event>) {
            self.machine = machine
            OutboxBuffer.register(outbox, for: machine)
        }

        deinit { OutboxBuffer.unregister(machine) }

        public func apply(_ body: Data) throws {
            _ = try machine.send(JSONDecoder().decode(Event.self, from: body))
        }

        public func capture() throws -> (state: Data, timers: [PendingTimer]) {
            try storageForm(of: machine.snapshotWithContext(), delayed: \.machine.delayedEvents) {
                ($0.sendID, $0.remaining, $0.event)
            }
        }

        public func takeOutbox() -> [OutgoingEvent] { outbox.take() }
    }
}

/// The events a machine's actions sent outward during the running macrostep, found by the
/// machine from its actions (``StateMachine/Context/sendOutward(_:name:to:)``).
final class OutboxBuffer: Sendable {
    private let events = Mutex<[OutgoingEvent]>([])
    private static let buffers = Mutex<[ObjectIdentifier: OutboxBuffer]>([:])

    func append(_ event: OutgoingEvent) { events.withLock { $0.append(event) } }
    func take() -> [OutgoingEvent] { events.withLock { events in defer { events = [] }; return events } }

    static func register(_ buffer: OutboxBuffer, for machine: AnyObject) {
        buffers.withLock { $0[ObjectIdentifier(machine)] = buffer }
    }
    static func unregister(_ machine: AnyObject) {
        _ = buffers.withLock { $0.removeValue(forKey: ObjectIdentifier(machine)) }
    }
    static func buffer(of machine: AnyObject) -> OutboxBuffer? {
        buffers.withLock { $0[ObjectIdentifier(machine)] }
    }
}

extension StateMachine.Context {
    /// Sends `event` outward from a durable session's action: to another session of the same
    /// store (`target` `"session:<id>"`, where it must be one of that session's events) or to
    /// the application's outbox handler (any other target). The event is committed with the
    /// running macrostep and delivered after the commit, with a stable id.
    ///
    /// ```swift
    /// OnEntry { ctx in ctx.sendOutward(Shipping.ship(order: 17), to: "session:shipping") }
    /// ```
    /// - Returns: `false` when the machine is not run by ``DurableSessions`` or `event` cannot
    ///   be encoded as JSON (nothing is sent).
    @discardableResult
    public func sendOutward<Message: Encodable>(_ event: Message, name: String? = nil, to target: String) -> Bool {
        guard let machine, let buffer = OutboxBuffer.buffer(of: machine),
              let body = try? JSONEncoder().encode(event) else { return false }
        buffer.append(OutgoingEvent(target: target, name: name ?? "\(event)", body: body))
        return true
    }
}
