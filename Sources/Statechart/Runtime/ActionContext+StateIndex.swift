import CStateCore

/// The typed layer's access to the configuration by state index, so `StateMachine.Context`'s
/// `isActive` can be inlined into (and specialized for) the caller's state type: a guard then
/// tests a state with a table load, the context's check and one call of the core, with no
/// hashing and without touching the runtime.
extension ActionContext {
    /// Whether the state at `index` (document order, as compiled) is active.
    @inlinable @inline(__always)
    func isActive(stateIndex index: Int) -> Bool {
        checkLive()
        return sc_machine_is_active(core, sc_id(index))
    }
}
