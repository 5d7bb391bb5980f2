/// A compiled chart's guards or action lists, laid out for the dispatch path: every closure in
/// one buffer, and where each list starts.
///
/// Why not `[[Action]]`: the core calls back into Swift for every guard and action, and reading
/// a nested array from a class retains and releases both arrays on each call. Here the buffers
/// are plain allocations owned by the table (itself owned by the immutable ``CompiledChart``),
/// so a call costs one load and the closure's own retain.
final class CallbackTable<Callback>: @unchecked Sendable {
    // @unchecked: written only in init, then read-only; the closures are @Sendable.
    private let callbacks: UnsafeMutablePointer<Callback>
    private let starts: UnsafeMutablePointer<Int>
    private let count: Int
    /// The number of lists (ids).
    let listCount: Int

    /// A table with list `i` holding `lists[i]`.
    init(lists: [[Callback]]) {
        listCount = lists.count
        count = lists.reduce(0) { $0 + $1.count }
        callbacks = .allocate(capacity: max(count, 1))
        starts = .allocate(capacity: lists.count + 1)
        var next = 0
        for (id, list) in lists.enumerated() {
            starts[id] = next
            (callbacks + next).initialize(from: list, count: list.count)
            next += list.count
        }
        starts[lists.count] = next
    }

    /// A table with one callback per id.
    convenience init(single callbacks: [Callback]) {
        self.init(lists: callbacks.map { [$0] })
    }

    deinit {
        callbacks.deinitialize(count: count)
        callbacks.deallocate()
        starts.deallocate()
    }

    /// The callbacks of list `id`, in order.
    @inline(__always)
    func list(_ id: Int) -> UnsafeBufferPointer<Callback> {
        UnsafeBufferPointer(start: callbacks + starts[id], count: starts[id + 1] - starts[id])
    }

    /// The first callback of list `id` (a guard: each list holds one).
    @inline(__always)
    func first(_ id: Int) -> Callback { callbacks[starts[id]] }
}
