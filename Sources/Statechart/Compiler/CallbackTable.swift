/// A compiled chart's guards or action lists, laid out for the dispatch path: the boxes
/// (``GuardBox``, ``ActionBox``) in one buffer, and an entry per list holding its first box.
///
/// Why not `[[ActionBox]]`: the core calls back into Swift for every guard and action, and
/// reading a nested array from a class retains and releases both arrays on each call. Here the
/// buffers are plain allocations owned by the table (itself owned by the immutable
/// ``CompiledChart``).
///
/// Why boxes: a closure read out of a buffer is a copy, which retains its context for the call
/// and releases it after (two atomic operations, about 40 instructions, per guard or action),
/// and a closure kept in generic storage is called through a reabstraction thunk. A box is
/// held unretained (the table owns it) and its closure is a `let` of the concrete type, so a
/// call through ``Lists/forEach(_:_:)`` or ``Lists/withFirst(_:_:)`` borrows the box in place,
/// retains nothing and calls the closure directly.
final class CallbackTable<Box: AnyObject>: @unchecked Sendable {
    // @unchecked: written only in init, then read-only; the boxes are immutable and Sendable.

    private let boxes: UnsafeMutablePointer<Unmanaged<Box>>
    /// One entry per list: its first box itself, and where the rest lie in `boxes`.
    private let entries: UnsafeMutablePointer<Lists.Entry>
    private let count: Int
    /// The lists, read through one plain pointer: valid while the table lives (the compiled
    /// chart keeps it), and reading them retains nothing, not even the table.
    let lists: Lists
    /// The number of lists (ids).
    let listCount: Int

    /// A table with list `i` holding `lists[i]` (none empty: an empty list has no id); the
    /// table holds one retain of each box.
    init(lists: [[Box]]) {
        precondition(lists.allSatisfy { !$0.isEmpty }, "an empty callback list has no id")
        listCount = lists.count
        count = lists.reduce(0) { $0 + $1.count }
        boxes = .allocate(capacity: max(count, 1))
        entries = .allocate(capacity: max(lists.count, 1))
        var next = 0
        for (id, list) in lists.enumerated() {
            let start = boxes + next
            for box in list {
                (boxes + next).initialize(to: Unmanaged.passRetained(box))
                next += 1
            }
            (entries + id).initialize(to: Lists.Entry(first: start.pointee, rest: start + 1, end: boxes + next))
        }
        self.lists = Lists(entries: entries)
    }

    /// A table with one box per id.
    convenience init(single boxes: [Box]) {
        self.init(lists: boxes.map { [$0] })
    }

    deinit {
        for i in 0..<count { boxes[i].release() }
        boxes.deinitialize(count: count)
        boxes.deallocate()
        entries.deinitialize(count: listCount)
        entries.deallocate()
    }

    /// The table's lists, seen through its buffers (see ``lists``). A machine's runtime keeps a
    /// copy (one word), so a callback reaches its first box in two loads from the runtime.
    struct Lists {
        /// A list: its first box held here (the dispatch path's chain of dependent loads from
        /// the runtime to the closure is then entries, box, closure), the others in `rest..<end`
        /// (read only when there are others).
        struct Entry {
            let first: Unmanaged<Box>
            let rest: UnsafeMutablePointer<Unmanaged<Box>>
            let end: UnsafeMutablePointer<Unmanaged<Box>>
        }

        let entries: UnsafeMutablePointer<Entry>

        /// Calls `body` with each box of list `id`, in order, borrowed (nothing retained).
        @inline(__always)
        func forEach(_ id: Int, _ body: (Box) -> Void) {
            let entry = entries + id
            entry.pointee.first._withUnsafeGuaranteedRef { body($0) }
            var box = entry.pointee.rest
            let end = entry.pointee.end
            while box < end {
                box.pointee._withUnsafeGuaranteedRef { body($0) }
                box += 1
            }
        }

        /// `body` applied to the first box of list `id` (a guard: each list holds one),
        /// borrowed (nothing retained).
        @inline(__always)
        func withFirst<R>(_ id: Int, _ body: (Box) -> R) -> R {
            entries[id].first._withUnsafeGuaranteedRef { body($0) }
        }
    }
}
