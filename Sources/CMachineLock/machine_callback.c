/* The thread-local and the serial counter of machine_callback (see
 * include/machine_callback.h). */
#include "machine_callback.h"

_Thread_local machine_callback_thread machine_callback_state
    __attribute__((tls_model("initial-exec"))) = {{0, 0}, 0, 0};

/* The first serial of the next block to hand out; 0 is never issued (it means "no callback"). */
static uint64_t machine_callback_next_block = 1;

void machine_callback_take_serials(machine_callback_thread *state) {
    uint64_t first = __atomic_fetch_add(&machine_callback_next_block, MACHINE_CALLBACK_SERIAL_BLOCK,
                                        __ATOMIC_RELAXED);
    state->next = first;
    state->end = first + MACHINE_CALLBACK_SERIAL_BLOCK;
}
