import Foundation

/// Collects, for the path search, the states a machine enters and the transitions it takes
/// (by index), from observers installed on it.
package final class MacrostepRecorder: @unchecked Sendable {
    // @unchecked: every access holds `lock` (observers run on the thread running the
    // macrostep, which is the search's own while it sends).
    private let lock = NSLock()
    private var entered: [Int] = []
    private var taken: [Int] = []

    /// Observes `machine` from now on.
    package init(_ machine: Machine) {
        _ = machine.addStateObserver { [self] index, isEntry in
            if isEntry { lock.withLock { entered.append(index) } }
        }
        _ = machine.access {
            machine.runtime.observers.add(transition: { [self] index, _ in lock.withLock { taken.append(index) } })
        }
    }

    /// What was recorded since the last call.
    package func take() -> (entered: [Int], taken: [Int]) {
        lock.withLock {
            defer {
                entered.removeAll(keepingCapacity: true)
                taken.removeAll(keepingCapacity: true)
            }
            return (entered, taken)
        }
    }
}
