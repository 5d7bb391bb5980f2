import CDuktapeShim
import StatechartSCXML

/// A byte limit shared by several ``ECMAScriptEngine``s: every block of their heaps (payload and
/// bookkeeping) counts against it, whichever thread the engines run on. An allocation that would
/// pass it is refused and the script running fails with `Error: alloc failed: ...`.
///
/// The ECMAScript datamodel uses one budget per SCXML document tree (a machine and the sessions
/// its `<invoke>`s start), with `SCXMLScriptLimits.memoryPerDocumentTree` as its limit.
///
/// ```swift
/// let budget = ECMAScriptMemoryBudget(limit: 32 << 20)
/// let engine = try ECMAScriptEngine(memoryBudget: budget)
/// print(budget.inUse, "of", budget.limit)            // about 100 KB of 33554432
/// ```
public final class ECMAScriptMemoryBudget: Sendable {
    // Sendable: the C budget is immutable but for its atomic counters.
    nonisolated(unsafe) let handle: OpaquePointer

    /// A budget of `limit` bytes (0 or less: unlimited, only counted).
    ///
    /// ```swift
    /// let unlimited = ECMAScriptMemoryBudget(limit: 0)
    /// ```
    public init(limit: Int) {
        guard let handle = dukshim_budget_create(max(0, limit)) else {
            fatalError("out of memory creating an ECMAScript memory budget") // as any Swift allocation would
        }
        self.handle = handle
    }

    deinit {
        dukshim_budget_release(handle) // the engines hold their own references
    }

    /// The limit in bytes (0: unlimited).
    ///
    /// ```swift
    /// ECMAScriptMemoryBudget(limit: 1 << 20).limit          // 1048576
    /// ```
    public var limit: Int { dukshim_budget_limit(handle) }

    /// Bytes the heaps of this budget hold now.
    ///
    /// ```swift
    /// if budget.inUse > budget.limit / 2 { print("scripts use half their memory") }
    /// ```
    public var inUse: Int { dukshim_budget_in_use(handle) }

    /// Charges `bytes` held outside the heaps (a value copied out of an engine) until the lease
    /// is released; `nil` when they do not fit in the limit (nothing is charged then).
    ///
    /// ```swift
    /// guard let lease = budget.charge(bytes: 1_024) else { throw ... }
    /// ```
    public func charge(bytes: Int) -> SCXMLPayloadLease? {
        let bytes = max(0, bytes)
        guard dukshim_budget_charge(handle, bytes) != 0 else { return nil }
        return SCXMLPayloadLease { [self] in dukshim_budget_refund(handle, bytes) }
    }
}
