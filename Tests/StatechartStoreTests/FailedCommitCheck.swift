import Statechart
import StatechartStore
import XCTest

typealias DoorSessions = DurableSessions<DurableChart<Door, DoorEvent, DoorLog>>

/// With "front" of `doors` committed once (event "a"), makes the store fail in the middle of
/// its next commit (`failMidway`: after the snapshot's update), and checks that applying "b"
/// fails with a storage error containing `message`, that nothing of it was written and the event
/// still waits; then, once `recover` has removed the failure, that "b" is applied once.
func checkFailedCommitWritesNothing(_ doors: DoorSessions, message: String,
                                    failMidway: () async throws -> Void, recover: () async throws -> Void) async throws {
    let store = doors.store
    let before = try await store.load("front")
    try await failMidway()
    try await doors.send(.pull, id: "b", to: "front")
    await assertStorageError({ try await doors.processNext() }, { $0.contains(message) })
    try await assertNothingCommitted(store, before: before, applied: ["a"], waiting: 1)

    try await recover()
    try await doors.processAvailable()
    let states = try await doors.snapshot(of: "front")?.machine.activeStates
    XCTAssertEqual(states, [.closed], "applied once, after the failure")
    let applied = try await store.appliedEvents("front")
    XCTAssertEqual(applied, ["a", "b"])
}

/// Checks that `body` fails with ``DurableError/storage(_:)`` and a text that `matches`.
func assertStorageError(_ body: () async throws -> Any?, _ matches: (String) -> Bool,
                        file: StaticString = #filePath, line: UInt = #line) async {
    do {
        let result = try await body()
        XCTFail("the commit must fail, not return \(String(describing: result))", file: file, line: line)
    } catch let error as DurableError {
        guard case .storage(let text) = error else { return XCTFail("\(error)", file: file, line: line) }
        XCTAssertTrue(matches(text), text, file: file, line: line)
    } catch {
        XCTFail("\(error) is not a DurableError", file: file, line: line)
    }
}

/// Checks that a failed commit left "front" as it was (`before`), its applied-event log
/// `applied`, and `waiting` messages in the inboxes.
func assertNothingCommitted(_ store: any SessionStore, before: StoredSession?, applied: [String], waiting: Int,
                            file: StaticString = #filePath, line: UInt = #line) async throws {
    let after = try await store.load("front")
    XCTAssertEqual(after, before, "no half commit", file: file, line: line)
    let log = try await store.appliedEvents("front")
    XCTAssertEqual(log, applied, file: file, line: line)
    let left = try await store.backlog().messages
    XCTAssertEqual(left, waiting, "the events still wait", file: file, line: line)
}
