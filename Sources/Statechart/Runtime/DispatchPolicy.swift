import CStateCore

/// How a send reaches the core, derived from the machine's state in one place
/// (`MachineRuntime.updateDispatchPolicy`) whenever that state changes: the send path reads
/// this value and tests no condition of its own.
///
/// ```swift
/// let policy = runtime.dispatchPolicy
/// guard policy.dispatchesDirectly else { return try processInFull(event) }
/// let status = sc_machine_dispatch(core, event)
/// if policy.completesSend(status) { return status == SC_OK ? .handled : .unhandled }
/// ```
@usableFromInline
struct DispatchPolicy {
    /// A send may call `sc_machine_dispatch` at once: the machine is started, nothing has to see
    /// the event first (no external-event gate, no unhandled-event observer), and the machine
    /// is not the differential tests' reference (``MachineOptions/runsFullAlgorithm``).
    @usableFromInline let dispatchesDirectly: Bool
    /// A confined machine's send may do so holding nothing: as ``dispatchesDirectly``, and the
    /// machine is confined and not shared (`MachineRuntime.isShared`), so no other thread can
    /// reach it and its own callbacks cannot send to it without sharing it first, which takes
    /// the lock.
    @usableFromInline let confinedSendsUnlocked: Bool
    /// The lowest of the statuses SC_OK (0) and SC_UNHANDLED (1) after which a direct dispatch
    /// leaves its send nothing to do: 0 when both do; 1 when only SC_UNHANDLED does (the chart
    /// has a top-level final state, so SC_OK may mean it halted); 2 when neither (a callback
    /// queued an event, recorded an error, asked to stop, or shared a confined machine).
    @usableFromInline let lowestCompletingStatus: UInt32

    /// The policy for a machine in this state.
    init(started: Bool, eventNeedsSeeing: Bool, runsFullAlgorithm: Bool, unlockedConfined: Bool,
         workPending: Bool, mayHalt: Bool) {
        dispatchesDirectly = started && !eventNeedsSeeing && !runsFullAlgorithm
        confinedSendsUnlocked = dispatchesDirectly && unlockedConfined
        lowestCompletingStatus = workPending ? 2 : mayHalt ? 1 : 0
    }

    /// After a direct dispatch that returned `status`: whether the send is complete, with
    /// nothing left to do (no error, no queued event, no stop, no halt). `status` is in
    /// `lowestCompletingStatus..<2` (errors are negative and wrap past it).
    @inlinable @inline(__always)
    func completesSend(_ status: sc_status) -> Bool {
        UInt32(bitPattern: status.rawValue) &- lowestCompletingStatus < 2 &- lowestCompletingStatus
    }
}
