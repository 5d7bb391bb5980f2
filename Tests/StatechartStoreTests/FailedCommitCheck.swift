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
    do {
        try await doors.processNext()
        XCTFail("the commit must fail")
    } catch let error as DurableError {
        guard case .storage(let text) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(text.contains(message), text)
    }
    let afterFailure = try await store.load("front")
    XCTAssertEqual(afterFailure, before, "no half commit")
    let appliedAfterFailure = try await store.appliedEvents("front")
    XCTAssertEqual(appliedAfterFailure, ["a"])
    let waiting = try await store.backlog().messages
    XCTAssertEqual(waiting, 1, "the event still waits")

    try await recover()
    try await doors.processAvailable()
    let states = try await doors.snapshot(of: "front")?.machine.activeStates
    XCTAssertEqual(states, [.closed], "applied once, after the failure")
    let applied = try await store.appliedEvents("front")
    XCTAssertEqual(applied, ["a", "b"])
}
