/*
 * machine_callback: which machine's callback the calling thread is running.
 *
 * Why: a Swift `ActionContext` must refuse to be used once its callback has returned (or from
 * another thread), and must never touch the machine it points to to find that out: the machine
 * may be gone. Holding the machine strongly answered that at the price of an atomic retain and
 * release per guard or action. Instead, each callback runs inside a frame recorded here, in a
 * thread-local (two plain loads and stores): the machine's address and a number this thread
 * never issues twice. A context keeps both, and is live exactly while they are the current
 * frame's; the comparison reads only the thread-local. Frames nest (an action that sends to
 * another machine runs that machine's callbacks inside its own): `enter` returns the frame it
 * replaced and `leave` puts it back.
 *
 * initial-exec TLS: one %fs-relative load, no __tls_get_addr call. The variable is a few bytes
 * of the static TLS block glibc keeps spare for libraries, should this one be loaded late.
 */
#ifndef MACHINE_CALLBACK_H
#define MACHINE_CALLBACK_H

#include <stdbool.h>
#include <stdint.h>

/** The callback running on a thread: its machine (an opaque address, only compared) and the
 *  thread's number for this run of it. `machine` is NULL outside any callback. */
typedef struct machine_callback_frame {
    const void *machine;
    uint64_t serial;
} machine_callback_frame;

/** One thread's state: the current frame and the last serial issued (never reused, so a
 *  machine freed and another allocated at its address cannot pass for the old one). */
typedef struct machine_callback_thread {
    machine_callback_frame current;
    uint64_t issued;
} machine_callback_thread;

extern _Thread_local machine_callback_thread machine_callback_state
    __attribute__((tls_model("initial-exec")));

/** Starts a callback of `machine` on this thread; returns the frame to restore with
 *  machine_callback_leave when it returns. */
static inline machine_callback_frame machine_callback_enter(const void *machine) {
    machine_callback_thread *state = &machine_callback_state;
    machine_callback_frame replaced = state->current;
    state->current.machine = machine;
    state->current.serial = ++state->issued;
    return replaced;
}

/** Ends the callback started by the machine_callback_enter that returned `replaced`. */
static inline void machine_callback_leave(machine_callback_frame replaced) {
    machine_callback_state.current = replaced;
}

/** The serial of the callback running on this thread (0 outside any). */
static inline uint64_t machine_callback_serial(void) {
    return machine_callback_state.current.serial;
}

/** Whether the callback running on this thread is the run `serial` of `machine`. Reads only
 *  the thread-local: `machine` is compared, never dereferenced. */
static inline bool machine_callback_is_current(const void *machine, uint64_t serial) {
    const machine_callback_frame *current = &machine_callback_state.current;
    return current->serial == serial && current->machine == machine;
}

#endif
