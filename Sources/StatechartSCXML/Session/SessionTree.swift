import Synchronization

/// What a document and every session it invokes (at any depth) share: the count of invoked
/// sessions alive, bounded by ``SCXMLMachine/Options/maximumInvokedSessions``. Sessions of a
/// tree run on their own queues, so the count is atomic.
final class SessionTree: Sendable {
    private let invoked = Atomic<Int>(0)

    /// Counts one more invoked session unless `limit` are alive; whether it did.
    func reserve(limit: Int) -> Bool {
        var current = invoked.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = invoked.compareExchange(expected: current, desired: current + 1,
                                                                ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// An invoked session was freed (or never started).
    func release() {
        invoked.subtract(1, ordering: .relaxed)
    }

    /// Invoked sessions alive now.
    var count: Int { invoked.load(ordering: .relaxed) }
}
