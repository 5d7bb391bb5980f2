/// A compiled chart's guards, or its action lists, by the ids the core's tables use: what the
/// runtime's guard and action callbacks (`MachineRuntime+GuardsAndActions.swift`) read, one box
/// per id (an action list is one box, ``ActionBox/sequence(_:)``).
///
/// The callbacks read the boxes unretained from a buffer this table owns, indexed by id: no
/// reference counting per call (reading a box out of a Swift array retains it), and one load
/// from the table's address to the box. The table keeps the boxes alive for as long as the
/// compiled chart lives, and the chart outlives every machine running it.
final class CallbackTable<Box: AnyObject>: @unchecked Sendable {
    // @unchecked: written only in init, then read-only; the boxes are immutable and Sendable.

    /// What keeps the boxes alive.
    private let boxes: [Box]
    /// Box `id` at `entries[id]`, unretained (``boxes`` keeps them).
    let entries: UnsafeMutablePointer<Unmanaged<Box>>

    /// A table with box `id` at `boxes[id]`.
    init(_ boxes: [Box]) {
        self.boxes = boxes
        entries = .allocate(capacity: max(boxes.count, 1))
        for (id, box) in boxes.enumerated() {
            (entries + id).initialize(to: .passUnretained(box))
        }
    }

    deinit {
        entries.deinitialize(count: boxes.count)
        entries.deallocate()
    }
}
