/* The thread-local and the serial counter of callback_frame (see
 * include/callback_frame.h). */
#include "callback_frame.h"

_Thread_local callback_frame_thread callback_frame_state
    __attribute__((tls_model("initial-exec"))) = {{0, 0}, 0, 0};

/* The first serial of the next block to hand out; 0 is never issued (it means "no callback"). */
static uint64_t next_block = 1;

void callback_frame_take_serials(callback_frame_thread *state) {
    uint64_t first = __atomic_fetch_add(&next_block, CALLBACK_FRAME_SERIAL_BLOCK,
                                        __ATOMIC_RELAXED);
    state->next = first;
    state->end = first + CALLBACK_FRAME_SERIAL_BLOCK;
}
