/* The guard and action trampolines of Swift machines (see include/machine_trampoline.h). */
#include "machine_trampoline.h"
#include "machine_callback.h"

#if !defined(__clang__) || !__has_attribute(swiftcall)
#error "machine_trampoline.c calls Swift closures: it needs clang's swiftcall"
#endif

#define SWIFTCALL __attribute__((swiftcall))
#define SWIFT_CONTEXT __attribute__((swift_context))

/* The closures' functions: an ActionContext's four words, then the closure's context. A Swift
 * Bool comes back in the low bit of a byte (only that bit is defined). */
typedef SWIFTCALL uint8_t (*swift_guard)(uint64_t serial, const sc_event *event, const void *argument,
                                         const uint64_t *configuration, SWIFT_CONTEXT void *context);
typedef SWIFTCALL void (*swift_action)(uint64_t serial, const sc_event *event, const void *argument,
                                       const uint64_t *configuration, SWIFT_CONTEXT void *context);

const sc_event machine_trampoline_no_event = { .id = SC_NONE, .flags = 0, .data = 0 };

/* machine_callback_begin for the trampolines, returning the new serial: the same frame, with
 * the serial block's refill out of line and saving every register itself (preserve_most), so
 * that the trampolines save none of their own for it. */
__attribute__((noinline, cold, preserve_most))
static void take_serials(void) {
    machine_callback_take_serials(&machine_callback_state);
}

static inline uint64_t begin(void *runtime) {
    machine_callback_thread *state = &machine_callback_state;
    if (__builtin_expect(state->next == state->end, 0)) take_serials();
    uint64_t serial = state->next++;
    state->current.machine = runtime;
    state->current.serial = serial;
    return serial;
}

static inline const sc_event *event_or_none(const sc_event *event) {
    return event ? event : &machine_trampoline_no_event;
}

static inline uint8_t call_guard(const machine_trampoline_host *host, const machine_trampoline_callee *callee,
                                 uint64_t serial, const sc_event *event) {
    return ((swift_guard)callee->function)(serial, event, callee->argument, host->configuration, callee->context);
}

static inline void call_action(const machine_trampoline_host *host, const machine_trampoline_callee *callee,
                               uint64_t serial, const sc_event *event) {
    ((swift_action)callee->function)(serial, event, callee->argument, host->configuration, callee->context);
}

/*
 * Each callback opens a frame of its own (a new serial) and leaves it open when it returns:
 * only the core's code runs until the next callback opens the next frame, and the Swift code
 * that called the core puts back the frame it replaced once the core returns
 * (MachineRuntime.restoringCallbackFrame). Nothing is kept across the closure's call, and
 * nothing is tested or written after it.
 */

/* An action list of several closures: one frame for all of them. */
__attribute__((noinline))
static void run_actions(const machine_trampoline_host *host, const machine_trampoline_list *list,
                        const sc_event *event) {
    uint64_t serial = begin(host->runtime);
    event = event_or_none(event);
    call_action(host, &list->first, serial, event);
    for (const machine_trampoline_callee *c = list->rest; c->function; c++) call_action(host, c, serial, event);
}

bool machine_trampoline_guard(void *context, sc_machine *machine, sc_id guard, const sc_event *event) {
    (void)machine;
    const machine_trampoline_host *host = context;
    return call_guard(host, &host->guards[guard].first, begin(host->runtime), event_or_none(event)) & 1u;
}

void machine_trampoline_action(void *context, sc_machine *machine, sc_id action, const sc_event *event) {
    (void)machine;
    const machine_trampoline_host *host = context;
    const machine_trampoline_list *list = &host->actions[action];
    if (list->rest) {
        run_actions(host, list, event);
        return;
    }
    call_action(host, &list->first, begin(host->runtime), event_or_none(event));
}
