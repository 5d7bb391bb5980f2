import Foundation
import XCTest

/// `run` and `trace` with the BasicHTTP Event I/O Processor: its server starts for documents
/// that use it (loopback only), and `--allow-host` widens where `<send>` may go. No traffic
/// leaves 127.0.0.1.
final class NetworkOptionsTests: XCTestCase {
    /// The W3C IRP tests of the BasicHTTP Event I/O Processor (C.2) and of the send errors that
    /// need it; each halts in `pass`.
    static let basicHTTPTests = [201, 509, 510, 518, 519, 520, 521, 522, 531, 532, 534, 567]

    func testTheW3CBasicHTTPTestsPassThroughRun() throws {
        for number in Self.basicHTTPTests {
            let file = "Tests/W3C/ecma/test\(number).scxml"
            XCTAssertTrue(FileManager.default.fileExists(atPath: CLI.repository.appendingPathComponent(file).path), file)
            let result = try CLI.run(["run", file, "--timeout", "10"])
            XCTAssertEqual(result.lines, [#"{"finished": true, "configuration": ["pass"]}"#], "test\(number): \(result.stderr)")
            XCTAssertEqual(result.status, 0, "test\(number)")
        }
    }

    func testTraceReachesTheSessionsOwnLocation() throws {
        // The chart posts to itself at start-up; by the time the next input line is read, the
        // posted event has been processed.
        let result = try CLI.run(["trace", "Tests/W3C/ecma/test531.scxml"], input: "tick\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.count, 2, result.stdout)
        XCTAssertEqual(result.lines.last, #"{"event": "tick", "configuration": ["pass"]}"#)
    }

    func testAllowHostWidensWhereSendMayGoAndIsChecked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-network-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("remote.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <state id="s">
                <onentry><send event="e" type="basichttp" target="http://orders.example/in"/></onentry>
                <transition event="error.communication" target="refused"><log label="error" expr="_event.data"/></transition>
              </state>
              <final id="refused"/>
            </scxml>
            """.write(to: file, atomically: true, encoding: .utf8)

        let loopback = try CLI.run(["run", file.path, "--timeout", "5"])
        XCTAssertEqual(loopback.lines, [#"{"finished": true, "configuration": ["refused"]}"#])
        XCTAssertEqual(loopback.stderr, "log: error: <send type=\"basichttp\"> to 'http://orders.example/in': the host 'orders.example' is not allowed: only loopback may be reached (SCXMLMachine.Options.httpHosts; statechart run/trace --allow-host HOST)\n")

        // Another host named: still refused, and the message lists what is allowed. (Naming
        // orders.example itself would look it up: these tests stay off the network.)
        let other = try CLI.run(["run", file.path, "--timeout", "5", "--allow-host", "Billing.Example", "--allow-host", "[::1]"])
        XCTAssertEqual(other.lines, [#"{"finished": true, "configuration": ["refused"]}"#])
        XCTAssertTrue(other.stderr.contains("is not allowed: only loopback, [::1], billing.example may be reached"), other.stderr)

        let traced = try CLI.run(["trace", file.path, "--allow-host", "billing.example"])
        XCTAssertEqual(traced.lines, [#"{"event": null, "configuration": ["refused"]}"#])
        XCTAssertTrue(traced.stderr.contains("only loopback, billing.example may be reached"), traced.stderr)

        let bad = try CLI.run(["run", file.path, "--allow-host", "a b"])
        XCTAssertEqual(bad.status, 2)       // invalid arguments: 2, as for every command
        XCTAssertTrue(bad.stderr.contains("--allow-host 'a b' is not a host name or an IP address"), bad.stderr)
    }
}
