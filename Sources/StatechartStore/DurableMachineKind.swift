import Foundation
import Statechart

/// A kind of machine that ``DurableSessions`` can persist: it makes, restores and captures
/// instances, and encodes its events for the inbox. ``DurableChart`` (typed `StateMachine`s
/// with their context) and ``DurableDocument`` (`SCXMLMachine`s with their datamodel) are the
/// two kinds.
///
/// ```swift
/// let kind = DurableChart(orderChart, version: "orders-1", context: { _ in Order() })
/// ```
public protocol DurableMachineKind: Sendable {
    /// What senders send.
    associatedtype Event: Sendable
    /// The running machine of one session.
    associatedtype Instance: DurableInstance
    /// The decoded stored state, for inspection (``DurableSessions/snapshot(of:)``).
    associatedtype Snapshot: Sendable

    /// The chart or document version written with every snapshot; a stored session with
    /// another version is refused.
    var version: String { get }

    /// The inbox form of `event`.
    func encode(_ event: Event) throws -> Data

    /// A new session's machine, started on `clock`.
    func makeInstance(session: String, clock: TestClock) throws -> Instance

    /// A session's machine from its stored state and timers, on `clock`.
    func restoreInstance(session: String, state: Data, timers: [PendingTimer], clock: TestClock) throws -> Instance

    /// The stored state decoded, with its timers put back.
    func decodeSnapshot(state: Data, timers: [PendingTimer]) throws -> Snapshot
}

/// One session's running machine, as ``DurableSessions`` drives it: only the holder of the
/// session's claim calls it, so it needs no lock of its own.
public protocol DurableInstance: AnyObject {
    /// Decodes `body` (``DurableMachineKind/encode(_:)``) and sends it: one macrostep.
    func apply(_ body: Data) throws

    /// The snapshot without its delayed events, and the delayed events in delivery order.
    func capture() throws -> (state: Data, timers: [PendingTimer])

    /// The events sent outward since the last call, in the order they were sent.
    func takeOutbox() -> [OutgoingEvent]
}

/// A delayed event between a machine's snapshot and a ``TimerRow``.
public struct PendingTimer: Sendable, Hashable {
    /// Its send id.
    public var sendID: String
    /// The time left before it is due (zero or more).
    public var remaining: Duration
    /// The event in its kind's snapshot form.
    public var body: Data

    /// A pending timer.
    public init(sendID: String, remaining: Duration, body: Data) {
        self.sendID = sendID
        self.remaining = remaining
        self.body = body
    }
}

/// An event a macrostep sent outward, before it is given its outbox id.
public struct OutgoingEvent: Sendable, Hashable {
    /// Where it goes (see ``OutboxMessage/target``).
    public var target: String
    /// Its name.
    public var name: String
    /// Its encoded form.
    public var body: Data

    /// An outgoing event.
    public init(target: String, name: String, body: Data) {
        self.target = target
        self.name = name
        self.body = body
    }
}

/// The storage form both machine kinds share: `snapshot` as sorted-key JSON without its delayed
/// events (at `delayed`), and each delayed event as a ``PendingTimer`` whose body is its event.
func storageForm<Snapshot: Encodable, Delayed, Event: Encodable>(
    of snapshot: Snapshot, delayed: WritableKeyPath<Snapshot, [Delayed]>,
    timer: (Delayed) -> (sendID: String, remaining: Duration, event: Event)
) throws -> (state: Data, timers: [PendingTimer]) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var stripped = snapshot
    let timers = try snapshot[keyPath: delayed].map { delayed in
        let (sendID, remaining, event) = timer(delayed)
        return PendingTimer(sendID: sendID, remaining: max(.zero, remaining), body: try encoder.encode(event))
    }
    stripped[keyPath: delayed] = []
    return (try encoder.encode(stripped), timers)
}
