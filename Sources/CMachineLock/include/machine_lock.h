/*
 * machine_lock: the lock that serializes access to one Swift `Machine`.
 *
 * Why not a pthread mutex: a send takes the lock once per event, and the C core dispatches an
 * event in a few nanoseconds, so the lock is most of the Swift layer's cost. This lock is two
 * words with an inline fast path:
 *   - while the process has a single thread (glibc's __libc_single_threaded), taking and
 *     releasing it are plain stores: no other thread exists to race with;
 *   - otherwise one compare-and-swap to take it and one exchange to release it;
 *   - a thread that finds it held sleeps (futex on Linux, a condition variable elsewhere).
 * `owner` holds the holder's thread id, so a thread can tell that it already holds the lock
 * (an action sending to its own machine must queue, not wait) without taking it.
 *
 * The fields are plain integers used only through GCC/Clang __atomic builtins, so the struct
 * imports into Swift with its real layout.
 */
#ifndef MACHINE_LOCK_H
#define MACHINE_LOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
#include <sys/single_threaded.h>
#define MACHINE_LOCK_SINGLE_THREADED() (__libc_single_threaded != 0)
#else
#define MACHINE_LOCK_SINGLE_THREADED() false
#endif

typedef struct machine_lock {
    uint32_t state;     /* 0 free, 1 held, 2 held and a thread may be waiting */
    uintptr_t owner;    /* machine_lock_self() of the holder, 0 when free */
    uint32_t waiters;   /* threads in machine_lock_acquire_contended past their spin */
#if !defined(__linux__)
    pthread_mutex_t mutex;   /* the slow path where there is no futex */
    pthread_cond_t cond;
#endif
} machine_lock;

/** Prepares a lock (free). Release it with machine_lock_destroy. */
void machine_lock_init(machine_lock *lock);
void machine_lock_destroy(machine_lock *lock);

/** Waits until the lock is free and takes it (state 2). Called by machine_lock_acquire. */
void machine_lock_acquire_contended(machine_lock *lock);
/** Wakes one waiter. Called by machine_lock_release when state was 2. */
void machine_lock_wake(machine_lock *lock);

/** A byte of each thread's static TLS block, whose address is the thread's id (initial-exec:
 *  one %fs-relative address, no call). */
extern _Thread_local char machine_lock_thread_tag __attribute__((tls_model("initial-exec")));

/** The calling thread's id, as stored in `owner`; never 0, and distinct for any two threads
 *  alive at once (like pthread_self, an ended thread's id may be reused). The address of the
 *  thread's `machine_lock_thread_tag` rather than pthread_self(), so that reading it is no
 *  call: every send reads it. */
static inline uintptr_t machine_lock_self(void) {
    return (uintptr_t)&machine_lock_thread_tag;
}

/** Whether thread `self` holds the lock. Only the holder stores its own id, so a relaxed
 *  load is exact for the question "is it me?". */
static inline bool machine_lock_is_held_by(const machine_lock *lock, uintptr_t self) {
    return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) == self;
}

/** Whether a thread is waiting for the lock (asleep, or woken and not yet holding it). The
 *  lock lets a releasing thread take it straight back, so a background thread that takes it
 *  over and over (a session's worker draining its mailbox) asks this and steps aside for a
 *  moment: a waiting host thread is not starved. (The state word cannot tell: a release
 *  clears it before the woken waiter runs.) */
static inline bool machine_lock_has_waiters(const machine_lock *lock) {
    return __atomic_load_n(&lock->waiters, __ATOMIC_RELAXED) != 0;
}

/** Takes the lock for thread `self`, which must not hold it already. */
static inline void machine_lock_acquire(machine_lock *lock, uintptr_t self) {
    if (MACHINE_LOCK_SINGLE_THREADED()) {
        /* No other thread exists, and a thread that existed before released the lock before
         * it ended: the lock is free. A thread created while we hold it sees this store. */
        __atomic_store_n(&lock->state, 1, __ATOMIC_RELAXED);
    } else {
        uint32_t expected = 0;
        if (!__atomic_compare_exchange_n(&lock->state, &expected, 1, false,
                                         __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            machine_lock_acquire_contended(lock);
    }
    __atomic_store_n(&lock->owner, self, __ATOMIC_RELAXED);
}

/** Releases the lock taken by the calling thread. */
static inline void machine_lock_release(machine_lock *lock) {
    __atomic_store_n(&lock->owner, 0, __ATOMIC_RELAXED);
    if (MACHINE_LOCK_SINGLE_THREADED()) {
        /* Still one thread: nobody can be waiting. (A thread started meanwhile makes the
         * process multi-threaded for good, and we take the exchange below.) */
        __atomic_store_n(&lock->state, 0, __ATOMIC_RELEASE);
        return;
    }
    if (__atomic_exchange_n(&lock->state, 0, __ATOMIC_RELEASE) == 2) machine_lock_wake(lock);
}

#endif
