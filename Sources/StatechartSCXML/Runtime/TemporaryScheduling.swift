import Foundation
import Statechart

// TEMPORARY until the Statechart scheduler (delayed events with ids, injectable clock) lands:
// delayed sends go through a global dispatch timer; cancel marks the id.
// Delete this file when ActionContext.send(_:after:id:) and cancel(sendID:) exist.
final class TemporaryScheduler: @unchecked Sendable {
    static let shared = TemporaryScheduler()
    private let lock = NSLock()
    private var cancelled: Set<String> = []

    func cancel(_ id: String) { lock.withLock { _ = cancelled.insert(id) } }

    func schedule(_ event: Event, after delay: Duration, id: String, machine: Machine?) {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak machine] in
            let isCancelled = self.lock.withLock { self.cancelled.remove(id) != nil }
            if !isCancelled, let machine, !machine.isFinished { _ = try? machine.send(event) }
        }
    }
}

extension ActionContext {
    func send(_ event: Event, after delay: Duration, id: String) {
        TemporaryScheduler.shared.schedule(event, after: delay, id: id, machine: machine)
    }

    func cancel(sendID: String) { TemporaryScheduler.shared.cancel(sendID) }
}
