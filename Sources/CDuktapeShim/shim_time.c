/*
 * Execution time: the hook that stops runaway scripts.
 *
 * The Duktape this shim links (scripts/build-duktape.sh) is compiled with
 * DUK_USE_INTERRUPT_COUNTER and DUK_USE_EXEC_TIMEOUT_CHECK(udata) calling
 * dukshim_exec_timeout_check(heap udata = the engine). The executor calls it every 256K bytecode
 * instructions, also inside eval'd code, functions called from built-ins (sort comparators,
 * getters, finalizers) and every catch/finally block. When it returns 1, Duktape throws
 * RangeError "execution timeout" at that instruction; the shim keeps returning 1 until the
 * outermost operation has returned, so no script can catch the error and keep running.
 *
 * The clock is read only by these checks, never when an operation starts: an operation arms the
 * limit (deadline_ns = DEADLINE_NOT_STARTED) and the first check it meets takes the deadline,
 * now + limit. So an evaluation that ends before the executor's first check (every evaluation of
 * a typical condition or assignment) reads no clock at all, and a runaway one runs at most one
 * check interval (256K instructions, or 4096 native steps) longer than its limit. Nested
 * operations (a host function calling back into the engine) share their outer operation's
 * deadline.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "shim_internal.h"

/* Armed, the clock not read yet (a real deadline is never 0: the monotonic clock is past it). */
#define DEADLINE_NOT_STARTED 0u

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void dukshim_time_arm(dukshim_engine *e) {
    e->timed_out = 0;
    e->deadline_ns = e->time_limit_ns == 0 ? UINT64_MAX : DEADLINE_NOT_STARTED;
}

void dukshim_time_disarm(dukshim_engine *e) {
    e->deadline_ns = UINT64_MAX;
}

int dukshim_exec_timeout_check(void *udata) {
    dukshim_engine *e = (dukshim_engine *)udata;
    if (e == NULL || e->deadline_ns == UINT64_MAX) {
        return 0;
    }
    if (e->timed_out) {
        return 1;
    }
    uint64_t now = now_ns();
    if (e->deadline_ns == DEADLINE_NOT_STARTED) {
        /* UINT64_MAX - 1 at most: UINT64_MAX means "not armed". */
        e->deadline_ns = e->time_limit_ns >= UINT64_MAX - 1 - now ? UINT64_MAX - 1 : now + e->time_limit_ns;
        return 0;
    }
    if (now >= e->deadline_ns) {
        e->timed_out = 1;
    }
    return e->timed_out;
}

/* Called by built-ins looping in C (regular expression steps, property get and has: see
 * scripts/build-duktape.sh), far more often than the executor's check, so the clock is read every
 * 4096 calls only. It reports a timeout once, where it is found: the RangeError unwinds the
 * built-in, and the executor's check keeps stopping bytecode after that. Returning 0 while the
 * error unwinds keeps property reads of the error machinery (creating, augmenting, reporting the
 * error) from throwing again. */
int dukshim_native_timeout_check(void *udata) {
    dukshim_engine *e = (dukshim_engine *)udata;
    if (e == NULL || e->deadline_ns == UINT64_MAX || e->timed_out || (++e->native_ticks & 4095u) != 0) {
        return 0;
    }
    return dukshim_exec_timeout_check(udata);
}

void dukshim_engine_set_time_limit(dukshim_engine *e, uint64_t nanoseconds) {
    e->time_limit_ns = nanoseconds;
}

uint64_t dukshim_engine_time_limit(const dukshim_engine *e) {
    return e->time_limit_ns;
}
