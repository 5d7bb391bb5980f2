#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Statechart
import StatechartSCXML
import XCTest

/// The BasicHTTP Event I/O Processor (SCXML C.2): a loopback server that turns POSTs into
/// events, and `<send type="...#BasicHTTPEventProcessor">`. Everything stays on 127.0.0.1.
final class BasicHTTPTests: XCTestCase {
    static let waitForEvents = """
        <state id="s">
          <transition event="order.placed"><log expr="'order ' + _event.data.item + ' ' + _event.data.qty + ' ' + _event.origintype"/></transition>
          <transition event="json"><log expr="'json ' + _event.data.size"/></transition>
          <transition event="HTTP.POST"><log expr="'post ' + JSON.stringify(_event.data) + ' ' + (_event.raw.indexOf('POST /scxml/') === 0)"/></transition>
          <transition event="stop" target="done"/>
        </state>
        <final id="done"/>
        """

    func testPostsBecomeEventsOfTheSessionAtItsLocation() throws {
        let session = try TestSession(Self.waitForEvents, options: testOptions(basicHTTP: true))
        try session.machine.start()
        let location = try XCTUnwrap(try location(of: session))
        XCTAssertTrue(location.hasPrefix("http://127.0.0.1:"), location)
        XCTAssertNotNil(location.range(of: #"^http://127\.0\.0\.1:[0-9]+/scxml/[0-9a-f]{32}$"#, options: .regularExpression), location)

        XCTAssertEqual(try post(location, body: "_scxmleventname=order.placed&item=green+tea&qty=2"), 200)
        XCTAssertEqual(try post(location + "?_scxmleventname=json", body: #"{"size": 27}"#, contentType: "application/json"), 200)
        XCTAssertEqual(try post(location, body: "note=hello%20there"), 200)
        XCTAssertEqual(session.waitForLogs(3), [
            "order green tea 2 \(SCXMLEvent.basicHTTPProcessorType)", "json 27", #"post {"note":"hello there"} true"#,
        ])
        try session.machine.send("stop")
    }

    func testOnlyPostIsAcceptedAndOnlyForLiveSessions() throws {
        let session = try TestSession(Self.waitForEvents, options: testOptions(basicHTTP: true))
        try session.machine.start()
        let location = try XCTUnwrap(try location(of: session))
        XCTAssertEqual(try request("GET", location, body: ""), 405)
        XCTAssertEqual(try post(location.replacingOccurrences(of: #"/scxml/[0-9a-f]+$"#, with: "/scxml/none", options: .regularExpression),
                                body: "_scxmleventname=x"), 404)
        XCTAssertEqual(try post(location.replacingOccurrences(of: "/scxml/", with: "/other/"), body: ""), 404)
        XCTAssertEqual(try post(location, body: "_scxmleventname=%zz"), 400)
        // A length that is not a plain decimal number is refused, not read as 0 or to the close.
        for length in ["-5", "x", "3x", "+3", "3, 3", " "] {
            XCTAssertEqual(try request("POST", location, body: "a=1", contentLength: length), 400, length)
        }
        for length in ["99999999999999999", "9223372036854775807", "1048577"] {
            XCTAssertEqual(try request("POST", location, body: "a=1", contentLength: length), 413, length)
        }
        XCTAssertEqual(try request("POST", location, body: "a=2", contentLength: "003"), 200)
        // Only the request with a valid Content-Length was an event.
        XCTAssertEqual(session.waitForLogs(1), [#"post {"a":"2"} true"#])
        try session.machine.send("stop")
        XCTAssertTrue(session.machine.waitUntilFinished(timeout: .seconds(5)))
        XCTAssertEqual(session.logs.count, 1)
    }

    func testSendingThroughBasicHTTPEncodesNameNamelistParamsAndContent() throws {
        // W3C 509/518/519/520/531/534/567: a document posts to its own location.
        let session = try TestSession("""
            <datamodel><data id="Var1" expr="2"/></datamodel>
            <state id="s0">
              <onentry>
                <send event="first" targetexpr="_ioprocessors['basichttp'].location" namelist="Var1"
                      type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"><param name="p" expr="'a b'"/></send>
                <send targetexpr="_ioprocessors.basichttp.location" type="basichttp"><content>some text</content></send>
                <send event="after"/>
              </onentry>
              <transition event="first">
                <log expr="_event.name + ' ' + _event.data.Var1 + ' ' + _event.data.p + ' ' + (_event.raw.search(/_scxmleventname=first/) !== -1)"/>
              </transition>
              <transition event="HTTP.POST"><log expr="_event.data.content + ' ' + (_event.raw.search(/some%20text/) !== -1)"/></transition>
              <transition event="after" target="done"><log expr="'after'"/></transition>
            </state>
            <final id="done"/>
            """, options: testOptions(basicHTTP: true))
        // The posts reach the session before the event it sends itself afterwards (W3C 201).
        XCTAssertEqual(try session.run(), ["first 2 a b true", "some text true", "after"])
    }

    func testWithoutTheServerTheLocationIsMissingAndSendingToNowhereFails() throws {
        let session = try TestSession("""
            <state id="s">
              <onentry>
                <log expr="typeof _ioprocessors.basichttp"/>
                <send event="e" target="http://127.0.0.1:1/scxml/x" type="basichttp"/>
              </onentry>
              <transition event="error.communication" target="done"><log expr="_event.name"/></transition>
            </state>
            <final id="done"/>
            """, options: testOptions(basicHTTP: false))
        XCTAssertEqual(try session.run(), ["undefined", "error.communication"])
    }

    // MARK: - A plain HTTP client, independent of the library's

    private func location(of session: TestSession) throws -> String? {
        session.machine.basicHTTPLocation
    }

    private func post(_ url: String, body: String, contentType: String = "application/x-www-form-urlencoded") throws -> Int {
        try request("POST", url, body: body, contentType: contentType)
    }

    /// Sends one request and returns the status code.
    private func request(_ method: String, _ urlText: String, body: String,
                         contentType: String = "application/x-www-form-urlencoded", contentLength: String? = nil) throws -> Int {
        let url = try XCTUnwrap(URL(string: urlText))
        let port = try XCTUnwrap(url.port)
        XCTAssertEqual(url.host, "127.0.0.1")
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        let message = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: \(contentType)\r\n"
            + "Content-Length: \(contentLength ?? String(body.utf8.count))\r\nConnection: close\r\n\r\n\(body)"
        _ = message.withCString { send(fd, $0, strlen($0), 0) }
        shutdown(fd, Int32(SHUT_WR))
        var response = [UInt8](repeating: 0, count: 1024)
        let count = response.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        let head = String(decoding: response.prefix(max(0, count)), as: UTF8.self)
        return Int(head.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}
