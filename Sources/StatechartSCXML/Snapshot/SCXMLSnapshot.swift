import Statechart

/// A persisted SCXML session: everything an ``SCXMLMachine`` needs to continue exactly where
/// it was, as a `Codable` value (see <doc:SCXMLSnapshots>).
///
/// ```swift
/// let data = try JSONEncoder().encode(try machine.snapshot())
/// // ... later, perhaps in another process, with the same document:
/// let restored = try SCXMLMachine(contentsOf: url, options: options)
/// try restored.restore(JSONDecoder().decode(SCXMLSnapshot.self, from: data))
/// try restored.send("next")
/// ```
///
/// It holds the `MachineSnapshot` of the underlying `Machine` (configuration, history,
/// internal queue, pending delayed sends with their time left and `sendid`), the events waiting
/// in the session's mailbox, the datamodel's variables, and the session's counters (generated
/// `sendid`s and invoke ids continue where they were; late-bound `<data>` is not
/// initialized twice). The restored session gets a new `_sessionid`, as a session started in a
/// new process would.
///
/// **Format stability**: ``version`` is ``currentVersion`` (1) for the format described here.
/// Fields may be added in later versions of the same format number only when older readers
/// can ignore them; anything else raises the number, and ``SCXMLMachine/restore(_:)`` refuses
/// a snapshot whose version it does not know (``SCXMLSnapshotError/unsupportedVersion(_:)``).
public struct SCXMLSnapshot: Codable, Sendable, Hashable {
    /// The format version this library writes and reads.
    public static let currentVersion = 1

    /// The snapshot format's version (``currentVersion`` when taken by this library).
    public var version: Int
    /// Which document the snapshot belongs to; a machine running another document refuses it.
    public var document: SCXMLDocumentFingerprint
    /// The name of the datamodel that ran the document (`"null"`, `"ecmascript"`).
    public var datamodel: String
    /// The configuration, history records, internal queue and pending delayed sends. Event
    /// payloads are SCXML events written as data: objects whose `kind` is `"event"`
    /// (an ``SCXMLEvent``), `"deferred"` (a `<send>` to another target, waiting for its delay),
    /// `"done"` (`done.state` data) or `"data"`.
    public var machine: MachineSnapshot
    /// Events from other sessions waiting in this session's mailbox, oldest first.
    public var mailbox: [SnapshotEvent]
    /// The datamodel's variables, sorted by name.
    public var variables: [Variable]
    /// The session's own counters.
    public var session: SessionState

    /// One datamodel variable.
    public struct Variable: Codable, Sendable, Hashable {
        /// The variable's name.
        public var name: String
        /// Its value; `nil` for a variable that is declared but holds no value (`undefined`).
        public var value: DataValue?

        /// The variable `name` holding `value` (`nil`: declared, no value).
        public init(name: String, value: DataValue?) {
            self.name = name
            self.value = value
        }
    }

    /// What the session counts, so that a restored session generates what the original would.
    public struct SessionState: Codable, Sendable, Hashable {
        /// The original session's `_sessionid` (informational: the restored one gets its own).
        public var originalSessionID: String
        /// How many `sendid`s the session has generated.
        public var sendCounter: Int
        /// How many invoke ids the session has generated.
        public var invokeCounter: Int
        /// States whose late-bound `<datamodel>` has been initialized, sorted.
        public var initializedStates: [String]

        /// The counters as given.
        public init(originalSessionID: String, sendCounter: Int, invokeCounter: Int, initializedStates: [String]) {
            self.originalSessionID = originalSessionID
            self.sendCounter = sendCounter
            self.invokeCounter = invokeCounter
            self.initializedStates = initializedStates
        }
    }
}
