import Foundation
import Observation
import Statechart
import StatechartExamples
import Synchronization
import XCTest

/// The login example end to end: the network call through Invoke, retries counted in the
/// context and paced by the test clock, the status line redrawn through Observation.
final class LoginFlowTests: XCTestCase {
    struct Rejected: Error, CustomStringConvertible {
        var description: String
    }

    /// Answers each call with the next scripted outcome: a token, or an error.
    final class ScriptedAuthenticator: LoginFlow.Authenticator {
        private let script: Mutex<[Result<String, Rejected>]>
        let calls = Mutex<[String]>([])

        init(_ script: [Result<String, Rejected>]) { self.script = Mutex(script) }

        func signIn(user: String, password: String) async throws -> String {
            calls.withLock { $0.append("\(user)/\(password)") }
            return try script.withLock { $0.removeFirst() }.get()
        }
    }

    /// Waits until `condition` holds (the network call runs in its own task).
    func eventually(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                    _ condition: () -> Bool) async {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            if Date() > deadline { return XCTFail("timed out waiting until \(what)", file: file, line: line) }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    func testTwoFailuresAreRetriedAfterThePauseAndTheThirdAttemptSignsIn() async throws {
        let api = ScriptedAuthenticator([.failure(Rejected(description: "server busy")),
                                         .failure(Rejected(description: "timed out")), .success("T-42")])
        let clock = TestClock()
        let login = try LoginFlow(authenticator: api, clock: clock)
        XCTAssertEqual(login.status, "Please sign in")

        let redraws = Mutex(0)
        func track() { _ = withObservationTracking { login.status } onChange: { redraws.withLock { $0 += 1 } } }
        track()

        try login.submit(user: "ann", password: "pw")
        await eventually("the first attempt failed") { login.machine.isActive(.waitingToRetry) }
        XCTAssertEqual(redraws.withLock { $0 }, 1)      // one redraw per tracking, as SwiftUI does
        XCTAssertEqual(login.status, "server busy; retrying")
        XCTAssertEqual(login.machine.context.attempts, 1)

        track()
        clock.advance(by: .seconds(1))                  // half the pause: nothing happens
        XCTAssertEqual(login.machine.configuration, [.waitingToRetry])
        XCTAssertEqual(redraws.withLock { $0 }, 1)
        clock.advance(by: .seconds(1))
        await eventually("the second attempt failed") {
            login.machine.context.lastError == "timed out"
        }
        XCTAssertEqual(redraws.withLock { $0 }, 2)
        XCTAssertEqual(login.status, "timed out; retrying")

        clock.advance(by: .seconds(2))
        await eventually("the third attempt signed in") { login.machine.isActive(.signedIn) }
        XCTAssertEqual(login.status, "Welcome, ann")
        var expected = LoginFlow.Progress()
        expected.user = "ann"
        expected.attempts = 3
        expected.lastError = "timed out"
        expected.token = "T-42"                         // and the password is forgotten
        XCTAssertEqual(login.machine.context, expected)
        XCTAssertEqual(api.calls.withLock { $0 }, ["ann/pw", "ann/pw", "ann/pw"])
    }

    func testThreeFailuresLockTheAccountOut() async throws {
        let api = ScriptedAuthenticator((1...3).map { .failure(Rejected(description: "wrong password \($0)")) })
        let clock = TestClock()
        let login = try LoginFlow(authenticator: api, clock: clock)
        try login.submit(user: "bob", password: "guess")
        for attempt in 1...2 {
            await eventually("attempt \(attempt) failed") {
                login.machine.context.lastError == "wrong password \(attempt)"
            }
            clock.advance(by: LoginFlow.retryDelay)
        }
        await eventually("locked out") { login.machine.isFinished }
        XCTAssertEqual(login.machine.configuration, [.lockedOut])
        XCTAssertEqual(login.status, "Locked out after 3 attempts")
        XCTAssertEqual(login.machine.context.lastError, "wrong password 3")
    }

    func testCancellingWhileSigningInCancelsTheCall() async throws {
        final class HangingAuthenticator: LoginFlow.Authenticator {
            let cancelled = Mutex(false)
            func signIn(user: String, password: String) async throws -> String {
                do {
                    try await Task.sleep(for: .seconds(3600))
                } catch {
                    cancelled.withLock { $0 = true }
                    throw error
                }
                return "never"
            }
        }
        let api = HangingAuthenticator()
        let login = try LoginFlow(authenticator: api, clock: TestClock())
        try login.submit(user: "cy", password: "pw")
        XCTAssertEqual(login.status, "Signing in as cy (attempt 1 of 3)")
        XCTAssertEqual(try login.machine.send(.cancel), .handled)
        await eventually("the call saw the cancellation") { api.cancelled.withLock { $0 } }
        try await Task.sleep(for: .milliseconds(20))
        XCTAssertEqual(login.machine.configuration, [.form])     // its CancellationError was not delivered
    }
}
