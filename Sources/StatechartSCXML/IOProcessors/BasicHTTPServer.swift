#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Statechart
import Synchronization

/// The receiving side of the BasicHTTP Event I/O Processor (SCXML C.2): one small HTTP server
/// per process, bound to 127.0.0.1 only, on a port the system picks, started by the first
/// session that accepts BasicHTTP. Each session is reached at
/// `http://127.0.0.1:<port>/scxml/<token>`, where the token is 128 random bits from the
/// system's secure generator, made when the session first asks for its location: other
/// users of the machine can connect to the port but cannot guess a session's path (its
/// session id, which documents see and may send anywhere, is not in it).
///
/// A POST becomes an external event of that session: named by its `_scxmleventname` parameter
/// (query string or form body), else `HTTP.POST`; its other form parameters are `_event.data`
/// (a body of another type is parsed as JSON, else kept as text); `_event.raw` is the request
/// as received. The answer (`200 OK`) is sent once the event is queued. Other methods get
/// `405`, unknown paths `404`, form data that does not decode and malformed requests `400`, an
/// event the session's full mailbox cannot take `503`.
///
/// Bounds (``Limits``): at most `maxConnections` connections are served at once, each on its
/// own thread (more are answered `503` at once and closed); a request must arrive whole within
/// its deadline (else `408`); its head and body are size-bounded (`431`, `413`); one request
/// per connection. Reading is linear in the bytes received, however they are split.
final class BasicHTTPServer: Sendable {
    static let shared = BasicHTTPServer()

    /// The bounds of the server; see docs/SECURITY.md.
    struct Limits: Sendable {
        /// Connections served at once (each holds one thread until its request is answered).
        var maxConnections = 32
        /// The bounds of one request.
        var request = HTTPMessage.Limits()
    }

    let limits: Limits

    private struct State {
        var listener: Int32?
        var port: UInt16?
        var failed = false
        var stopped = false
        var sessionByToken: [String: String] = [:]
        var tokenBySession: [String: String] = [:]
        var connections = 0
    }
    private let state = Mutex(State())

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The session's URL, starting the server if needed; `nil` if it cannot listen.
    func location(of sessionID: String) -> String? {
        guard let port = startIfNeeded() else { return nil }
        let token = state.withLock { state -> String in
            if let token = state.tokenBySession[sessionID] { return token }
            let token = Self.randomToken()
            state.tokenBySession[sessionID] = token
            state.sessionByToken[token] = sessionID
            return token
        }
        return "http://127.0.0.1:\(port)/scxml/\(token)"
    }

    /// Stops routing requests to a released session.
    func forget(_ sessionID: String) {
        state.withLock { state in
            if let token = state.tokenBySession.removeValue(forKey: sessionID) {
                state.sessionByToken[token] = nil
            }
        }
    }

    /// Whether `target` points at this server.
    func isLocal(_ target: BasicHTTPClient.Target) -> Bool {
        guard let port = state.withLock({ $0.port }) else { return false }
        return target.isLoopback && target.port == Int(port)
    }

    /// Connections being served now.
    var openConnections: Int { state.withLock { $0.connections } }

