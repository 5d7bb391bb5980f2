import Foundation
import GRDB
import Statechart
import StatechartStore
import StatechartStoreSQLite
import XCTest

enum Door: String, Hashable, Sendable, Codable { case closed, open }
enum DoorEvent: ChartEvent, Codable {
    case push(Int), pull, notify(String)
    enum Name: Hashable, Sendable { case push, pull, notify }
    var name: Name {
        switch self {
        case .push: .push
        case .pull: .pull
        case .notify: .notify
        }
    }
    typealias Context = DoorLog
}
struct DoorLog: Sendable, Codable, Equatable { var pushes: [Int] = []; var notes: [String] = [] }

func doorChart() throws -> TypedChart<Door, DoorEvent> {
    try TypedChart(name: "door") {
        StateNode(.closed) {
            On(.push, to: .open) { ctx in
                guard case .push(let n)? = ctx.event else { return }
                ctx.context.pushes.append(n)
                ctx.sendOutward(DoorEvent.notify("opened by \(n)"), name: "notify", to: "session:watcher")
                ctx.sendOutward(["opened": n], name: "opened", to: "mail:ops")
            }
        }
        StateNode(.open) { On(.pull, to: .closed) }
        On(.notify) { ctx in
            guard case .notify(let note)? = ctx.event else { return }
            ctx.context.notes.append(note)
        }
    }
}

extension XCTestCase {
    /// A store in a new file, removed after the test, and the file's path.
    func makeStore() throws -> (SQLiteSessionStore, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sessions.sqlite").path
        return (try SQLiteSessionStore(path: path), path)
    }
}

final class SQLiteSessionTests: XCTestCase {
    private func doors(_ store: SQLiteSessionStore, version: String = "door-1") throws -> DurableSessions<DurableChart<Door, DoorEvent, DoorLog>> {
        DurableSessions(store: store, kind: DurableChart(try doorChart(), version: version) { _ in DoorLog() }, worker: "test")
    }

    func testAnEventDeliveredTwiceIsAppliedOnceAndARestartResumesAfterTheLastCommit() async throws {
        let (store, path) = try makeStore()
        let doors = try doors(store)
        try await doors.prepare()
        let sent = try await doors.send(.push(1), id: "a", to: "front")
        let again = try await doors.send(.push(1), id: "a", to: "front")
        XCTAssertEqual([sent, again], [true, false], "the second send of id 'a' is refused while 'a' waits")
        try await doors.processAvailable()
        let afterApplied = try await doors.send(.push(1), id: "a", to: "front")
        XCTAssertFalse(afterApplied, "an applied id is refused")
        try await doors.send(.pull, id: "b", to: "front")

        // Another process (a new store and sessions object on the same file) resumes after "a".
        let reopened = try self.doors(try SQLiteSessionStore(path: path))
        try await reopened.processAvailable()
        try await reopened.send(.push(2), id: "c", to: "front")
        try await reopened.processAvailable()
        let snapshot = try await reopened.snapshot(of: "front")
        XCTAssertEqual(snapshot?.machine.activeStates, [.open])
        XCTAssertEqual(snapshot?.context.pushes, [1, 2])
        let applied = try await store.appliedEvents("front")
        XCTAssertEqual(applied, ["a", "b", "c"])
    }

