/// An event a document's executable content raised or sent, or an error event the runtime
/// raised for it, as ``SCXMLMachine/onOutgoingEvent(_:)`` reports it: what `statechart trace
/// --verbose` lists under each microstep.
///
/// ```swift
/// machine.onOutgoingEvent { event in
///     switch event.kind {
///     case .raised: print("raised", event.name)
///     case .sent(let target, _, let delay): print("sent", event.name, "to", target ?? "itself", "after", delay)
///     case .error(let message): print(event.name, message)
///     }
/// }
/// ```
public struct SCXMLOutgoingEvent: Sendable, Hashable {
    /// How the event left the executable content.
    public enum Kind: Sendable, Hashable {
        /// `<raise>`: onto the internal queue.
        case raised
        /// `<send>`, accepted for delivery: to `target` (`nil`: the session itself) through the
        /// I/O processor `type`, after `delay` (zero: at once).
        case sent(target: String?, type: String, delay: Duration)
        /// An error event (`error.execution`, `error.communication`) raised because content
        /// failed, with the runtime's explanation.
        case error(message: String)
    }

    /// Which content raised or sent it.
    public enum Origin: Sendable, Hashable {
        /// An `<onentry>` of the state with this id.
        case onEntry(String)
        /// An `<onexit>` of the state with this id.
        case onExit(String)
    }

    /// The event's name.
    public var name: String
    /// How it left.
    public var kind: Kind
    /// The `<onentry>` or `<onexit>` that ran; `nil` for a transition's content and the rest
    /// (`<finalize>`, the top-level `<script>`, start-up).
    public var origin: Origin?

    /// An outgoing event.
    public init(name: String, kind: Kind, origin: Origin? = nil) {
        self.name = name
        self.kind = kind
        self.origin = origin
    }
}
