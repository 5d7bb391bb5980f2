/// Why a durable session could not be run or stored.
///
/// ```swift
/// do { try await sessions.processNext() } catch let error as DurableError { print(error) }
/// ```
public enum DurableError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The session was saved by another chart or document version; it is left as stored.
    case chartVersionMismatch(session: String, stored: String, expected: String)
    /// The session's stored snapshot (or one of its timers) cannot be read back; it is left
    /// as stored and the other sessions go on.
    case unreadableSession(session: String, reason: String)
    /// An event waiting in the session's inbox cannot be decoded as one of its machine's events.
    case unreadableEvent(session: String, eventID: String, reason: String)
    /// The database was written by a newer version of this library.
    case newerSchema(found: Int, supported: Int)
    /// The database failed (lost connection, full disk, I/O error): nothing of the operation
    /// was committed.
    case storage(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .chartVersionMismatch(let session, let stored, let expected):
            return "session '\(session)' was saved by chart version '\(stored)', but this process runs '\(expected)'; it is left as stored (run it with its own version, or migrate it)"
        case .unreadableSession(let session, let reason):
            return "session '\(session)' cannot be read back: \(reason); it is left as stored"
        case .unreadableEvent(let session, let eventID, let reason):
            return "event '\(eventID)' of session '\(session)' cannot be decoded: \(reason); the session is left as stored"
        case .newerSchema(let found, let supported):
            return "the database has session schema version \(found); this library knows up to \(supported)"
        case .storage(let message):
            return "the session store failed, nothing was committed: \(message)"
        }
    }

    /// Whether the error is about one session's data (the store then records a fault for it
    /// and goes on with the others) rather than the database.
    public var isSessionFault: Bool {
        switch self {
        case .chartVersionMismatch, .unreadableSession, .unreadableEvent: return true
        case .newerSchema, .storage: return false
        }
    }

    /// The session the error is about, if it is about one.
    public var session: String? {
        switch self {
        case .chartVersionMismatch(let session, _, _), .unreadableSession(let session, _),
             .unreadableEvent(let session, _, _):
            return session
        case .newerSchema, .storage: return nil
        }
    }
}
