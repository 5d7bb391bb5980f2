/*
 * test_callback_frame.c - tests of Sources/CCallbackFrame/include/callback_frame.h, the
 * thread-local callback frame an ActionContext is checked against: a serial is live only in
 * its own frame, on its own thread, and no serial is ever issued twice in the process.
 * Output: "ok - name" or "FAIL - name: details" per test, then "N passed, M failed".
 */
#define _GNU_SOURCE
#include "callback_frame.h"
#include "test_harness.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Two "machines": only their addresses matter. */
static int machine_a, machine_b;

/* What the Swift runtime does around a callback (MachineRuntime.withCallbackFrame,
 * CallbackHost.inFrame): read the current frame, open the machine's, and put the one read back
 * when the callback returns. */
static callback_frame enter(void *machine) {
    callback_frame replaced = { callback_frame_current_machine(), callback_frame_serial() };
    callback_frame_begin(machine);
    return replaced;
}

static void leave(const callback_frame *replaced) {
    callback_frame_restore(replaced->machine, replaced->serial);
}

static bool no_frame_outside_callbacks(void) {
    CHECK(callback_frame_serial() == 0, "serial %llu outside any callback",
          (unsigned long long)callback_frame_serial());
    CHECK(callback_frame_machine(0) == NULL, "serial 0 names a machine");
    CHECK(callback_frame_machine(1) == NULL, "serial 1 live outside any callback");
    return true;
}

static bool a_serial_is_live_only_inside_its_frame(void) {
    callback_frame replaced;
    replaced = enter(&machine_a);
    uint64_t serial = callback_frame_serial();
    CHECK(serial != 0, "serial 0 issued");
    CHECK(callback_frame_machine(serial) == &machine_a, "live serial does not name its machine");
    CHECK(callback_frame_machine(serial + 1) == NULL, "another serial is live");
    leave(&replaced);
    CHECK(callback_frame_machine(serial) == NULL, "serial still live after leave");
    CHECK(callback_frame_serial() == 0, "frame not restored to none");
    return true;
}

static bool begin_returns_the_new_frames_serial(void) {
    callback_frame replaced = { callback_frame_current_machine(), callback_frame_serial() };
    uint64_t serial = callback_frame_begin(&machine_a);
    CHECK(serial == callback_frame_serial(), "begin returned %llu, the frame has %llu",
          (unsigned long long)serial, (unsigned long long)callback_frame_serial());
    CHECK(callback_frame_machine(serial) == &machine_a, "the returned serial does not name the machine");
    leave(&replaced);
    return true;
}

static bool frames_nest_and_restore(void) {
    callback_frame outer, inner;
    outer = enter(&machine_a);
    uint64_t a = callback_frame_serial();
    inner = enter(&machine_b);           /* A's action sends to B */
    uint64_t b = callback_frame_serial();
    CHECK(a != b, "nested frame reused serial %llu", (unsigned long long)a);
    CHECK(callback_frame_machine(a) == NULL, "outer serial live inside the nested frame");
    CHECK(callback_frame_machine(b) == &machine_b, "nested serial does not name B");
    leave(&inner);
    CHECK(callback_frame_machine(a) == &machine_a, "outer serial not live again after the nested frame");
    CHECK(callback_frame_machine(b) == NULL, "nested serial live after its frame");
    leave(&outer);
    CHECK(callback_frame_machine(a) == NULL, "outer serial live after its frame");
    return true;
}

static bool serials_are_never_reused_on_a_thread(void) {
    /* More than two blocks: the refill from the global counter is crossed twice. */
    const int count = 2 * CALLBACK_FRAME_SERIAL_BLOCK + 5;
    uint64_t previous = 0;
    for (int i = 0; i < count; i++) {
        callback_frame replaced;
        replaced = enter(&machine_a);
        uint64_t serial = callback_frame_serial();
        leave(&replaced);
        CHECK(serial > previous, "serial %llu after %llu (call %d)", (unsigned long long)serial,
              (unsigned long long)previous, i);
        previous = serial;
    }
    return true;
}

/* Another thread runs a callback of the same machine; its serial must not be live here, and
 * the serials both threads issue must not overlap. */
enum { ISSUED_PER_THREAD = 3 * CALLBACK_FRAME_SERIAL_BLOCK };
static uint64_t *other_serials;
static uint64_t other_live_serial;
static pthread_mutex_t step_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t step_cond = PTHREAD_COND_INITIALIZER;
static int step;

static void *other_thread(void *arg) {
    (void)arg;
    for (int i = 0; i < ISSUED_PER_THREAD; i++) {
        callback_frame replaced;
        replaced = enter(&machine_a);
        other_serials[i] = callback_frame_serial();
        leave(&replaced);
    }
    callback_frame replaced;
    replaced = enter(&machine_a);
    pthread_mutex_lock(&step_mutex);
    other_live_serial = callback_frame_serial();
    step = 1;
    pthread_cond_broadcast(&step_cond);
    while (step != 2) pthread_cond_wait(&step_cond, &step_mutex);
    pthread_mutex_unlock(&step_mutex);
    leave(&replaced);
    return NULL;
}

static int compare_serials(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static bool another_threads_serial_is_not_live_here(void) {
    uint64_t *mine = malloc(sizeof(uint64_t) * ISSUED_PER_THREAD);
    other_serials = malloc(sizeof(uint64_t) * ISSUED_PER_THREAD);
    CHECK(mine && other_serials, "out of memory");
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, other_thread, NULL) == 0, "pthread_create failed");
    for (int i = 0; i < ISSUED_PER_THREAD; i++) {
        callback_frame replaced;
        replaced = enter(&machine_a);
        mine[i] = callback_frame_serial();
        leave(&replaced);
    }
    pthread_mutex_lock(&step_mutex);
    while (step != 1) pthread_cond_wait(&step_cond, &step_mutex);
    pthread_mutex_unlock(&step_mutex);
    callback_frame replaced;
    replaced = enter(&machine_a);      /* the same machine, on this thread */
    void *seen = callback_frame_machine(other_live_serial);
    leave(&replaced);
    pthread_mutex_lock(&step_mutex);
    step = 2;
    pthread_cond_broadcast(&step_cond);
    pthread_mutex_unlock(&step_mutex);
    pthread_join(thread, NULL);
    CHECK(seen == NULL, "the other thread's live serial %llu passed here",
          (unsigned long long)other_live_serial);
    qsort(mine, ISSUED_PER_THREAD, sizeof(uint64_t), compare_serials);
    qsort(other_serials, ISSUED_PER_THREAD, sizeof(uint64_t), compare_serials);
    int i = 0, j = 0;
    while (i < ISSUED_PER_THREAD && j < ISSUED_PER_THREAD) {   /* merge walk: any common serial? */
        CHECK(mine[i] != other_serials[j], "serial %llu issued on both threads", (unsigned long long)mine[i]);
        if (mine[i] < other_serials[j]) i++; else j++;
    }
    free(mine);
    free(other_serials);
    return true;
}

int main(void) {
    run("no frame outside callbacks", no_frame_outside_callbacks);
    run("a serial is live only inside its frame", a_serial_is_live_only_inside_its_frame);
    run("begin returns the new frame's serial", begin_returns_the_new_frames_serial);
    run("frames nest and restore the outer frame", frames_nest_and_restore);
    run("serials are never reused on a thread, across block refills", serials_are_never_reused_on_a_thread);
    run("another thread's serial is not live here; no serial is issued on two threads",
        another_threads_serial_is_not_live_here);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
