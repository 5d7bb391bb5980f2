import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// A running ECMAScript document and what it logged (`<log>` of the session and of the sessions
/// it invoked), for tests that assert the exact order of what happened.
final class TestSession: @unchecked Sendable {
    // @unchecked: `logged` is only touched with `lock` held.
    let machine: SCXMLMachine
    private let lock = NSCondition()
    private var logged: [String] = []

    /// Loads `<scxml datamodel="ecmascript" attributes>` around `body`.
    init(_ body: String, attributes: String = "", options: SCXMLMachine.Options = .withECMAScript,
         baseURL: URL? = nil) throws {
        let text = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" "#
            + attributes + ">\n" + body + "\n</scxml>"
        machine = try SCXMLMachine(string: text, fileName: "test.scxml", baseURL: baseURL, options: options)
        machine.onLog { [weak self] label, message in self?.append(label.map { "\($0): \(message)" } ?? message) }
    }

    private func append(_ line: String) {
        lock.lock()
        logged.append(line)
        lock.broadcast()
        lock.unlock()
    }

    /// Everything logged so far.
    var logs: [String] {
        lock.lock()
        defer { lock.unlock() }
        return logged
    }

    /// Starts the machine and waits until it reaches a top-level final state; fails the test
    /// if it does not within `seconds`.
    @discardableResult
    func run(seconds: Double = 5, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try machine.start()
        let finished = machine.waitUntilFinished(timeout: .milliseconds(Int64(seconds * 1000)))
        XCTAssertTrue(finished, "not finished: \(machine.configuration), logs: \(logs)", file: file, line: line)
        return logs
    }

    /// Waits until at least `count` lines were logged (or `seconds` passed) and returns them.
    func waitForLogs(_ count: Int, seconds: Double = 5) -> [String] {
        let deadline = Date(timeIntervalSinceNow: seconds)
        lock.lock()
        defer { lock.unlock() }
        while logged.count < count && lock.wait(until: deadline) {}
        return logged
    }
}

/// The options the tests use: both datamodels, and BasicHTTP when asked.
func testOptions(basicHTTP: Bool = false) -> SCXMLMachine.Options {
    var options = SCXMLMachine.Options.withECMAScript
    options.acceptsBasicHTTP = basicHTTP
    return options
}
