/*
 * test_machine_lock.c - tests of Sources/CMachineLock, run by its Makefile (`make test`).
 *
 * They start single-threaded on purpose: the first tests use the lock before any thread
 * exists (the plain-store path), then a thread is created while the lock is held, which must
 * switch every later operation to the atomic path without losing mutual exclusion.
 * Output: "ok - name" or "FAIL - name: details" per test, then "N passed, M failed".
 */
#define _GNU_SOURCE
#include "machine_lock.h"
#include "test_harness.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static bool single_threaded_acquire_release_and_holder(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
    CHECK(MACHINE_LOCK_SINGLE_THREADED(), "the test process should still have one thread");
#endif
    machine_lock lock;
    machine_lock_init(&lock);
    uintptr_t me = machine_lock_self();
    CHECK(me != 0, "thread id 0");
    CHECK(!machine_lock_is_held_by(&lock, me), "a new lock is held");
    machine_lock_acquire(&lock, me);
    CHECK(machine_lock_is_held_by(&lock, me), "not held after acquire");
    CHECK(lock.state == 1, "state %u after acquire, expected 1", lock.state);
    machine_lock_release(&lock);
    CHECK(!machine_lock_is_held_by(&lock, me), "still held after release");
    CHECK(lock.state == 0, "state %u after release, expected 0", lock.state);
    machine_lock_destroy(&lock);
    return true;
}

/* A thread created while the lock is held (as an action might) must wait for the release. */
static machine_lock handoff_lock;
static volatile int handoff_step;      /* written under the lock only */
static int handoff_seen;

static void *handoff_thread(void *arg) {
    (void)arg;
    uintptr_t me = machine_lock_self();
    if (machine_lock_is_held_by(&handoff_lock, me)) {
        handoff_seen = -1;             /* it must not think it holds the creator's lock */
        return NULL;
    }
    machine_lock_acquire(&handoff_lock, me);
    handoff_seen = handoff_step;       /* 2 if it waited for the holder's release */
    machine_lock_release(&handoff_lock);
    return NULL;
}

static bool thread_created_while_held_waits_for_the_release(void) {
    machine_lock_init(&handoff_lock);
    uintptr_t me = machine_lock_self();
    machine_lock_acquire(&handoff_lock, me);      /* still single-threaded: plain stores */
    handoff_step = 1;
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, handoff_thread, NULL) == 0, "pthread_create failed");
    sleep_ms(50);                                 /* give it time to block */
    handoff_step = 2;
    machine_lock_release(&handoff_lock);          /* now multi-threaded: must wake it */
    pthread_join(thread, NULL);
    CHECK(handoff_seen == 2, "the new thread ran its critical section at step %d, expected 2", handoff_seen);
    CHECK(handoff_lock.state == 0, "state %u at the end, expected 0", handoff_lock.state);
    machine_lock_destroy(&handoff_lock);
    return true;
}

/* Many threads, a plain (non-atomic) read-modify-write under the lock: no update may be lost,
 * and no thread may ever see another inside. */
enum { THREADS = 6, ROUNDS = 200000 };
static machine_lock counter_lock;
static long counter;
static int inside, overlaps;

static void *counter_thread(void *arg) {
    (void)arg;
    uintptr_t me = machine_lock_self();
    for (int i = 0; i < ROUNDS; i++) {
        machine_lock_acquire(&counter_lock, me);
        if (inside++ != 0) overlaps++;
        long value = counter;
        if ((i & 1023) == 0) sched_yield();       /* sometimes hold it across a reschedule */
        counter = value + 1;
        inside--;
        machine_lock_release(&counter_lock);
    }
    return NULL;
}

static bool contended_counter_loses_no_update(void) {
    machine_lock_init(&counter_lock);
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, counter_thread, NULL) == 0, "pthread_create failed");
    for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
    CHECK(overlaps == 0, "%d times two threads were inside together", overlaps);
    CHECK(counter == (long)THREADS * ROUNDS, "counter %ld, expected %ld", counter, (long)THREADS * ROUNDS);
    CHECK(counter_lock.state == 0 && counter_lock.owner == 0, "lock not free at the end (state %u)", counter_lock.state);
    machine_lock_destroy(&counter_lock);
    return true;
}

int main(void) {
    run("single-threaded acquire, release and holder test", single_threaded_acquire_release_and_holder);
    run("a thread created while the lock is held waits for the release", thread_created_while_held_waits_for_the_release);
    run("contended counter loses no update", contended_counter_loses_no_update);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
