import Synchronization

/// The sessions of this process by id, so `<send target="#_scxml_<sessionid>">` can reach any
/// of them (SCXML C.1). Held weakly: a session leaves when its machine is released.
final class SessionRegistry: Sendable {
    static let shared = SessionRegistry()

    private struct Entry {
        weak var session: SCXMLSession?
    }
    private let sessions = Mutex<[String: Entry]>([:])

    func register(_ session: SCXMLSession) {
        sessions.withLock { $0[session.sessionID] = Entry(session: session) }
    }

    func unregister(_ sessionID: String) {
        sessions.withLock { _ = $0.removeValue(forKey: sessionID) }
    }

    func session(_ sessionID: String) -> SCXMLSession? {
        sessions.withLock { $0[sessionID]?.session }
    }
}
