/* The thread-local of machine_callback (see include/machine_callback.h): defined once here,
 * read and written by the header's inline functions. */
#include "machine_callback.h"

_Thread_local machine_callback_thread machine_callback_state
    __attribute__((tls_model("initial-exec"))) = {{0, 0}, 0};
