/* The slow paths of machine_lock (see include/machine_lock.h): waiting for a held lock and
 * waking a waiter. The protocol is the three-state mutex of Drepper's "Futexes Are Tricky":
 * a waiter sets the state to 2 before sleeping, so a release that finds 2 knows to wake. */
#if defined(__linux__)
#define _GNU_SOURCE   /* syscall() under -std=c11 */
#endif
#include "machine_lock.h"

_Thread_local char machine_lock_thread_tag __attribute__((tls_model("initial-exec")));

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void machine_lock_init(machine_lock *lock) {
    lock->state = 0;
    lock->owner = 0;
    lock->waiters = 0;
}

void machine_lock_destroy(machine_lock *lock) { (void)lock; }

void machine_lock_acquire_contended(machine_lock *lock) {
    /* A short spin first: a macrostep is usually over in well under a microsecond. */
    for (int spin = 0; spin < 64; spin++) {
        uint32_t expected = 0;
        if (__atomic_load_n(&lock->state, __ATOMIC_RELAXED) == 0
            && __atomic_compare_exchange_n(&lock->state, &expected, 1, false,
                                           __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    /* Taken with state 2 (not 1), since other threads may still be asleep behind us. */
    __atomic_fetch_add(&lock->waiters, 1, __ATOMIC_RELAXED);
    while (__atomic_exchange_n(&lock->state, 2, __ATOMIC_ACQUIRE) != 0)
        syscall(SYS_futex, &lock->state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
    __atomic_fetch_sub(&lock->waiters, 1, __ATOMIC_RELAXED);
}

void machine_lock_wake(machine_lock *lock) {
    syscall(SYS_futex, &lock->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

#else

void machine_lock_init(machine_lock *lock) {
    lock->state = 0;
    lock->owner = 0;
    lock->waiters = 0;
    pthread_mutex_init(&lock->mutex, NULL);
    pthread_cond_init(&lock->cond, NULL);
}

void machine_lock_destroy(machine_lock *lock) {
    pthread_cond_destroy(&lock->cond);
    pthread_mutex_destroy(&lock->mutex);
}

void machine_lock_acquire_contended(machine_lock *lock) {
    pthread_mutex_lock(&lock->mutex);
    __atomic_fetch_add(&lock->waiters, 1, __ATOMIC_RELAXED);
    /* The state goes to 2 under the mutex, and the waker signals under it too, so the wake-up
     * cannot fall between our test and our wait. */
    while (__atomic_exchange_n(&lock->state, 2, __ATOMIC_ACQUIRE) != 0)
        pthread_cond_wait(&lock->cond, &lock->mutex);
    __atomic_fetch_sub(&lock->waiters, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&lock->mutex);
}

void machine_lock_wake(machine_lock *lock) {
    pthread_mutex_lock(&lock->mutex);
    pthread_cond_signal(&lock->cond);
    pthread_mutex_unlock(&lock->mutex);
}

#endif
