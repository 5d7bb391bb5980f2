import CStateCore
import Synchronization

/// Stopping a machine's work from another thread: a wall-clock timeout. The core has no clock
/// and counts steps (``MachineOptions/maximumStepsPerMacrostep``); a chart whose steps are slow
/// (long scripts) can take minutes to reach that bound, so a host with a deadline interrupts.
extension Machine {
    /// Stops the work the machine is doing, from any thread, without waiting for it: the
    /// macrostep in progress stops before its next eventless microstep or internal event (a
    /// microstep is never cut in half, so the configuration stays legal), events the machine
    /// queued for itself are dropped, and the call that ran the macrostep throws
    /// ``MachineError/interrupted(configuration:)``. Until ``clearInterrupt()``, every later
    /// macrostep stops the same way after its event's own microstep.
    ///
    /// ```swift
    /// let timer = DispatchWorkItem { machine.interrupt() }
    /// DispatchQueue.global().asyncAfter(deadline: .now() + 3, execute: timer)
    /// do { try machine.send("go") } catch MachineError.interrupted(let configuration) {
    ///     print("timed out in", configuration)
    /// }
    /// ```
    /// - Complexity: O(1); two atomic stores. A script that never returns is not stopped by
    ///   this (the ECMAScript datamodel bounds script time itself).
    public func interrupt() {
        runtime.interruptFlag.store(true, ordering: .relaxed)
        sc_machine_interrupt(runtime.core, true)
    }

    /// Lets macrosteps run to completion again after ``interrupt()``.
    public func clearInterrupt() {
        runtime.interruptFlag.store(false, ordering: .relaxed)
        sc_machine_interrupt(runtime.core, false)
    }

    /// Whether ``interrupt()`` was called and ``clearInterrupt()`` has not been since.
    public var isInterrupted: Bool { runtime.interruptFlag.load(ordering: .relaxed) }
}
