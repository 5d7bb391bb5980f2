import Dispatch
import Foundation
import Statechart

/// `trace --timeout`: interrupts the machine when one input line's work (its macrostep and the
/// events the chart sent itself after it; start-up's too) runs past the timeout, from one
/// thread kept for the whole trace.
///
/// ``run(_:)`` arms the deadline, runs the work, disarms it, and clears the interrupt if it
/// fired. The interrupt is made under the same lock that disarms, so once ``run(_:)`` has
/// disarmed no interrupt can still arrive and stop the next line's work.
final class LineWatchdog: @unchecked Sendable {
    // @unchecked: `deadline` and `fired` are only read and written holding `condition`.
    private let condition = NSCondition()
    private var deadline: DispatchTime?
    private var fired = false
    private let machine: Machine
    private let seconds: Double

    init(machine: Machine, seconds: Double) {
        self.machine = machine
        self.seconds = seconds
        Thread.detachNewThread { [self] in watch() }
    }

    /// Runs `work` with the deadline armed: whether the timeout stopped it.
    func run(_ work: () -> Void) -> Bool {
        condition.withLock {
            deadline = .now() + seconds
            fired = false
            condition.signal()
        }
        work()
        let timedOut = condition.withLock {
            deadline = nil
            return fired
        }
        if timedOut { machine.clearInterrupt() }
        return timedOut
    }

    private func watch() {
        condition.lock()
        while true {
            guard let due = deadline else {
                condition.wait()
                continue
            }
            let now = DispatchTime.now()
            if now >= due {
                machine.interrupt()
                fired = true
                deadline = nil
                continue
            }
            let left = Double(due.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
    }
}
