#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Statechart
import Synchronization

/// The sending side of the BasicHTTP Event I/O Processor (SCXML C.2): an event becomes an HTTP
/// POST whose form parameters are `_scxmleventname` (the event's name), the `namelist` and
/// `<param>` values, and `content` (the `<content>`), as uSCXML and the IRP tests expect.
///
/// A target is checked before anything reaches the network (``Target/init(_:access:)``): it
/// must be an `http://` URL without credentials, control characters or spaces (also none
/// once percent-decoded, so nothing can be injected into the request line or headers), whose
/// host the session's ``HTTPHostAccess`` allows. Loopback targets (`127.x.x.x`, `[::1]`,
/// `localhost`) are connected to without any name lookup.
enum BasicHTTPClient {
    /// A checked `<send>` target.
    struct Target: Sendable, CustomStringConvertible {
        /// The host as written, lower-cased (an IPv6 literal without its brackets).
        var host: String
        var port: Int
        /// Path and query, still percent-encoded as the document wrote them.
        var requestTarget: String
        /// The loopback address to connect to, when the host is one (no lookup is made).
        var loopbackAddress: LoopbackAddress?
        var description: String

        var isLoopback: Bool { loopbackAddress != nil }

        enum LoopbackAddress: Sendable {
            case v4(in_addr)
            case v6(in6_addr)
        }

