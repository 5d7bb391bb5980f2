/*
 * callback_frame: which machine's callback the calling thread is running.
 *
 * A Swift `ActionContext` must refuse to be used once its callback has returned (or from
 * another thread), and must never touch the machine it stands for to find that out: the
 * machine may be gone. So each callback that hands user code a context runs inside a frame
 * recorded here, in a thread-local: the machine's address and a serial number that no thread
 * of the process ever issues twice. A context keeps only the serial; it is live exactly while
 * its serial is the current frame's on the calling thread, and then the frame names its
 * machine (alive: it is running the callback). The check reads only the thread-local.
 *
 * Frames nest (an action that sends to another machine runs that machine's callbacks inside
 * its own): whoever opens a frame reads the one it replaces first and puts it back with
 * `callback_frame_restore` when its callback returns, so outside every callback no frame is
 * current and a context kept from a callback is refused in every later one.
 *
 * Serials are unique in the process without an atomic operation per callback: each thread
 * takes a block of CALLBACK_FRAME_SERIAL_BLOCK serials from a global counter (one atomic add)
 * and issues them one by one. 64 bits do not wrap.
 *
 * initial-exec TLS: one thread-pointer-relative access, no __tls_get_addr call. The variable is
 * a few bytes of the static TLS block the C library keeps spare, should this library be loaded
 * late.
 */
#ifndef CALLBACK_FRAME_H
#define CALLBACK_FRAME_H

#include <stdint.h>

/** Serials a thread takes from the global counter at a time. */
#define CALLBACK_FRAME_SERIAL_BLOCK 65536

/** The callback running on a thread: its machine and its serial. Outside any callback
 *  `machine` is NULL and `serial` 0, a serial never issued. */
typedef struct callback_frame {
    void *machine;
    uint64_t serial;
} callback_frame;

/** One thread's state: the current frame and the serials it may still issue
 *  (`next` up to, not including, `end`). */
typedef struct callback_frame_thread {
    callback_frame current;
    uint64_t next;
    uint64_t end;
} callback_frame_thread;

/* Inlined into the Swift callers whatever the optimizer thinks of functions that touch TLS. */
#define CALLBACK_FRAME_INLINE static inline __attribute__((always_inline))

extern _Thread_local callback_frame_thread callback_frame_state
    __attribute__((tls_model("initial-exec")));

/** Takes the next block of serials for the calling thread (an atomic add). */
void callback_frame_take_serials(callback_frame_thread *state);

/** Opens a frame of `machine` on this thread, replacing the current one, and returns its
 *  serial. The caller reads the replaced frame first (callback_frame_current_machine,
 *  callback_frame_serial) and puts it back with callback_frame_restore when its callback
 *  returns. Scalars in and out, not a frame through a pointer, so a Swift caller keeps them
 *  in registers. */
CALLBACK_FRAME_INLINE uint64_t callback_frame_begin(void *machine) {
    callback_frame_thread *state = &callback_frame_state;
    if (__builtin_expect(state->next == state->end, 0)) callback_frame_take_serials(state);
    uint64_t serial = state->next++;
    state->current.machine = machine;
    state->current.serial = serial;
    return serial;
}

/** Closes a frame: the frame it replaced (read before callback_frame_begin) is current again. */
CALLBACK_FRAME_INLINE void callback_frame_restore(void *machine, uint64_t serial) {
    callback_frame_state.current.machine = machine;
    callback_frame_state.current.serial = serial;
}

/** The machine of the callback running on this thread (NULL outside any). */
CALLBACK_FRAME_INLINE void *callback_frame_current_machine(void) {
    return callback_frame_state.current.machine;
}

/** The serial of the callback running on this thread (0 outside any). */
CALLBACK_FRAME_INLINE uint64_t callback_frame_serial(void) {
    return callback_frame_state.current.serial;
}

/** The machine of the callback with serial `serial` if that callback is the one running on
 *  this thread, else NULL. Reads only the thread-local. */
CALLBACK_FRAME_INLINE void *callback_frame_machine(uint64_t serial) {
    const callback_frame *current = &callback_frame_state.current;
    return current->serial == serial ? current->machine : (void *)0;
}

#endif
