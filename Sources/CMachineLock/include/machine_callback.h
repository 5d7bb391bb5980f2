/*
 * machine_callback: which machine's callback the calling thread is running.
 *
 * Why: a Swift `ActionContext` must refuse to be used once its callback has returned (or from
 * another thread), and must never touch the machine it stands for to find that out: the
 * machine may be gone. Holding the machine strongly answered that at the price of an atomic
 * retain and release per guard or action. Instead each callback runs inside a frame recorded
 * here, in a thread-local: the machine's address and a serial number that no thread of the
 * process ever issues twice. A context keeps only the serial; it is live exactly while its
 * serial is the current frame's on the calling thread, and then the frame tells it its machine
 * (alive: it is running the callback). The check reads only the thread-local.
 *
 * Frames nest (an action that sends to another machine runs that machine's callbacks inside
 * its own): the caller of `begin` reads the frame it replaces and `restore` puts it back. The
 * guard and action trampolines (machine_trampoline.h) are the exception: each opens a frame and
 * leaves it open, and the Swift code that called the core restores the frame it replaced.
 *
 * Serials are unique in the process without an atomic operation per callback: each thread
 * takes a block of MACHINE_CALLBACK_SERIAL_BLOCK serials from a global counter (one atomic
 * add) and issues them one by one. 64 bits do not wrap.
 *
 * initial-exec TLS: one %fs-relative access, no __tls_get_addr call. The variable is a few
 * bytes of the static TLS block glibc keeps spare for libraries, should this one be loaded late.
 */
#ifndef MACHINE_CALLBACK_H
#define MACHINE_CALLBACK_H

#include <stdbool.h>
#include <stdint.h>

/** Serials a thread takes from the global counter at a time. */
#define MACHINE_CALLBACK_SERIAL_BLOCK 65536

/** The callback running on a thread: its machine and its serial. Outside any callback
 *  `machine` is NULL and `serial` 0, a serial never issued. */
typedef struct machine_callback_frame {
    void *machine;
    uint64_t serial;
} machine_callback_frame;

/** One thread's state: the current frame and the serials it may still issue
 *  (`next` up to, not including, `end`). */
typedef struct machine_callback_thread {
    machine_callback_frame current;
    uint64_t next;
    uint64_t end;
} machine_callback_thread;

/* Inlined into the Swift callers whatever the optimizer thinks of functions that touch TLS. */
#define MACHINE_CALLBACK_INLINE static inline __attribute__((always_inline))

extern _Thread_local machine_callback_thread machine_callback_state
    __attribute__((tls_model("initial-exec")));

/** Takes the next block of serials for the calling thread (an atomic add). */
void machine_callback_take_serials(machine_callback_thread *state);

/** Starts a callback of `machine` on this thread, replacing the current frame; the caller
 *  reads that frame first (machine_callback_current_machine, machine_callback_serial) and puts
 *  it back with machine_callback_restore when the callback returns. Scalars in and out, not a
 *  frame through a pointer: a Swift local whose address is passed gets a stack protector
 *  (about five instructions per callback), and a returned struct was not inlined. */
MACHINE_CALLBACK_INLINE void machine_callback_begin(void *machine) {
    machine_callback_thread *state = &machine_callback_state;
    if (state->next == state->end) machine_callback_take_serials(state);
    state->current.machine = machine;
    state->current.serial = state->next++;
}

/** Ends a callback: the frame it replaced (read before machine_callback_begin) is current again. */
MACHINE_CALLBACK_INLINE void machine_callback_restore(void *machine, uint64_t serial) {
    machine_callback_state.current.machine = machine;
    machine_callback_state.current.serial = serial;
}

/** The machine of the callback running on this thread (NULL outside any). */
MACHINE_CALLBACK_INLINE void *machine_callback_current_machine(void) {
    return machine_callback_state.current.machine;
}

/** The serial of the callback running on this thread (0 outside any). */
MACHINE_CALLBACK_INLINE uint64_t machine_callback_serial(void) {
    return machine_callback_state.current.serial;
}

/** The machine of the callback with serial `serial` if that callback is the one running on
 *  this thread, else NULL. Reads only the thread-local. */
MACHINE_CALLBACK_INLINE void *machine_callback_machine(uint64_t serial) {
    const machine_callback_frame *current = &machine_callback_state.current;
    return current->serial == serial ? current->machine : (void *)0;
}

#endif