    func testOutboxGoesToOtherSessionsInTheCommitAndToTheHandlerAtLeastOnce() async throws {
        let (store, _) = try makeStore()
        let doors = try doors(store)
        try await doors.prepare()
        try await doors.send(.push(7), id: "p", to: "front")
        let work = try await doors.processAvailable()
        XCTAssertEqual(work, [.committed(session: "front", version: 1), .committed(session: "watcher", version: 1)],
                       "the notify to session:watcher was put in its inbox by front's commit")
        let watcher = try await doors.snapshot(of: "watcher")
        XCTAssertEqual(watcher?.context.notes, ["opened by 7"])
        let watcherLog = try await store.appliedEvents("watcher")
        XCTAssertEqual(watcherLog, ["front/1/0"], "the outbox id is the event id")

        struct Unreachable: Error {}
        do {
            try await doors.deliverOutbox { _ in throw Unreachable() }
            XCTFail("the failing handler's error is passed on")
        } catch is Unreachable {}
        var delivered: [OutboxMessage] = []
        try await doors.deliverOutbox { delivered.append($0) }
        XCTAssertEqual(delivered.map(\.id), ["front/1/1"], "kept after the failed delivery, then delivered with its id")
        XCTAssertEqual(delivered.first?.target, "mail:ops")
        XCTAssertEqual(delivered.first.map { String(decoding: $0.body, as: UTF8.self) }, #"{"opened":7}"#)
        let outboxLeft = try await store.outbox(limit: 10)
        XCTAssertEqual(outboxLeft, [], "acknowledged")
    }

    func testASessionOfAnotherChartVersionIsRefusedAndLeftUntouchedWhileOthersGoOn() async throws {
        let (store, path) = try makeStore()
        let v1 = try doors(store)
        try await v1.prepare()
        try await v1.send(.push(1), id: "a", to: "old")
        try await v1.processAvailable()
        let before = try await store.load("old")

        let v2 = try doors(try SQLiteSessionStore(path: path), version: "door-2")
        try await v2.send(.push(2), id: "b", to: "old")
        try await v2.send(.push(3), id: "c", to: "new")
        let work = try await v2.processAvailable()
        func refused(_ session: String) -> SessionFault {
            SessionFault(session: session, reason: "session '\(session)' was saved by chart version 'door-1', but this process runs 'door-2'; it is left as stored (run it with its own version, or migrate it)")
        }
        // "new" is a door-2 session; its push notifies "watcher", which door-1 saved (when "old"
        // was pushed), so that one is refused too.
        XCTAssertEqual(work, [.faulted(refused("old")), .committed(session: "new", version: 1), .faulted(refused("watcher"))])
        let afterRefusal = try await store.load("old")
        XCTAssertEqual(afterRefusal, before, "snapshot, version and timers unchanged")
        let faults = try await store.faults()
        XCTAssertEqual(faults, [refused("old"), refused("watcher")])
        let waiting = try await store.backlog().messages
        XCTAssertEqual(waiting, 2, "the refused sessions' events still wait")
    }

    func testAnUnreadableRowNamesItsSessionAndTheOthersGoOn() async throws {
        let (store, path) = try makeStore()
        let doors = try doors(store)
        try await doors.prepare()
        try await doors.send([(.push(1), "a", "broken"), (.push(2), "b", "fine")])
        try await doors.processAvailable()
        let database = try DatabaseQueue(path: path)
        try await database.write { try $0.execute(sql: "UPDATE statechart_sessions SET state = x'7b6e6f' WHERE id = 'broken'") }
        try await doors.send([(.pull, "c", "broken"), (.pull, "d", "fine")])
        let fresh = try self.doors(try SQLiteSessionStore(path: path))     // no cached machines
        let work = try await fresh.processAvailable()
        guard case .faulted(let fault)? = work.first else { return XCTFail("\(work)") }
        XCTAssertEqual(fault.session, "broken")
        XCTAssertTrue(fault.reason.hasPrefix("session 'broken' cannot be read back: "), fault.reason)
        XCTAssertEqual(work.dropFirst(), [.committed(session: "fine", version: 2)])
        let fine = try await fresh.snapshot(of: "fine")
        XCTAssertEqual(fine?.machine.activeStates, [.closed])
    }

    func testAFailedCommitFailsTheSendAndWritesNothing() async throws {
        let (store, path) = try makeStore()
        let doors = try doors(store)
        try await doors.prepare()
        try await doors.send(.push(1), id: "a", to: "front")
        try await doors.processAvailable()
        // A disk that fills in the middle of the commit: the applied-log insert fails after
        // the snapshot was updated.
        let database = try DatabaseQueue(path: path)
        try await checkFailedCommitWritesNothing(doors, message: "database or disk is full", failMidway: {
            try await database.write {
                try $0.execute(sql: "CREATE TRIGGER full_disk BEFORE INSERT ON statechart_applied BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
            }
        }, recover: {
            try await database.write { try $0.execute(sql: "DROP TRIGGER full_disk") }
        })
    }

    func testANewerSchemaIsRefused() async throws {
        let (store, path) = try makeStore()
        try await store.migrate()
        let database = try DatabaseQueue(path: path)
        try await database.write { try $0.execute(sql: "INSERT INTO statechart_schema (version) VALUES (9)") }
        do {
            try await store.migrate()
            XCTFail("a newer schema must be refused")
        } catch let error as DurableError {
            XCTAssertEqual(error, .newerSchema(found: 9, supported: 1))
        }
    }
}
