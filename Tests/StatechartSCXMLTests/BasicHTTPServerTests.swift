#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Statechart
@testable import StatechartSCXML
import XCTest

/// The BasicHTTP server against hostile but fair clients: guessing session paths, holding
/// connections open, dripping bytes, splitting requests into 1-byte segments, lying about
/// lengths. Every client here talks to 127.0.0.1 only, with bounded loops and timeouts.
final class BasicHTTPServerTests: XCTestCase {
    /// Waits for `ping`, then halts in `got`.
    static let pingChart = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="idle">
          <state id="idle"><transition event="ping" target="got"/></state>
          <final id="got"/>
        </scxml>
        """

    private func pingMachine(_ basicHTTP: BasicHTTPServerUse = .always) throws -> SCXMLMachine {
        var options = SCXMLMachine.Options()
        options.basicHTTPServer = basicHTTP
        let machine = try SCXMLMachine(string: Self.pingChart, options: options)
        try machine.start()
        return machine
    }

    // MARK: - Session paths

    func testSessionPathsAreRandomTokensNotSessionIDs() throws {
        let first = try pingMachine(), second = try pingMachine()
        let firstLocation = try XCTUnwrap(first.basicHTTPLocation)
        let secondLocation = try XCTUnwrap(second.basicHTTPLocation)
        let pattern = #"^http://127\.0\.0\.1:[0-9]+/scxml/[0-9a-f]{32}$"#
        XCTAssertNotNil(firstLocation.range(of: pattern, options: .regularExpression), firstLocation)
        XCTAssertNotNil(secondLocation.range(of: pattern, options: .regularExpression), secondLocation)
        XCTAssertNotEqual(firstLocation, secondLocation)
        XCTAssertEqual(first.basicHTTPLocation, firstLocation, "a session keeps its location")
        let port = try XCTUnwrap(URL(string: firstLocation)?.port)

        // Guessing by session id (what the paths were) reaches nobody.
        for guess in [first.sessionID, second.sessionID, "1", "2", ""] {
            XCTAssertEqual(try RawHTTPClient.post(port: port, path: "/scxml/\(guess)", body: "_scxmleventname=ping").status, 404, guess)
        }
        XCTAssertFalse(first.waitUntilFinished(timeout: .milliseconds(100)))
        XCTAssertEqual(try RawHTTPClient.post(port: port, path: URL(string: firstLocation)!.path, body: "_scxmleventname=ping").status, 200)
        XCTAssertTrue(first.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertEqual(first.configuration, ["got"])
        XCTAssertEqual(second.configuration, ["idle"])
    }

    func testOnlyDocumentsThatMentionBasicHTTPGetALocationWhenUsed() throws {
        XCTAssertNil(try pingMachine(.never).basicHTTPLocation)
        XCTAssertNil(try pingMachine(.whenDocumentUsesIt).basicHTTPLocation)
        var options = SCXMLMachine.Options()
        options.basicHTTPServer = .whenDocumentUsesIt
        let sending = try SCXMLMachine(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="s"><onentry><send event="e" type="basichttp" target="http://127.0.0.1:9/"/></onentry></state>
            </scxml>
            """, options: options)
        XCTAssertNotNil(sending.basicHTTPLocation)
        // The file name is not a use.
        let named = try SCXMLMachine(string: Self.pingChart, fileName: "basichttp.scxml", options: options)
        XCTAssertNil(named.basicHTTPLocation)
    }

    // MARK: - Bounds

    func testConnectionsBeyondTheCapAreAnsweredAtOnceWith503() throws {
        let server = BasicHTTPServer(limits: .init(maxConnections: 4, request: .init(deadline: .seconds(4))))
        defer { server.stop() }
        let machine = try pingMachine(.never)
        let location = try XCTUnwrap(server.location(of: machine.sessionID))
        let port = try XCTUnwrap(URL(string: location)?.port), path = URL(string: location)!.path

        let idle = try (0..<4).map { _ in try RawHTTPClient.connect(port: port) }
        XCTAssertTrue(waitUntil { server.openConnections == 4 }, "open: \(server.openConnections)")
        // A fifth is refused without waiting for the idle ones and without a thread of its own.
        let start = ContinuousClock.now
        let refused = try RawHTTPClient.connect(port: port)
        defer { close(refused) }
        XCTAssertEqual(RawHTTPClient.readAvailable(refused, waiting: .seconds(2), untilClose: true),
                       "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
        XCTAssertEqual(server.openConnections, 4)
        XCTAssertEqual(machine.configuration, ["idle"])

        idle.forEach { close($0) }
        XCTAssertTrue(waitUntil { server.openConnections == 0 }, "open: \(server.openConnections)")
        XCTAssertEqual(try RawHTTPClient.post(port: port, path: path, body: "_scxmleventname=ping").status, 200)
        XCTAssertTrue(machine.waitUntilFinished(timeout: .seconds(5)))
    }

    func testAClientDrippingBytesIsCutOffAtTheWholeRequestDeadline() throws {
        let server = BasicHTTPServer(limits: .init(request: .init(deadline: .seconds(1))))
        defer { server.stop() }
        let machine = try pingMachine(.never)
        let location = try XCTUnwrap(server.location(of: machine.sessionID))
        let port = try XCTUnwrap(URL(string: location)?.port)

        let fd = try RawHTTPClient.connect(port: port)
        defer { close(fd) }
        let start = ContinuousClock.now
        // One byte every 200 ms: each arrives well within any per-read timeout. At most 15.
        var answer = ""
        for byte in "POST /scxml/x HTTP/1.1\r\n".utf8.prefix(15) {
            var value = byte
            if send(fd, &value, 1, Int32(MSG_NOSIGNAL)) != 1 { break }
            answer = RawHTTPClient.readAvailable(fd, waiting: .milliseconds(200))
            if !answer.isEmpty { break }
        }
        if answer.isEmpty { answer = RawHTTPClient.readAvailable(fd, waiting: .seconds(3)) }
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), answer)
        let elapsed = ContinuousClock.now - start
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(900))
        XCTAssertLessThan(elapsed, .seconds(3))
        XCTAssertTrue(waitUntil { server.openConnections == 0 })
    }

    func testFindingTheEndOfTheHeadIsLinearInOneByteSegments() throws {
        // 8,000 header bytes fed 1 byte at a time: a rescan of the whole buffer per segment
        // would examine about 32 million bytes; resuming 3 bytes back examines each byte at most 4 times.
        let head = Array(("POST /scxml/x HTTP/1.1\r\nX-Padding: " + String(repeating: "a", count: 8000) + "\r\n\r\n").utf8)
        var scanner = HTTPMessage.HeadScanner()
        var found: Int?
        for index in head.indices {
            found = scanner.scan(head[0...index])
            if found != nil { XCTAssertEqual(index, head.count - 1); break }
        }
        XCTAssertEqual(found, head.count - 4)
        XCTAssertLessThanOrEqual(scanner.examined, 4 * head.count)
        // A segment boundary inside CRLFCRLF is still found.
        var split = HTTPMessage.HeadScanner()
        XCTAssertNil(split.scan(Array("GET / HTTP/1.1\r\n\r".utf8)[...]))
        XCTAssertEqual(split.scan(Array("GET / HTTP/1.1\r\n\r\n".utf8)[...]), 14)
    }

    func testMalformedAndOversizedRequestsAreRefusedWithTheirStatus() throws {
        let server = BasicHTTPServer(limits: .init(request: .init(headBytes: 1024, bodyBytes: 100, deadline: .seconds(4))))
        defer { server.stop() }
        let machine = try pingMachine(.never)
        let location = try XCTUnwrap(server.location(of: machine.sessionID))
        let port = try XCTUnwrap(URL(string: location)?.port), path = URL(string: location)!.path
        let form = "Content-Type: application/x-www-form-urlencoded\r\n"
        let cases: [(String, String)] = [
            ("POST \(path) HTTP/1.1\r\n\(form)Content-Length: x\r\n\r\n_scxmleventname=ping", "400 Bad Request"),
            ("POST \(path) HTTP/1.1\r\n\(form)Content-Length: -20\r\n\r\n_scxmleventname=ping", "400 Bad Request"),
            ("POST \(path) HTTP/1.1\r\n\(form)Content-Length: 20\r\nContent-Length: 20\r\n\r\n_scxmleventname=ping", "400 Bad Request"),
            ("POST \(path) HTTP/1.1\r\n\(form)Content-Length : 20\r\n\r\n_scxmleventname=ping", "400 Bad Request"),
            ("POST \(path) HTTP/1.1\r\n\(form) Content-Length: 20\r\n\r\n_scxmleventname=ping", "400 Bad Request"),
            ("POST \(path) HTTP/1.1\nContent-Length: 20\n\n_scxmleventname=ping\r\n\r\n", "400 Bad Request"),
            ("POST \(path)\r\n\(form)Content-Length: 20\r\n\r\n_scxmleventname=ping", "400 Bad Request"),
            ("POST \(path) HTTP/1.1\r\n\(form)Transfer-Encoding: chunked\r\n\r\n14\r\n_scxmleventname=ping\r\n0\r\n\r\n", "501 Not Implemented"),
            ("POST \(path) HTTP/1.1\r\n\(form)Content-Length: 101\r\n\r\n" + String(repeating: "a", count: 101), "413 Content Too Large"),
            ("POST \(path) HTTP/1.1\r\nX-Padding: \(String(repeating: "a", count: 1100))\r\n\r\n", "431 Request Header Fields Too Large"),
            ("POST \(path) HTTP/1.1\r\nX-Padding: \(String(repeating: "a", count: 1100))", "431 Request Header Fields Too Large"),
            // No Content-Length: no body (RFC 9112 6.3), so the event is HTTP.POST, not ping.
            ("POST \(path) HTTP/1.1\r\n\(form)\r\n_scxmleventname=ping", "200 OK"),
        ]
        for (request, status) in cases {
            let answer = try RawHTTPClient.exchange(port: port, request)
            XCTAssertTrue(answer.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(request.prefix(120).debugDescription) -> \(answer.debugDescription)")
        }
        XCTAssertEqual(machine.configuration, ["idle"])
        let exact = "POST \(path) HTTP/1.1\r\n\(form)Content-Length: 20\r\n\r\n_scxmleventname=ping"
        XCTAssertTrue(try RawHTTPClient.exchange(port: port, exact).hasPrefix("HTTP/1.1 200 OK\r\n"))
        XCTAssertTrue(machine.waitUntilFinished(timeout: .seconds(5)))
    }

    func testMutatedRequestsGetOneOfTheDocumentedAnswersAndFreeTheirConnection() throws {
        // 400 requests derived from a valid one by seeded random mutations (bytes replaced,
        // CR/LF/colon/space/NUL inserted, ranges deleted or repeated, the end cut off), each sent
        // whole and half-closed: the answer is one of the documented statuses, or none when the
        // request was cut short, and every connection is released.
        let server = BasicHTTPServer(limits: .init(maxConnections: 8, request: .init(headBytes: 2048, bodyBytes: 512, deadline: .seconds(2))))
        defer { server.stop() }
        let machine = try pingMachine(.never)
        let location = try XCTUnwrap(server.location(of: machine.sessionID))
        let port = try XCTUnwrap(URL(string: location)?.port), path = URL(string: location)!.path
        let valid = Array(("POST \(path)?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: 22\r\n\r\n_scxmleventname=other").utf8) + [UInt8(ascii: "!")]
        var random = SplitMix64(seed: 0x5C_0A_11_7E)
        var seen: [String: Int] = [:]
        let statuses: Set<String> = ["200 OK", "400 Bad Request", "404 Not Found", "405 Method Not Allowed",
                                     "413 Content Too Large", "431 Request Header Fields Too Large", "501 Not Implemented"]
        for _ in 0..<400 {
            var bytes = valid
            for _ in 0..<(1 + random.next(below: 3)) {
                let at = random.next(below: bytes.count)
                switch random.next(below: 5) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next(below: 256))
                case 1: bytes.insert([13, 10, 58, 32, 0][random.next(below: 5)], at: at)
                case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.next(below: 8)))
                case 3: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + random.next(below: 40))], at: at)
                default: bytes.removeSubrange(at...)
                }
                if bytes.isEmpty { bytes = [13, 10] }
            }
            let fd = try RawHTTPClient.connect(port: port)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(fd, Int32(SHUT_WR))
            let answer = RawHTTPClient.readAvailable(fd, waiting: .seconds(4), untilClose: true)
            close(fd)
            let status = answer.isEmpty ? "none" : String((answer.components(separatedBy: "\r\n").first ?? "").dropFirst(9))
            XCTAssertTrue(status == "none" || (answer.hasPrefix("HTTP/1.1 ") && statuses.contains(status)),
                          "\(String(decoding: bytes, as: UTF8.self).debugDescription) -> \(answer.debugDescription)")
            seen[status, default: 0] += 1
        }
        XCTAssertTrue(waitUntil { server.openConnections == 0 }, "open: \(server.openConnections)")
        // The mutations reach the interesting answers, not only one kind.
        XCTAssertGreaterThan(seen["200 OK"] ?? 0, 0, "\(seen)")
        XCTAssertGreaterThan(seen["400 Bad Request"] ?? 0, 0, "\(seen)")
        XCTAssertGreaterThan(seen["none"] ?? 0, 0, "\(seen)")
        XCTAssertEqual(machine.configuration, ["idle"], "no mutation produced a ping")
    }

    // MARK: - Support

    private func waitUntil(seconds: Double = 3, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }
}

