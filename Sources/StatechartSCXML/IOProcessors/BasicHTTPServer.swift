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
/// session that accepts BasicHTTP. Each session is reached at `http://127.0.0.1:<port>/scxml/<sessionid>`.
///
/// A POST becomes an external event of that session: named by its `_scxmleventname` parameter
/// (query string or form body), else `HTTP.POST`; its other form parameters are `_event.data`
/// (a body of another type is parsed as JSON, else kept as text); `_event.raw` is the request
/// as received. The answer (`200 OK`) is sent once the event is queued. Other methods get
/// `405`, unknown sessions `404`, form data that does not decode `400`.
final class BasicHTTPServer: Sendable {
    static let shared = BasicHTTPServer()

    private struct State {
        var port: UInt16?
        var failed = false
        var sessions: Set<String> = []
    }
    private let state = Mutex(State())

    /// The session's URL, starting the server if needed; `nil` if it cannot listen.
    func location(of sessionID: String) -> String? {
        guard let port = startIfNeeded() else { return nil }
        state.withLock { _ = $0.sessions.insert(sessionID) }
        return "http://127.0.0.1:\(port)/scxml/\(sessionID)"
    }

    /// Stops routing requests to a released session.
    func forget(_ sessionID: String) {
        state.withLock { _ = $0.sessions.remove(sessionID) }
    }

    /// Whether `url` points at this server.
    func isLocal(_ url: URL) -> Bool {
        guard let port = state.withLock({ $0.port }) else { return false }
        return (url.host == "127.0.0.1" || url.host == "localhost") && url.port == Int(port)
    }

    private func startIfNeeded() -> UInt16? {
        state.withLock { state -> UInt16? in
            if let port = state.port { return port }
            if state.failed { return nil }
            guard let (socket, port) = Self.listen() else {
                state.failed = true
                return nil
            }
            state.port = port
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
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            Thread.detachNewThread { [self] in
                self.handle(client)
                close(client)
            }
        }
    }

    private func handle(_ client: Int32) {
        HTTPMessage.setTimeout(client, seconds: 10)
        let response: String
        do {
            let (head, body, raw) = try HTTPMessage.read(from: client)
            let request = try HTTPMessage.parseRequest(head: head, body: body, raw: raw)
            response = respond(to: request)
        } catch {
            response = Self.response(400, "Bad Request")
        }
        try? HTTPMessage.write(response, to: client)
    }

    private func respond(to request: HTTPMessage.Request) -> String {
        guard request.method == "POST" else { return Self.response(405, "Method Not Allowed", extra: "Allow: POST\r\n") }
        guard request.path.hasPrefix("/scxml/") else { return Self.response(404, "Not Found") }
        let sessionID = String(request.path.dropFirst(7))
        guard state.withLock({ $0.sessions.contains(sessionID) }),
              let session = SessionRegistry.shared.session(sessionID) else {
            return Self.response(404, "Not Found")
        }
        guard let event = Self.event(from: request) else { return Self.response(400, "Bad Request") }
        session.deliver(event)
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
