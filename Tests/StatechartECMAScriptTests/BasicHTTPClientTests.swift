#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Statechart
@testable import StatechartSCXML
import XCTest

/// Where a BasicHTTP `<send>` may go (SCXMLMachine.Options.httpHosts) and what it may carry:
/// refused targets fail with error.communication before any lookup or connection. A local
/// listener on 127.0.0.1 records what arrives.
final class BasicHTTPClientTests: XCTestCase {
    /// Sends `hello` to `target`, then (in a block of its own, which a failed `<send>` does not
    /// skip) `after` to itself; logs the order of what comes back. Halts on `halt` (`after`
    /// by default).
    private func sendChart(_ target: String, halt: String = "after") -> String {
        """
        <state id="s">
          <onentry><send event="hello" type="basichttp" target="\(target)"><param name="x" expr="1"/></send></onentry>
          <onentry><send event="after"/></onentry>
          <transition event="error.communication" cond="'\(halt)' !== 'error.communication'"><log expr="'error: ' + _event.data"/></transition>
          <transition event="after" cond="'\(halt)' !== 'after'"><log expr="'after'"/></transition>
          <transition event="\(halt)" target="done"><log expr="_event.name === 'after' ? 'after' : 'error: ' + _event.data"/></transition>
        </state>
        <final id="done"/>
        """
    }

    private func run(_ target: String, hosts: HTTPHostAccess = .loopbackOnly) throws -> [String] {
        var options = testOptions()
        options.httpHosts = hosts
        return try TestSession(sendChart(target), options: options).run()
    }

    func testByDefaultOnlyLoopbackIsReachedAndOtherHostsFailBeforeAnyLookup() throws {
        // The error is raised while the <send> runs (on the internal queue, before `after`):
        // no lookup or connection was attempted, which would have happened in the background.
        let refusal = "only loopback may be reached (SCXMLMachine.Options.httpHosts; statechart run/trace --allow-host HOST)"
        XCTAssertEqual(try run("http://example.invalid/inbox"), [
            "error: <send type=\"basichttp\"> to 'http://example.invalid/inbox': the host 'example.invalid' is not allowed: \(refusal)",
            "after",
        ])
        for host in ["10.0.0.1", "[fe80::1]", "127.1", "0x7f000001", "localhost.example"] {
            let logs = try run("http://\(host):8080/")
            XCTAssertEqual(logs.count, 2, host)
            XCTAssertTrue(logs.first?.hasSuffix("is not allowed: \(refusal)") ?? false, "\(host): \(logs)")
        }
    }

    func testLoopbackTargetsReachTheListenerAsOneExactRequest() throws {
        let listener = try Listener()
        defer { listener.stop() }
        // Each post runs on a thread of its own: wait for one before sending the next, so the
        // order below is the order sent.
        for (index, host) in ["127.0.0.1", "localhost", "LOCALHOST"].enumerated() {
            XCTAssertEqual(try run("http://\(host):\(listener.port)/in%20box?q=1"), ["after"])
            XCTAssertEqual(listener.requests(index + 1).count, index + 1)
        }
        let expected = { (host: String) in
            "POST /in%20box?q=1 HTTP/1.1\r\nHost: \(host):\(listener.port)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 25\r\nConnection: close\r\n\r\n"
                + "_scxmleventname=hello&x=1"
        }
        XCTAssertEqual(listener.requests(3), [expected("127.0.0.1"), expected("localhost"), expected("localhost")])
    }

    func testTargetsThatWouldInjectIntoTheRequestAreRefusedWithoutConnecting() throws {
        let listener = try Listener()
        defer { listener.stop() }
        let base = "http://127.0.0.1:\(listener.port)"
        let cases = [
            ("\(base)/x%0D%0AInjected:%201", "the target URL contains the control character U+000D once percent-decoded"),
            ("\(base)/x?a=%0Ab", "the target URL contains the control character U+000A once percent-decoded"),
            ("\(base)/x%00", "the target URL contains the control character U+0000 once percent-decoded"),
            ("\(base)/a b", "the target URL contains a space; spaces and control characters must be percent-encoded"),
            ("http://user:secret@127.0.0.1:\(listener.port)/", "the target URL carries credentials, which BasicHTTP does not send"),
            ("http://127.0.0.1%0D%0AX:\(listener.port)/", "the host '127.0.0.1%0D%0AX' is not a host name or an IP address"),
            ("https://127.0.0.1:\(listener.port)/", "'https://127.0.0.1:\(listener.port)/' is not an http:// URL with a host"),
            ("http://127.0.0.1:0/", "the port 0 is not between 1 and 65535"),
        ]
        for (target, message) in cases {
            XCTAssertEqual(try run(target), ["error: <send type=\"basichttp\"> to '\(target)': \(message)", "after"], target)
        }
        XCTAssertEqual(listener.requests(1, waiting: 0.3), [], "nothing reached the listener")
    }

