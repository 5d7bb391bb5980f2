import Dispatch
import Synchronization

/// What a document and every session it invokes (at any depth) share: the count of invoked
/// sessions alive, bounded by ``SCXMLMachine/Options/maximumInvokedSessions``, and where their
/// deliveries run. Sessions of a tree run on their own queues, so the count is atomic.
final class SessionTree: Sendable {
    private let invoked = Atomic<Int>(0)
    /// ``SCXMLMachine/Options/hostRunsSessions``: work waits in ``pending`` for the host.
    let hostRuns: Bool
    /// The work scheduled while the host runs it, oldest first.
    private let pending = Mutex<[@Sendable () -> Void]>([])

    init(hostRuns: Bool = false) {
        self.hostRuns = hostRuns
    }

    /// Runs `work` on `queue` now, or, when the host runs the tree's work, when it next does.
    func schedule(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        if hostRuns {
            pending.withLock { $0.append(work) }
        } else {
            queue.async(execute: work)
        }
    }

    /// Runs the scheduled work in order, what it schedules included, on the calling thread,
    /// until none is left or `limit` items have run; whether none is left.
    func runPending(limit: Int) -> Bool {
        var ran = 0
        while true {
            // What was scheduled so far, in order; what it schedules comes after it.
            let batch = pending.withLock { items in
                defer { items.removeAll() }
                return items
            }
            if batch.isEmpty { return true }
            for (index, work) in batch.enumerated() {
                guard ran < limit else {
                    pending.withLock { $0.insert(contentsOf: batch[index...], at: 0) }
                    return false
                }
                work()
                ran += 1
            }
        }
    }

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
