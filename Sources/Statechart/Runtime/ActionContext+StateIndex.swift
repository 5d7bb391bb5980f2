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
        Self.isActive(stateIndex: index, runtimeAt: liveRuntimeAddress)
    }

    /// Whether the state at `index` is active in the runtime at `address`, which the caller
    /// got from ``liveRuntimeAddress``.
    @inlinable @inline(__always)
    static func isActive(stateIndex index: Int, runtimeAt address: UnsafeMutableRawPointer) -> Bool {
        Unmanaged<MachineRuntime>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.isActive(index: index) }
    }
}