    /// Closes the listening socket; connections being served finish. For tests, which start
    /// servers of their own with small limits.
    func stop() {
        state.withLock { state in
            state.stopped = true
            // shutdown wakes the thread blocked in accept(); it closes the socket.
            if let listener = state.listener { _ = shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }

    /// 32 lowercase hex digits of the system's secure random generator (getrandom on Linux).
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next() as UInt64, generator.next() as UInt64]
        return words.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    private func startIfNeeded() -> UInt16? {
        state.withLock { state -> UInt16? in
            if let port = state.port { return port }
            if state.failed || state.stopped { return nil }
            guard let (socket, port) = Self.listen() else {
                state.failed = true
                return nil
            }
            state.port = port
            state.listener = socket
            let thread = Thread { [self] in self.acceptLoop(socket) }
            thread.name = "statechart.basichttp"
            thread.start()
            return port
        }
    }

    /// A listening socket on 127.0.0.1 and an ephemeral port.
    private static func listen() -> (Int32, UInt16)? {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var reuse: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 64) == 0 else {
            close(fd)
            return nil
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            return nil
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private func acceptLoop(_ listener: Int32) {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if state.withLock({ $0.stopped }) { return }
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    usleep(10_000)      // out of descriptors or memory: wait for some to be freed
                    continue
                }
                return
            }
            HTTPMessage.setSendTimeout(client, limits.request.deadline)
            let admitted = state.withLock { state -> Bool in
                guard state.connections < limits.maxConnections else { return false }
                state.connections += 1
                return true
            }
            guard admitted else {
                // Answered here, without a thread: a short reply fits the socket's buffer.
                try? HTTPMessage.write(Self.response(503, "Service Unavailable"), to: client, flags: Self.dontWait)
                HTTPMessage.closeGracefully(client, wait: .zero)    // discard only what is there
                continue
            }
            Thread.detachNewThread { [self] in
                self.handle(client)
                HTTPMessage.closeGracefully(client, wait: .milliseconds(500))
                state.withLock { $0.connections -= 1 }
            }
        }
    }

    #if canImport(Glibc)
    private static let dontWait = Int32(MSG_DONTWAIT)
    #else
    private static let dontWait: Int32 = 0
    #endif

    private func handle(_ client: Int32) {
        let response: String
        do {
            let message = try HTTPMessage.read(from: client, isRequest: true, limits: limits.request)
            response = respond(to: try HTTPMessage.parseRequest(message))
        } catch {
            guard error.status != 0 else { return }     // the connection failed: nobody to answer
            response = Self.response(error.status, Self.reasons[error.status] ?? "Bad Request")
        }
        try? HTTPMessage.write(response, to: client)
    }

    private static let reasons = [
        400: "Bad Request", 408: "Request Timeout", 413: "Content Too Large",
        431: "Request Header Fields Too Large", 501: "Not Implemented",
    ]

    private func respond(to request: HTTPMessage.Request) -> String {
        guard request.method == "POST" else { return Self.response(405, "Method Not Allowed", extra: "Allow: POST\r\n") }
        guard request.path.hasPrefix("/scxml/") else { return Self.response(404, "Not Found") }
        let token = String(request.path.dropFirst(7))
        guard let sessionID = state.withLock({ $0.sessionByToken[token] }),
              let session = SessionRegistry.shared.session(sessionID) else {
            return Self.response(404, "Not Found")
        }
        guard let event = Self.event(from: request) else { return Self.response(400, "Bad Request") }
        // A full mailbox (SCXMLMachine.Options.maximumMailboxEvents) refuses the event: the
        // client hears it, and a BasicHTTP <send> raises error.communication; nothing is lost silently.
        guard session.deliver(event) else { return Self.response(503, "Service Unavailable") }
        return Self.response(200, "OK")
    }

    /// The SCXML event of a POST (C.2.1).
    static func event(from request: HTTPMessage.Request) -> SCXMLEvent? {
        guard var parameters = HTTPMessage.formDecoded(request.query) else { return nil }
        var data: DataValue?
        let contentType = request.headers["content-type"]?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            guard let form = HTTPMessage.formDecoded(request.body) else { return nil }
            parameters += form
        } else if contentType.isEmpty, let form = HTTPMessage.formDecoded(request.body) {
            parameters += form
        } else if !request.body.isEmpty {
            data = DataValue(json: request.body) ?? .string(request.body)
        }
        let names = parameters.filter { $0.0 == "_scxmleventname" }.map(\.1)
        let name = names.count == 1 ? names[0] : "HTTP.\(request.method)"
        var members: [String: DataValue] = [:]
        for (key, value) in parameters where key != "_scxmleventname" {
            switch members[key] {
            case nil: members[key] = .string(value)
            case .array(let values)?: members[key] = .array(values + [.string(value)])
            case let first?: members[key] = .array([first, .string(value)])
            }
        }
        if data == nil && !members.isEmpty { data = .object(members) }
        return SCXMLEvent(name: name, type: .external, originType: SCXMLEvent.basicHTTPProcessorType,
                          data: data, raw: request.raw)
    }

    private static func response(_ status: Int, _ reason: String, extra: String = "") -> String {
        "HTTP/1.1 \(status) \(reason)\r\nContent-Length: 0\r\nConnection: close\r\n\(extra)\r\n"
    }
}
