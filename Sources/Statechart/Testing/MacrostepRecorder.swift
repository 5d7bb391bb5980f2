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

extension Machine {
    /// The active atomic states' indices, in document order.
    package var atomicStateIndices: [Int] { access { runtime.activeIndices(atomicOnly: true) } }

    /// The configuration and history records as the path search compares machine states.
    package func searchKey() throws -> MachineSearchKey {
        let raw = try captureRaw()
        return MachineSearchKey(active: raw.active, history: raw.history.map { [$0.state] + $0.remembered },
                                queued: raw.internalEvents.map(\.event.name), halted: raw.halted)
    }
}

/// A machine's configuration, history records, queued internal events and whether it halted:
/// what the path search tells machine states apart by (and, for the null datamodel, all of it).
package struct MachineSearchKey: Hashable, Sendable {
    package var active: [Int]
    package var history: [[Int]]
    package var queued: [String]
    package var halted: Bool
}
