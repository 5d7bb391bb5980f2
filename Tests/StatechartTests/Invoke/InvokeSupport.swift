import Foundation
import Statechart
import Synchronization
import XCTest

enum Fetch: Hashable, Sendable { case idle, loading, loaded, failed, probe, watching, done }

enum FetchEvent: ChartEvent {
    case load, cancel, ping, loaded(Int), failed(String), reading(Int), ended, childDone(String)

    enum Name: Hashable, Sendable { case load, cancel, ping, loaded, failed, reading, ended, childDone }
    var name: Name {
        switch self {
        case .load: .load
        case .cancel: .cancel
        case .ping: .ping
        case .loaded: .loaded
        case .failed: .failed
        case .reading: .reading
        case .ended: .ended
        case .childDone: .childDone
        }
    }
}

enum Offline: Error, CustomStringConvertible {
    case noNetwork
    var description: String { "no network" }
}

/// A door invoked work waits behind until the test opens it. It ignores task cancellation on
/// purpose: it stands for work that finishes anyway, whose result must then be dropped.
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Waits (polling) until `condition` holds; fails the test after `seconds`.
func eventually(_ message: String, seconds: Double = 5, file: StaticString = #filePath, line: UInt = #line,
                _ condition: () -> Bool) async {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline {
            XCTFail("timed out waiting until \(message)", file: file, line: line)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// Lets other tasks run for a while, so that work which should not happen had the chance to.
func settle() async {
    for _ in 0..<20 {
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(2))
    }
}
