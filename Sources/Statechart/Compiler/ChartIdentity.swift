import Synchronization

/// A compiled chart's identity, never reused within a process: what a value resolved against
/// one chart (an SCXML machine's `EventHandle`, holding the chart's event id) keeps to recognise
/// that chart again. `ObjectIdentifier` would not do: once a chart is freed, a new chart can be
/// allocated at the same address and get the same identifier, and a stale value would then
/// pass for one of the new chart's.
@usableFromInline
package struct ChartIdentity: Hashable, Sendable {
    @usableFromInline let value: UInt64

    private static let counter = Atomic<UInt64>(0)

    /// A new identity, different from every one made before (a 64-bit counter never wraps).
    package static func next() -> ChartIdentity {
        ChartIdentity(value: counter.add(1, ordering: .relaxed).newValue)
    }
}
