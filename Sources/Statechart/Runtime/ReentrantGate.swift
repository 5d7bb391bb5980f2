#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Serializes access to one machine across threads and tells a thread that already holds it
/// (an action or observer sending to its own machine) that it must queue instead of waiting.
///
/// A plain mutex would deadlock on that re-entrant send; a recursive one would let the send run
/// a macrostep inside another, breaking run-to-completion. Here the holder's thread id is
/// published atomically, so `isHeldByCurrentThread` needs no lock.
final class ReentrantGate: @unchecked Sendable {
    // @unchecked: `mutex` is only touched through pthread calls, and `holder` is atomic.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let holder = Atomic<UInt>(0)

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    static var currentThreadID: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    var isHeldByCurrentThread: Bool { holder.load(ordering: .acquiring) == Self.currentThreadID }

    /// Runs `body` holding the gate. Must not be called by the holder (check first).
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        holder.store(Self.currentThreadID, ordering: .releasing)
        defer {
            holder.store(0, ordering: .releasing)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// Runs `reentered` when the current thread already holds the gate (a callback of the
    /// machine), else `body` holding the gate. One thread-id read serves both decisions.
    @inline(__always)
    func withLock<T>(ifReentered reentered: () throws -> T, _ body: () throws -> T) rethrows -> T {
        let me = Self.currentThreadID
        if holder.load(ordering: .acquiring) == me { return try reentered() }
        pthread_mutex_lock(mutex)
        holder.store(me, ordering: .relaxed)
        defer {
            holder.store(0, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }
}