    func testTheHostOptionAllowsNamedHostsAndCanRefuseEverything() throws {
        let listener = try Listener()
        defer { listener.stop() }
        let target = "http://127.0.0.1:\(listener.port)/"
        let none = try run(target, hosts: .none)
        XCTAssertEqual(none, ["error: <send type=\"basichttp\"> to '\(target)': the host '127.0.0.1' is not allowed: no host is allowed (SCXMLMachine.Options.httpHosts; statechart run/trace --allow-host HOST)", "after"])
        let other = try run(target, hosts: HTTPHostAccess(allowsLoopback: false, hosts: ["orders.example"]))
        XCTAssertEqual(other, ["error: <send type=\"basichttp\"> to '\(target)': the host '127.0.0.1' is not allowed: only orders.example may be reached (SCXMLMachine.Options.httpHosts; statechart run/trace --allow-host HOST)", "after"])
        XCTAssertEqual(listener.requests(1, waiting: 0.3), [])
        // Named explicitly (loopback otherwise off), the host is reached.
        XCTAssertEqual(try run(target, hosts: HTTPHostAccess(allowsLoopback: false, hosts: ["127.0.0.1"])), ["after"])
        XCTAssertEqual(listener.requests(1).count, 1)
    }

    func testAnErrorAnswerBecomesErrorCommunication() throws {
        let listener = try Listener(answer: "HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n")
        defer { listener.stop() }
        let target = "http://127.0.0.1:\(listener.port)/"
        let session = try TestSession(sendChart(target, halt: "error.communication"), options: testOptions())
        // A loopback server that is not this process's own is posted to in the background, so
        // the error arrives later as an external event, racing `after` (which may or may not
        // have been processed when the error halts the chart).
        let logs = try session.run()
        XCTAssertEqual(logs.filter { $0 != "after" }, ["error: <send> to \(target): the server answered HTTP/1.1 503 Busy"])
        XCTAssertEqual(logs.last, "error: <send> to \(target): the server answered HTTP/1.1 503 Busy")
    }

    func testBackgroundPostsAreCappedAndTheNextSendFailsAtOnce() throws {
        // A server that accepts and never answers: every post waits for it.
        let listener = try Listener(answer: nil)
        let target = "http://127.0.0.1:\(listener.port)/"
        let cap = BasicHTTPClient.maxBackgroundPosts
        // Posts of earlier tests may still be reading their answers.
        let idle = Date(timeIntervalSinceNow: 5)
        while BasicHTTPClient.backgroundPostsInFlight > 0 && Date() < idle { usleep(10_000) }
        let session = try TestSession("""
            <datamodel><data id="sent" expr="0"/></datamodel>
            <state id="s">
              <onentry>
                <foreach array="[\(Array(repeating: "0", count: cap + 1).joined(separator: ","))]" item="i">
                  <send event="e" type="basichttp" target="\(target)"/><assign location="sent" expr="sent + 1"/>
                </foreach>
              </onentry>
              <transition event="error.communication" target="done"><log expr="sent + ' ' + _event.data"/></transition>
            </state>
            <final id="done"/>
            """, options: testOptions())
        XCTAssertEqual(try session.run(), ["\(cap) <send> to \(target): \(cap) BasicHTTP sends are already in progress"])
        XCTAssertEqual(BasicHTTPClient.backgroundPostsInFlight, cap)
        listener.stop()     // closes the held connections: the posts fail and end
        let deadline = Date(timeIntervalSinceNow: 5)
        while BasicHTTPClient.backgroundPostsInFlight > 0 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(BasicHTTPClient.backgroundPostsInFlight, 0)
    }
}

/// A one-thread HTTP listener on 127.0.0.1 that records each request (head and body as
/// received) and answers `answer`; with `answer` nil it holds every connection unanswered
/// until ``stop()``. It accepts for at most 20 s.
private final class Listener: @unchecked Sendable {
    // @unchecked: `received` is only touched with `lock` held.
    let port: Int
    private let fd: Int32
    private let lock = NSCondition()
    private var received: [String] = []
    private var stopped = false
    private var held: [Int32] = []

    init(answer: String? = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(fd, 16), 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let listening = fd
        Thread.detachNewThread { [self] in
            let end = Date(timeIntervalSinceNow: 20)
            while Date() < end && !isStopped {
                var entry = pollfd(fd: listening, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 100) > 0 else { continue }
                let client = accept(listening, nil, nil)
                if client < 0 { continue }
                guard let answer else {
                    hold(client)
                    continue
                }
                record(Self.readRequest(client))
                _ = answer.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                close(client)
            }
            close(listening)
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    func stop() {
        lock.lock()
        stopped = true
        held.forEach { close($0) }
        held = []
        lock.unlock()
    }

    private func hold(_ client: Int32) {
        lock.lock()
        if stopped { close(client) } else { held.append(client) }
        lock.unlock()
    }

    private func record(_ request: String) {
        lock.lock()
        received.append(request)
        lock.broadcast()
        lock.unlock()
    }

    /// The requests received once `count` arrived or `waiting` seconds passed.
    func requests(_ count: Int, waiting: Double = 5) -> [String] {
        let deadline = Date(timeIntervalSinceNow: waiting)
        lock.lock()
        defer { lock.unlock() }
        while received.count < count && lock.wait(until: deadline) {}
        return received
    }

    /// The head and `Content-Length` bytes of body (at most 2 s, 64 KiB).
    private static func readRequest(_ client: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Date(timeIntervalSinceNow: 2)
        while Date() < end && bytes.count < 65536 {
            let text = String(decoding: bytes, as: UTF8.self)
            if let blank = text.range(of: "\r\n\r\n") {
                let length = text[..<blank.lowerBound].split(separator: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count >= text[..<blank.upperBound].utf8.count + length { break }
            }
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