        /// Checks `text` and the host against `access`; the error says what is wrong.
        init(_ text: String, access: HTTPHostAccess) throws(Failure) {
            description = text
            if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
                throw Failure(description: "the target URL contains \(Self.name(of: bad)); spaces and control characters must be percent-encoded")
            }
            guard let parts = URLComponents(string: text), parts.scheme?.lowercased() == "http",
                  let rawHost = parts.percentEncodedHost, !rawHost.isEmpty else {
                throw Failure(description: "'\(text)' is not an http:// URL with a host")
            }
            guard parts.percentEncodedUser == nil && parts.percentEncodedPassword == nil else {
                throw Failure(description: "the target URL carries credentials, which BasicHTTP does not send")
            }
            // After percent-decoding, nothing may end a line or a header early.
            for piece in [parts.percentEncodedPath, parts.percentEncodedQuery ?? ""] {
                guard let decoded = piece.removingPercentEncoding else {
                    throw Failure(description: "the target URL has an invalid percent escape")
                }
                if let bad = decoded.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                    throw Failure(description: "the target URL contains \(Self.name(of: bad)) once percent-decoded")
                }
            }
            var host = rawHost.lowercased()
            if host.hasPrefix("[") && host.hasSuffix("]") {
                host = String(host.dropFirst().dropLast())
                guard Self.ipv6(host) != nil else { throw Failure(description: "'\(rawHost)' is not an IPv6 address") }
            } else if !host.utf8.allSatisfy({ Self.isHostNameByte($0) }) {
                throw Failure(description: "the host '\(rawHost)' is not a host name or an IP address")
            }
            self.host = host
            let port = parts.port ?? 80
            guard (1...65535).contains(port) else {
                throw Failure(description: "the port \(port) is not between 1 and 65535")
            }
            self.port = port
            var target = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
            if let query = parts.percentEncodedQuery { target += "?" + query }
            requestTarget = target
            loopbackAddress = Self.loopback(host)
            guard access.allows(self) else {
                throw Failure(description: "the host '\(host)' is not allowed: \(access.refusal)")
            }
        }

        private static func isHostNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }

        private static func name(of scalar: Unicode.Scalar) -> String {
            scalar == " " ? "a space" : String(format: "the control character U+%04X", scalar.value)
        }

        private static func ipv6(_ text: String) -> in6_addr? {
            var address = in6_addr()
            return inet_pton(AF_INET6, text, &address) == 1 ? address : nil
        }

        /// The host's loopback address: a dotted-quad `127.x.x.x`, `::1`, or the name
        /// `localhost` (RFC 6761 reserves it for loopback, so it maps to 127.0.0.1 without a
        /// lookup). Other spellings (`127.1`, `0x7f.1`) are names, not addresses, here.
        static func loopback(_ host: String) -> LoopbackAddress? {
            if host == "localhost" || host == "localhost." {
                var address = in_addr()
                address.s_addr = UInt32(0x7F00_0001).bigEndian
                return .v4(address)
            }
            var v4 = in_addr()
            if inet_pton(AF_INET, host, &v4) == 1 {
                return UInt32(bigEndian: v4.s_addr) >> 24 == 127 ? .v4(v4) : nil
            }
            if let v6 = ipv6(host) {
                let loopbackV6 = withUnsafeBytes(of: v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
                return loopbackV6 ? .v6(v6) : nil
            }
            return nil
        }
    }

    struct Request: Sendable {
        var target: Target
        var body: String

        init(target: Target, event: SCXMLEvent) {
            self.target = target
            var pairs: [(String, String)] = []
            if !event.name.isEmpty { pairs.append(("_scxmleventname", event.name)) }
            switch event.data {
            case .object(let members)? where !event.dataIsXML:
                for key in members.keys.sorted() { pairs.append((key, Self.text(members[key]!))) }
            case let value?:
                pairs.append(("content", Self.text(value)))
            case nil:
                break
            }
            body = HTTPMessage.formEncoded(pairs)
        }

        private static func text(_ value: DataValue) -> String {
            switch value {
            case .string(let text): return text
            case .array, .object: return value.jsonText
            default: return value.scxmlString
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Posts that run on background threads (to servers other than this process's own) at
    /// most at once; a `<send>` past it fails with `error.communication` instead of starting
    /// another thread, so a chart sending in a loop to a slow server cannot pile up threads.
    static let maxBackgroundPosts = 32
    private static let backgroundPosts = Mutex(0)
    /// Background posts running now.
    static var backgroundPostsInFlight: Int { backgroundPosts.withLock { $0 } }

    /// Runs `post(request)` on a thread of its own, `failed` with the error if it fails; throws
    /// at once when ``maxBackgroundPosts`` are running.
    static func postInBackground(_ request: Request, failed: @escaping @Sendable (Failure) -> Void) throws(Failure) {
        let admitted = backgroundPosts.withLock { count -> Bool in
            guard count < maxBackgroundPosts else { return false }
            count += 1
            return true
        }
        guard admitted else {
            throw Failure(description: "\(maxBackgroundPosts) BasicHTTP sends are already in progress")
        }
        Thread.detachNewThread {
            var failure: Failure?
            do throws(Failure) { try post(request) } catch { failure = error }
            // Counted out before the failure is reported: whoever hears of it can send again.
            backgroundPosts.withLock { $0 -= 1 }
            if let failure { failed(failure) }
        }
    }

    /// The bounds of one exchange: the answer must arrive whole within the deadline.
    static let limits = HTTPMessage.Limits(headBytes: 16 * 1024, bodyBytes: 1024 * 1024, deadline: .seconds(10))

    /// Posts `request` and waits for the answer; throws unless the server answers 2xx.
    static func post(_ request: Request) throws(Failure) {
        let target = request.target
        let socket = try connect(target)
        defer { close(socket) }
        HTTPMessage.setSendTimeout(socket, limits.deadline)
        let hostField = target.host.contains(":") ? "[\(target.host)]" : target.host
        let message = "POST \(target.requestTarget) HTTP/1.1\r\nHost: \(hostField):\(target.port)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(request.body.utf8.count)\r\nConnection: close\r\n\r\n" + request.body
        let answer: HTTPMessage.Message
        do {
            try HTTPMessage.write(message, to: socket)
            answer = try HTTPMessage.read(from: socket, isRequest: false, limits: limits)
        } catch {
            throw Failure(description: error.description)
        }
        let status = HTTPMessage.status(ofResponse: answer.head)
        guard (200..<300).contains(status) else {
            throw Failure(description: "the server answered \(HTTPMessage.firstLine(of: answer.head))")
        }
    }

    /// A connected socket: straight to a loopback address, else through the resolver (only
    /// for hosts the options name or allow).
    private static func connect(_ target: Target) throws(Failure) -> Int32 {
        switch target.loopbackAddress {
        case .v4(let address)?:
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = UInt16(target.port).bigEndian
            socketAddress.sin_addr = address
            return try withUnsafePointer(to: &socketAddress) { pointer throws(Failure) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Failure) in
                    try connect(family: AF_INET, address, socklen_t(MemoryLayout<sockaddr_in>.size), target)
                }
            }
        case .v6(let address)?:
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = UInt16(target.port).bigEndian
            socketAddress.sin6_addr = address
            return try withUnsafePointer(to: &socketAddress) { pointer throws(Failure) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Failure) in
                    try connect(family: AF_INET6, address, socklen_t(MemoryLayout<sockaddr_in6>.size), target)
                }
            }
        case nil:
            return try resolveAndConnect(target)
        }
    }

    private static func connect(family: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t,
                                _ target: Target) throws(Failure) -> Int32 {
        let fd = socket(family, streamType, 0)
        guard fd >= 0 else { throw Failure(description: "cannot open a socket (errno \(errno))") }
        let code = connectWithin(fd, address, length)
        if code == 0 { return fd }
        close(fd)
        throw Failure(description: "cannot connect to \(target.host):\(target.port) (\(String(cString: strerror(code))))")
    }

    /// `connect` bounded by ``connectTimeout`` (the kernel alone would try for minutes against
    /// a host that drops packets): non-blocking, then a wait for writability. 0 or an errno.
    private static func connectWithin(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        if Glibc.connect(fd, address, length) == 0 { return 0 }
        guard errno == EINPROGRESS else { return errno }
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(connectTimeout.components.seconds * 1000)
        var ready: Int32
        repeat { ready = poll(&entry, 1, milliseconds) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return ready == 0 ? ETIMEDOUT : errno }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else { return errno }
        return error
    }

    /// How long a connection may take to be established.
    static let connectTimeout: Duration = .seconds(10)

    private static func resolveAndConnect(_ target: Target) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(target.host, String(target.port), &hints, &list) == 0, let first = list else {
            throw Failure(description: "cannot resolve '\(target.host)'")
        }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            let fd = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            if fd >= 0 {
                if connectWithin(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 { return fd }
                close(fd)
            }
            entry = current.pointee.ai_next
        }
        throw Failure(description: "cannot connect to \(target.host):\(target.port)")
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamType = SOCK_STREAM
    #endif
}
