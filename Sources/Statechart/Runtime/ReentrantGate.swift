import CMachineLock

/// Serializes access to one machine across threads and tells a thread that already holds it
/// (an action or observer sending to its own machine) that it must queue instead of waiting.
///
/// A plain mutex would deadlock on that re-entrant send; a recursive one would let the send run
/// a macrostep inside another, breaking run-to-completion. The lock (`CMachineLock`) publishes
/// its holder's thread id, so the re-entrancy test needs no lock, and it costs two plain stores
/// while the process has one thread, a compare-and-swap and an exchange otherwise.
///
/// The gate is a view of a lock it does not own: the lock lives in its runtime's block, next
/// to the core machine (one allocation for both, see `MachineRuntime.init`), and is valid as
/// long as that runtime. Everything holding a gate holds its runtime too (the machine).
@usableFromInline
struct ReentrantGate: @unchecked Sendable {
    // @unchecked: `lock` is only touched through machine_lock's atomic operations (and, for a
    // confined machine, by the one thread that may use it).
    @usableFromInline let lock: UnsafeMutablePointer<machine_lock>

    /// A gate over `lock`, already initialised (`machine_lock_init`) by its owner.
    init(lock: UnsafeMutablePointer<machine_lock>) {
        self.lock = lock
    }

    /// Whether another thread may be waiting for the gate (see `machine_lock_has_waiters`).
    var hasWaiters: Bool { machine_lock_has_waiters(lock) }

    /// Runs `body` holding the gate. Must not be called by the holder (check first).
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        machine_lock_acquire(lock, machine_lock_self())
        defer { machine_lock_release(lock) }
        return try body()
    }

    /// Runs `reentered` when the current thread already holds the gate (a callback of the
    /// machine), else `body` holding the gate. One thread-id read serves both decisions.
    @inlinable @inline(__always)
    func withLock<T>(ifReentered reentered: () throws -> T, _ body: () throws -> T) rethrows -> T {
        let me = machine_lock_self()
        if machine_lock_is_held_by(lock, me) { return try reentered() }
        machine_lock_acquire(lock, me)
        defer { machine_lock_release(lock) }
        return try body()
    }

    /// ``withLock(ifReentered:_:)`` for a machine confined to one thread at a time (a
    /// ``LocalStateMachine``, which is not `Sendable`): no other thread can reach it, so the
    /// gate is held with two plain stores, as the lock's single-threaded path does, whatever
    /// other threads exist; the holder's id still tells callbacks that they run inside it.
    /// Once `isShared()` (the machine itself was handed to an action, see
    /// ``ActionContext/machine``, and may be sent to from other threads) the real lock is used;
    /// if that happens while `body` runs, the release is the real one too, which wakes a
    /// thread that found the gate held and waits.
    @inlinable @inline(__always)
    func withConfinedHold<T>(isShared: () -> Bool, ifReentered reentered: () throws -> T,
                             _ body: () throws -> T) rethrows -> T {
        let me = machine_lock_self()
        if machine_lock_is_held_by(lock, me) { return try reentered() }
        if isShared() {
            machine_lock_acquire(lock, me)
            defer { machine_lock_release(lock) }
            return try body()
        }
        holdConfined(by: me)
        defer {
            if isShared() {
                machine_lock_release(lock)
            } else {
                lock.pointee.owner = 0
                lock.pointee.state = 0
            }
        }
        return try body()
    }

    /// Whether any thread holds the gate.
    var isHeld: Bool { lock.pointee.state != 0 }

    /// Holds the gate with two plain stores, as the lock's single-threaded path does: only for a
    /// confined machine, which no other thread can reach (see ``withConfinedHold(isShared:ifReentered:_:)``).
    @inlinable @inline(__always)
    func holdConfined(by me: UInt) {
        lock.pointee.state = 1
        lock.pointee.owner = me
    }
}
