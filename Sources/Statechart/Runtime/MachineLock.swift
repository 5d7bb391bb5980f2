import CMachineLock

/// The machine's lock: serializes access to one machine across threads and tells a thread that
/// already holds it (an action or observer sending to its own machine) that it must queue
/// instead of waiting.
///
/// A plain mutex would deadlock on that re-entrant send; a recursive one would let the send run
/// a macrostep inside another, breaking run-to-completion. The C lock (`machine_lock.h`)
/// publishes its holder's thread id, so the re-entrancy test needs no lock, and it costs two
/// plain stores while the process has one thread, a compare-and-swap and an exchange otherwise.
///
/// A view of a C lock it does not own: the lock lives in its runtime's block, next to the core
/// machine (one allocation for both, see `MachineRuntime.init`), and is valid as long as that
/// runtime. Everything holding a `MachineLock` holds its runtime too (the machine).
@usableFromInline
struct MachineLock: @unchecked Sendable {
    // @unchecked: `raw` is only touched through machine_lock's atomic operations (and, for a
    // confined machine, by the one thread that may use it).
    @usableFromInline let raw: UnsafeMutablePointer<machine_lock>

    /// A view of `raw`, already initialised (`machine_lock_init`) by its owner.
    init(_ raw: UnsafeMutablePointer<machine_lock>) {
        self.raw = raw
    }

    /// Whether another thread may be waiting for the lock (see `machine_lock_has_waiters`).
    var hasWaiters: Bool { machine_lock_has_waiters(raw) }

    /// Runs `body` holding the lock. Must not be called by the holder (check first).
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        machine_lock_acquire(raw, machine_lock_self())
        defer { machine_lock_release(raw) }
        return try body()
    }

    /// Runs `reentered` when the current thread already holds the lock (a callback of the
    /// machine), else `body` holding the lock. One thread-id read serves both decisions.
    @inlinable @inline(__always)
    func withLock<T>(ifReentered reentered: () throws -> T, _ body: () throws -> T) rethrows -> T {
        let me = machine_lock_self()
        if machine_lock_is_held_by(raw, me) { return try reentered() }
        machine_lock_acquire(raw, me)
        defer { machine_lock_release(raw) }
        return try body()
    }

    /// ``withLock(ifReentered:_:)`` for a machine confined to one thread at a time (a
    /// ``LocalStateMachine``, which is not `Sendable`): no other thread can reach it, so the
    /// lock is held with two plain stores, as its single-threaded path does, whatever other
    /// threads exist; the holder's id still tells callbacks that they run inside it. Once
    /// `isShared()` (the machine itself was handed to an action, see ``ActionContext/machine``,
    /// and may be sent to from other threads) the real lock is used;
    /// if that happens while `body` runs, the release is the real one too, which wakes a
    /// thread that found the lock held and waits.
    @inlinable @inline(__always)
    func withConfinedHold<T>(isShared: () -> Bool, ifReentered reentered: () throws -> T,
                             _ body: () throws -> T) rethrows -> T {
        let me = machine_lock_self()
        if machine_lock_is_held_by(raw, me) { return try reentered() }
        if isShared() {
            machine_lock_acquire(raw, me)
            defer { machine_lock_release(raw) }
            return try body()
        }
        holdConfined(by: me)
        defer {
            if isShared() {
                machine_lock_release(raw)
            } else {
                raw.pointee.owner = 0
                raw.pointee.state = 0
            }
        }
        return try body()
    }

    /// Whether any thread holds the lock.
    var isHeld: Bool { raw.pointee.state != 0 }

    /// Holds the lock with two plain stores, as its single-threaded path does: only for a
    /// confined machine, which no other thread can reach (see ``withConfinedHold(isShared:ifReentered:_:)``).
    @inlinable @inline(__always)
    func holdConfined(by me: UInt) {
        raw.pointee.state = 1
        raw.pointee.owner = me
    }
}
