import Foundation

/// A thread-safe list of what an example's actions did, in order.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }

    /// Everything recorded since the last call.
    func take() -> [String] {
        lock.withLock {
            defer { entries.removeAll() }
            return entries
        }
    }
}
