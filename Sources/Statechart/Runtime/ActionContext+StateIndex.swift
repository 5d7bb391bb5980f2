import CStateCore

/// The typed layer's access to the configuration by state index, so `StateMachine.Context`'s
/// `isActive` can be inlined into (and specialized for) the caller's state type: a guard then
/// tests a state with a table load and one bit test, with no hashing.
extension ActionContext {
    /// Whether the state at `index` (document order, as compiled) is active.
    @usableFromInline
    func isActive(stateIndex index: Int) -> Bool {
        // The runtime outlives every context (see `runtime`): borrowing it without a retain
        // saves two atomic reference-count operations per guard.
        Unmanaged.passUnretained(runtime)._withUnsafeGuaranteedRef { $0.isActive(index: index) }
    }
}
