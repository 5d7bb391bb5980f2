/*
 * sc_status.c - sc_status_text: the sentence for each status code, for hosts that print one.
 */
#include "sc_core.h"

const char *sc_status_text(sc_status status) {
    switch (status) {
    case SC_OK: return "ok";
    case SC_UNHANDLED: return "event enabled no transition";
    case SC_QUEUED: return "event queued: called during a macrostep";
    case SC_HALTED: return "machine has halted in a top-level final state";
    case SC_ERR_RUNAWAY: return "macrostep exceeded its step bound (runaway eventless or internal-event loop)";
    case SC_ERR_QUEUE_FULL: return "event queue is full";
    case SC_ERR_BAD_CHART: return "chart tables are inconsistent";
    case SC_ERR_NO_MEMORY: return "out of memory, or the supplied block is too small";
    case SC_ERR_BAD_ARGUMENT: return "invalid argument";
    case SC_ERR_NOT_STARTED: return "machine has not been started";
    case SC_ERR_BUSY: return "not allowed from inside a machine callback";
    case SC_ERR_INTERRUPTED: return "macrostep interrupted by the host (sc_machine_interrupt)";
    case SC_ERR_BAD_TARGETS: return "transition not taken: its targets, history resolved, cannot be active together";
    case SC_ERR_UNSUPPORTED: return "chart uses a feature this build of the core leaves out (SC_CONFIG_NO_*)";
    }
    return "unknown status";
}
