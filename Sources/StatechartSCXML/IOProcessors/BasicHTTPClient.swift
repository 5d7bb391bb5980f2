#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Statechart

/// The sending side of the BasicHTTP Event I/O Processor (SCXML C.2): an event becomes an HTTP
/// POST whose form parameters are `_scxmleventname` (the event's name), the `namelist` and
/// `<param>` values, and `content` (the `<content>`), as uSCXML and the IRP tests expect.
enum BasicHTTPClient {
    struct Request: Sendable {
        var url: URL
        var body: String

        init(url: URL, event: SCXMLEvent) {
            self.url = url
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

    /// Posts `request` and waits for the answer (at most `timeout` seconds per step); throws
    /// unless the server answers 2xx.
    static func post(_ request: Request, timeout: Int = 10) throws {
        guard let host = request.url.host else { throw Failure(description: "the URL has no host") }
        let port = request.url.port ?? 80
        let socket = try connect(host: host, port: port)
        defer { close(socket) }
        HTTPMessage.setTimeout(socket, seconds: timeout)
        var path = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { path += "?" + query }
        let message = "POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(request.body.utf8.count)\r\nConnection: close\r\n\r\n" + request.body
        try HTTPMessage.write(message, to: socket)
        let (head, _, _) = try HTTPMessage.read(from: socket)
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        guard (200..<300).contains(status) else {
            throw Failure(description: "the server answered \(head.components(separatedBy: "\r\n").first ?? "nothing")")
        }
    }

    private static func connect(host: String, port: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw Failure(description: "cannot resolve '\(host)'")
        }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            let fd = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            if fd >= 0 {
                if Glibc.connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 { return fd }
                close(fd)
            }
            entry = current.pointee.ai_next
        }
        throw Failure(description: "cannot connect to \(host):\(port)")
    }
}
