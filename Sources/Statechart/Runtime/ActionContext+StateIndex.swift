import CStateCore

/// The typed layer's access to the configuration by state index, so `StateMachine.Context`'s
/// `isActive` can be inlined into (and specialized for) the caller's state type: a guard then
/// tests a state with the context's check, a table load and a bit of the configuration, with
/// no call, no hashing and nothing retained.
extension ActionContext {
    /// Whether the state at `index` (document order, as compiled) is active. Package-wide for
    /// the SCXML guards' state tests (`In()`), which read the configuration the same way.
    @inlinable @inline(__always)
    package func isActive(stateIndex index: Int) -> Bool {
        checkLive()
        return isActiveOnceLive(stateIndex: index)
    }

    /// ``isActive(stateIndex:)`` once the caller has checked that the context is live.
    @inlinable @inline(__always)
    func isActiveOnceLive(stateIndex index: Int) -> Bool {
        // No range check: every caller's index comes from the chart's own tables (the typed
        // maps, the SCXML state tests). Bit s of word s/64, as `MachineRuntime.isActive(index:)`.
        configuration.unsafelyUnwrapped[index &>> 6] &>> UInt64(index & 63) & 1 != 0
    }
}
