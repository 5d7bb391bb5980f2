import CMachineLock

/// A compiled chart's guards or action lists, laid out for the C trampolines the core calls
/// (`machine_trampoline.h`): a list per id, each closure's function, context and argument
/// copied out of its box (``GuardBox``, ``ActionBox``), the first of each list in the list
/// itself.
///
/// Why copies and not the boxes: a callback's call waits on the chain of loads from the core's
/// context to the closure's function; the box was one more link of it on every guard and
/// action (in `perf`, the trampoline's time went mostly to that load). The table keeps the boxes,
/// which keep the closures the copies point into, for as long as the compiled chart lives.
///
/// Why not `[[ActionBox]]` read from Swift: reading a closure out of an array copies it, which
/// retains its context (two atomic operations per call), and a trampoline written in Swift was
/// called through a C entry thunk of its own.
final class CallbackTable<Box: TrampolineCallable>: @unchecked Sendable {
    // @unchecked: written only in init, then read-only; the boxes are immutable and Sendable.

    /// What keeps the closures alive.
    private let boxes: [[Box]]
    /// Every list's closures after its first, list after list, each list's ended by an empty
    /// callee.
    private let rest: UnsafeMutablePointer<machine_trampoline_callee>
    private let restCount: Int
    /// One list per id; read by the trampolines through `machine_trampoline_host`.
    let lists: UnsafeMutablePointer<machine_trampoline_list>
    /// The number of lists (ids).
    let listCount: Int

    /// A table with list `i` holding `lists[i]` (none empty: an empty list has no id).
    init(lists: [[Box]]) {
        precondition(lists.allSatisfy { !$0.isEmpty }, "an empty callback list has no id")
        precondition(ActionContext.layoutMatchesTrampolines,
                     "ActionContext must be laid out as machine_trampoline.h passes it")
        boxes = lists
        listCount = lists.count
        // A list of several closures: the others, then an empty callee (its end).
        restCount = lists.reduce(0) { $0 + ($1.count > 1 ? $1.count : 0) }
        rest = .allocate(capacity: max(restCount, 1))
        self.lists = .allocate(capacity: max(lists.count, 1))
        var next = 0
        for (id, list) in lists.enumerated() {
            var others: UnsafePointer<machine_trampoline_callee>? = nil
            if list.count > 1 {
                others = UnsafePointer(rest + next)
                for box in list.dropFirst() {
                    (rest + next).initialize(to: box.callee)
                    next += 1
                }
                (rest + next).initialize(to: machine_trampoline_callee(function: nil, context: nil, argument: nil))
                next += 1
            }
            (self.lists + id).initialize(to: machine_trampoline_list(first: list[0].callee, rest: others))
        }
    }

    /// A table with one box per id.
    convenience init(single boxes: [Box]) {
        self.init(lists: boxes.map { [$0] })
    }

    deinit {
        rest.deinitialize(count: restCount)
        rest.deallocate()
        lists.deinitialize(count: listCount)
        lists.deallocate()
    }
}
