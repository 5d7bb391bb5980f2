import CStateCore

/// The typed layer's access to the configuration by state index, so `StateMachine.Context`'s
/// `isActive` can be inlined into (and specialized for) the caller's state type: a guard then
/// tests a state with a table load and one bit test, with no hashing.
extension ActionContext {
    /// Whether the state at `index` (document order, as compiled) is active.
    @usableFromInline
    func isActive(stateIndex index: Int) -> Bool { checked.isActive(index: index) }
}
