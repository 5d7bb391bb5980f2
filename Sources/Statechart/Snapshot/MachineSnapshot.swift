/// The dynamic state of a ``Machine`` between two macrosteps, as a `Codable` value: the
/// active configuration, the history records, the events waiting in the internal queue and
/// the pending delayed events with the time left on each.
///
/// ```swift
/// let data = try JSONEncoder().encode(try machine.snapshot())
/// // ... later, perhaps in another process:
/// let restored = try Machine(chart, restoring: JSONDecoder().decode(MachineSnapshot.self, from: data))
/// try restored.send("next")        // continues exactly where the original was
/// ```
///
/// States are recorded by id, so a snapshot restores into any chart that has those states.
/// Event payloads must be ``DataValue``s (or absent) to be captured; typed machines have their
/// own snapshot, ``StateMachine/Snapshot``, which stores your event values.
public struct MachineSnapshot: Codable, Sendable, Hashable {
    /// The chart's name (informational).
    public var chart: String
    /// Every active state, compound and parallel ancestors included, in document order.
    public var activeStates: [String]
    /// The history states that hold a record, in document order.
    public var history: [HistoryRecord]
    /// Events raised and not processed yet, in queue order (empty unless the last macrostep
    /// was stopped as a runaway).
    public var internalEvents: [SnapshotEvent]
    /// Pending delayed events, in delivery order.
    public var delayedEvents: [DelayedEvent]
    /// Whether the machine had halted (reached a top-level final state or was stopped).
    public var isFinished: Bool

    /// Creates a snapshot from its parts (to build or edit one by hand).
    public init(chart: String, activeStates: [String], history: [HistoryRecord] = [],
                internalEvents: [SnapshotEvent] = [], delayedEvents: [DelayedEvent] = [],
                isFinished: Bool = false) {
        self.chart = chart
        self.activeStates = activeStates
        self.history = history
        self.internalEvents = internalEvents
        self.delayedEvents = delayedEvents
        self.isFinished = isFinished
    }

    /// What a history state remembers.
    public struct HistoryRecord: Codable, Sendable, Hashable {
        /// The history state's id.
        public var state: String
        /// The remembered states: the parent's active child (shallow) or its active atomic
        /// descendants (deep). Empty: nothing recorded (the history's default is used).
        public var remembered: [String]

        /// A record of `state` remembering `remembered`.
        public init(state: String, remembered: [String]) {
            self.state = state
            self.remembered = remembered
        }
    }

    /// A delayed event still waiting.
    public struct DelayedEvent: Codable, Sendable, Hashable {
        /// The send id, to cancel it.
        public var sendID: String
        /// The event.
        public var event: SnapshotEvent
        /// The time left before it is due, when the snapshot was taken.
        public var remaining: Duration

        /// A delayed event due `remaining` from now.
        public init(sendID: String, event: SnapshotEvent, remaining: Duration) {
            self.sendID = sendID
            self.event = event
            self.remaining = remaining
        }
    }
}

/// An event in a snapshot: its name and its ``DataValue`` payload.
///
/// ```swift
/// SnapshotEvent(name: "order.placed", payload: .object(["id": .number(7)]))
/// ```
public struct SnapshotEvent: Codable, Sendable, Hashable {
    /// The event's name.
    public var name: String
    /// The event's payload, if any.
    public var payload: DataValue?

    /// An event named `name` carrying `payload`.
    public init(name: String, payload: DataValue? = nil) {
        self.name = name
        self.payload = payload
    }
}

/// Why a snapshot could not be taken or restored.
///
/// ```swift
/// do { try machine.restore(snapshot) } catch let error as SnapshotError { print(error) }
/// ```
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Snapshots are taken and restored between macrosteps, not from the machine's own
    /// actions or observers (the configuration is in the middle of changing there).
    case insideMacrostep
    /// The machine has not been started, so there is nothing to capture.
    case notStarted
    /// The snapshot names a state the chart does not have.
    case unknownState(String)
    /// The active states do not form a legal configuration of the chart.
    case illegalConfiguration([String])
    /// A history record names a state that is not a history state, or remembers states it
    /// could not have recorded.
    case invalidHistory(String)
    /// An event's payload is not a ``DataValue`` (or, for typed snapshots, the event is not
    /// one of the chart's events), so it cannot be captured.
    case unencodablePayload(event: String)
    /// The internal queue of the machine being restored is too small for the snapshot's events.
    case queueFull(event: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .insideMacrostep:
            return "snapshots cannot be taken or restored from inside the machine's own actions or observers; do it between sends"
        case .notStarted:
            return "the machine has not been started; there is nothing to capture"
        case .unknownState(let id):
            return "the snapshot names state '\(id)', which the chart does not have"
        case .illegalConfiguration(let ids):
            return "states [\(ids.joined(separator: ", "))] are not a legal configuration of the chart"
        case .invalidHistory(let id):
            return "the history record of '\(id)' does not fit the chart"
        case .unencodablePayload(let event):
            return "the payload of event '\(event)' is not a DataValue and cannot be captured"
        case .queueFull(let event):
            return "the internal queue is too small to restore event '\(event)'"
        }
    }
}
