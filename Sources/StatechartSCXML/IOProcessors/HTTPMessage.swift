#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The small part of HTTP/1.1 the BasicHTTP Event I/O Processor needs: form encoding, and
/// reading one request or response from a socket.
enum HTTPMessage {
    /// `application/x-www-form-urlencoded` text of `pairs`, spaces as `%20`.
    static func formEncoded(_ pairs: [(String, String)]) -> String {
        pairs.map { percentEncoded($0.0) + "=" + percentEncoded($0.1) }.joined(separator: "&")
    }

    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// The pairs of form-encoded text (`+` is a space), in order; `nil` when it is not form data.
    static func formDecoded(_ text: String) -> [(String, String)]? {
        if text.isEmpty { return [] }
        var pairs: [(String, String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = percentDecoded(String(pieces[0])),
                  let value = percentDecoded(pieces.count > 1 ? String(pieces[1]) : "") else { return nil }
            pairs.append((key, value))
        }
        return pairs
    }

    static func percentDecoded(_ text: String) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// A parsed request: the request line's parts, headers (lower-cased names), body and the
    /// whole message as received.
    struct Request {
        var method: String
        var path: String
        var query: String
        var headers: [String: String]
        var body: String
        var raw: String
    }

    /// Why a message could not be read.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads one message (headers, then `Content-Length` bytes of body) from `socket`; at most
    /// `limit` bytes in all.
    static func read(from socket: Int32, limit: Int = 1 << 20) throws(Failure) -> (head: String, body: String, raw: String) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        var headerEnd: Int?
        var expected: Int?
        while true {
            if let end = headerEnd, bytes.count >= end + (expected ?? 0) { break }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                if headerEnd != nil && expected == nil { break }     // no Content-Length: read to close
                throw Failure(description: count == 0 ? "the connection closed early" : "receive failed (errno \(errno))")
            }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > limit { throw Failure(description: "the message is larger than \(limit) bytes") }
            if headerEnd == nil, let end = find([13, 10, 13, 10], in: bytes) {
                headerEnd = end + 4
                let head = String(decoding: bytes[0..<end], as: UTF8.self)
                expected = contentLength(head)
                if let length = expected, length < 0 || length > limit - (end + 4) {
                    throw Failure(description: "Content-Length \(length) is negative or larger than \(limit) bytes")
                }
            }
            if headerEnd == nil && bytes.count > 65536 { throw Failure(description: "the headers are larger than 64 KiB") }
        }
        let end = headerEnd ?? bytes.count
        let head = String(decoding: bytes[0..<max(0, end - 4)], as: UTF8.self)
        let bodyEnd = expected.map { min(bytes.count, end + $0) } ?? bytes.count
        let body = String(decoding: bytes[end..<bodyEnd], as: UTF8.self)
        return (head, body, String(decoding: bytes[0..<bodyEnd], as: UTF8.self))
    }

    static func parseRequest(head: String, body: String, raw: String) throws(Failure) -> Request {
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { throw Failure(description: "malformed request line") }
        let target = String(requestLine[1])
        let (path, query) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        return Request(method: String(requestLine[0]).uppercased(), path: path, query: query,
                       headers: headers(lines), body: body, raw: raw)
    }

    static func headers(_ lines: [String]) -> [String: String] {
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    private static func contentLength(_ head: String) -> Int? {
        headers(head.components(separatedBy: "\r\n").dropFirst().map { $0 })["content-length"].flatMap { Int($0) }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }

    /// Writes all of `text` to `socket`.
    static func write(_ text: String, to socket: Int32) throws(Failure) {
        var bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeMutableBytes { send(socket, $0.baseAddress! + sent, $0.count - sent, noSignal) }
            if count <= 0 { throw Failure(description: "send failed (errno \(errno))") }
            sent += count
        }
    }

    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0
    #endif

    /// Applies a receive and send timeout to `socket`.
    static func setTimeout(_ socket: Int32, seconds: Int) {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }
}
