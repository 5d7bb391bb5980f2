#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The small part of HTTP/1.1 the BasicHTTP Event I/O Processor needs: form encoding, and
/// reading one request or response from a socket within bounds (size and a whole-message
/// deadline), so a hostile peer costs bounded memory, time and CPU.
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

    /// Why a message could not be read, with the status a server answers it with.
    struct Failure: Error, CustomStringConvertible {
        /// 400 malformed, 408 deadline passed, 413 body too large, 431 headers too large,
        /// 501 a transfer coding this server does not implement; 0 when the connection failed
        /// (nothing is answered).
        var status: Int
        var description: String

        init(status: Int = 0, description: String) {
            self.status = status
            self.description = description
        }
    }

    /// The bounds of one message.
    struct Limits: Sendable {
        /// The request or status line and the headers, with their CRLFs.
        var headBytes = 16 * 1024
        /// The body (`Content-Length`).
        var bodyBytes = 1024 * 1024
        /// From the first read to the last byte of the message, however the peer paces it.
        var deadline: Duration = .seconds(5)
    }

    /// One message as read: the head (without the blank line), its header fields (names
    /// lower-cased), the body, and the message as received.
    struct Message {
        var head: String
        var headers: [String: String]
        var body: String
        var raw: String
    }

    /// Reads one message from `socket`: the head, then exactly `Content-Length` bytes of body.
    /// A request without `Content-Length` has no body (RFC 9112 6.3); a response without one
    /// runs to the close. The head is searched for its end only in bytes not searched before,
    /// so the cost is linear in the message however it is split into segments.
    static func read(from socket: Int32, isRequest: Bool, limits: Limits) throws(Failure) -> Message {
        let deadline = ContinuousClock.now + limits.deadline
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        var scanner = HeadScanner()
        var headEnd: Int?           // index of the blank line's CRLFCRLF
        var bodyLength: Int?        // nil: to the close (responses only)
        var fields: [String: String] = [:]
        while true {
            if let end = headEnd, let length = bodyLength, bytes.count >= end + 4 + length { break }
            try waitReadable(socket, until: deadline)
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(description: "receive failed (errno \(errno))")
            }
            if count == 0 {
                if headEnd != nil && bodyLength == nil { break }
                throw Failure(description: "the connection closed before the message was complete")
            }
            bytes.append(contentsOf: buffer[0..<count])
            if headEnd == nil {
                headEnd = scanner.scan(bytes[...])
                guard let end = headEnd else {
                    if bytes.count > limits.headBytes {
                        throw Failure(status: 431, description: "the headers are larger than \(limits.headBytes) bytes")
                    }
                    continue
                }
                if end + 4 > limits.headBytes {
                    throw Failure(status: 431, description: "the headers are larger than \(limits.headBytes) bytes")
                }
                fields = try headers(of: bytes[0..<(end + 2)])
                if fields["transfer-encoding"] != nil {
                    throw Failure(status: 501, description: "Transfer-Encoding is not supported; send Content-Length")
                }
                if let text = fields["content-length"] {
                    bodyLength = try contentLength(text, limit: limits.bodyBytes)
                } else {
                    bodyLength = isRequest ? 0 : nil
                }
            }
            if let end = headEnd, bytes.count - (end + 4) > limits.bodyBytes, bodyLength == nil {
                throw Failure(status: 413, description: "the body is larger than \(limits.bodyBytes) bytes")
            }
        }
        let end = headEnd!
        let bodyEnd = bodyLength.map { end + 4 + $0 } ?? bytes.count
        return Message(head: String(decoding: bytes[0..<end], as: UTF8.self), headers: fields,
                       body: String(decoding: bytes[(end + 4)..<bodyEnd], as: UTF8.self),
                       raw: String(decoding: bytes[0..<bodyEnd], as: UTF8.self))
    }

    /// Finds the blank line (CRLFCRLF) that ends a head, in a buffer that grows between calls.
    /// Each call examines only bytes it has not examined before, plus the 3 before them (the
    /// blank line may straddle two segments), so finding the end costs O(bytes), not
    /// O(bytes × segments) as rescanning the whole buffer per segment would.
    struct HeadScanner {
        private var searchedUpTo = 0
        /// Bytes examined so far (the cost, for tests of the bound above).
        private(set) var examined = 0

        /// The index of the blank line's first CR in `bytes` (everything received so far), if
        /// it has arrived.
        mutating func scan(_ bytes: ArraySlice<UInt8>) -> Int? {
            var index = max(bytes.startIndex, bytes.startIndex + searchedUpTo - 3)
            defer { searchedUpTo = bytes.count }
            while index + 3 < bytes.endIndex {
                examined += 1
                if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                    return index - bytes.startIndex
                }
                index += 1
            }
            return nil
        }
    }

    /// Waits until `socket` has data or the deadline passes (408).
    private static func waitReadable(_ socket: Int32, until deadline: ContinuousClock.Instant) throws(Failure) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw Failure(status: 408, description: "the message did not arrive within its deadline")
            }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw Failure(description: "poll failed (errno \(errno))") }
        }
    }

    /// The header fields of a head (its first line skipped; every line ends in CRLF, the blank
    /// line excluded), names lower-cased. Strict where
    /// leniency lets two readers disagree about where a message ends (request smuggling): a
    /// field without a colon, whitespace before the colon, a folded line or a control
    /// character is malformed (400).
    static func headers(of head: ArraySlice<UInt8>) throws(Failure) -> [String: String] {
        var fields: [String: String] = [:]
        // The piece after the last LF is empty.
        var lines = head.split(separator: 10, omittingEmptySubsequences: false).dropFirst().dropLast()
        while let line = lines.popFirst() {
            guard line.last == 13 else { throw Failure(status: 400, description: "a header line does not end in CRLF") }
            let content = line.dropLast()
            guard let colon = content.firstIndex(of: UInt8(ascii: ":")), colon > content.startIndex,
                  content[content.startIndex..<colon].allSatisfy(isTokenByte) else {
                throw Failure(status: 400, description: "malformed header line")
            }
            let value = content[(colon + 1)...]
            guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
                throw Failure(status: 400, description: "a header value contains a control character")
            }
            let name = String(decoding: content[content.startIndex..<colon], as: UTF8.self).lowercased()
            let text = String(decoding: value, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            if name == "content-length" && fields[name] != nil {
                throw Failure(status: 400, description: "more than one Content-Length")
            }
            fields[name] = fields[name].map { $0 + ", " + text } ?? text
        }
        return fields
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `Content-Length`: one to nine decimal digits and no more than `limit`; anything else
    /// (a sign, a list, letters, an overflow) is malformed (400) rather than guessed at.
    static func contentLength(_ text: String, limit: Int) throws(Failure) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw Failure(status: 400, description: "Content-Length '\(text.prefix(40))' is not a decimal number")
        }
        let digits = text.drop { $0 == "0" }
        guard digits.count <= 9, let length = Int(digits.isEmpty ? "0" : digits), length <= limit else {
            throw Failure(status: 413, description: "Content-Length \(text.prefix(40)) is larger than \(limit) bytes")
        }
        return length
    }

    /// The request line and headers of a message read by ``read(from:isRequest:limits:)``.
    static func parseRequest(_ message: Message) throws(Failure) -> Request {
        let firstLine = firstLine(of: message.head)
        let parts = firstLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasPrefix("HTTP/1.") else {
            throw Failure(status: 400, description: "malformed request line")
        }
        let target = String(parts[1])
        let (path, query) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        return Request(method: String(parts[0]).uppercased(), path: path, query: query,
                       headers: message.headers, body: message.body, raw: message.raw)
    }

    /// The head's first line. (By bytes: in Swift, CRLF is one Character, neither CR nor LF.)
    static func firstLine(of head: String) -> String {
        String(decoding: head.utf8.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
    }

    /// The status code of a response's head, 0 when it has none.
    static func status(ofResponse head: String) -> Int {
        let parts = firstLine(of: head).split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3 else { return 0 }
        return Int(parts[1]) ?? 0
    }

    /// Writes all of `text` to `socket`.
    static func write(_ text: String, to socket: Int32, flags: Int32 = 0) throws(Failure) {
        var bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeMutableBytes { send(socket, $0.baseAddress! + sent, $0.count - sent, noSignal | flags) }
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                throw Failure(description: "send failed (errno \(errno))")
            }
            sent += count
        }
    }

    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0
    #endif

    /// Closes a connection whose peer may still be sending (a request refused before its body
    /// was read): closing with unread bytes makes the kernel send a reset, which can destroy
    /// the answer before the peer reads it. So the sending side is shut first and what
    /// arrives is discarded until the peer closes, `wait` passes or `maxBytes` were read.
    static func closeGracefully(_ socket: Int32, wait: Duration, maxBytes: Int = 256 * 1024) {
        _ = shutdown(socket, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + wait
        var buffer = [UInt8](repeating: 0, count: 8192)
        var discarded = 0
        while discarded < maxBytes {
            if wait > .zero {
                guard (try? waitReadable(socket, until: deadline)) != nil else { break }
            }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, wait > .zero ? 0 : dontWait) }
            if count <= 0 { break }
            discarded += count
        }
        close(socket)
    }

    #if canImport(Glibc)
    private static let dontWait = Int32(MSG_DONTWAIT)
    #else
    private static let dontWait: Int32 = 0
    #endif

    /// A send timeout on `socket`, so a peer that stops reading cannot hold a writer forever.
    static func setSendTimeout(_ socket: Int32, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }
}