/// A plain HTTP client on raw sockets, independent of the library's, for 127.0.0.1 only.
enum RawHTTPClient {
    struct Failure: Error { var message: String }

    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(message: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(message: "connect to 127.0.0.1:\(port) failed (errno \(errno))")
        }
        return fd
    }

    /// Sends `request` whole, then reads the answer (at most 5 s).
    static func exchange(port: Int, _ request: String) throws -> String {
        let fd = try connect(port: port)
        defer { close(fd) }
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        return readAvailable(fd, waiting: .seconds(5), untilClose: true)
    }

    static func post(port: Int, path: String, body: String) throws -> (status: Int, answer: String) {
        let answer = try exchange(port: port, "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return (Int(answer.split(separator: " ").dropFirst().first ?? "") ?? -1, answer)
    }

    /// What arrives within `waiting` (everything up to the close when `untilClose`).
    static func readAvailable(_ fd: Int32, waiting: Duration, untilClose: Bool = false) -> String {
        let deadline = ContinuousClock.now + waiting
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            let remaining = ContinuousClock.now.duration(to: deadline).components
            let milliseconds = Int32(clamping: remaining.seconds * 1000 + remaining.attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, milliseconds) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
            if !untilClose { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A small seeded generator (SplitMix64), so the mutated requests are the same on every run.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
