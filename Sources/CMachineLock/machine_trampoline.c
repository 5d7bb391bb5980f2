/* The guard and action trampolines of Swift machines (see include/machine_trampoline.h). */
#include "machine_trampoline.h"
#include "machine_callback.h"
#include <string.h>

#if !defined(__clang__) || !__has_attribute(swiftcall)
#error "machine_trampoline.c calls Swift closures: it needs clang's swiftcall"
#endif

#define SWIFTCALL __attribute__((swiftcall))
#define SWIFT_CONTEXT __attribute__((swift_context))

/* The closures' functions: an ActionContext's four words, then the closure's context. A Swift
 * Bool comes back in the low bit of a byte (only that bit is defined). */
typedef SWIFTCALL uint8_t (*swift_guard)(uint64_t serial, uint64_t event_id_flags, uint64_t event_data,
                                         const void *argument, SWIFT_CONTEXT void *context);
typedef SWIFTCALL void (*swift_action)(uint64_t serial, uint64_t event_id_flags, uint64_t event_data,
                                       const void *argument, SWIFT_CONTEXT void *context);

/* The event's two words as Swift passes an `sc_event`; no event (an eventless transition, the
 * initial entry) is an id of SC_NONE, no flags, no data. */
typedef struct event_words {
    uint64_t id_flags, data;
} event_words;

_Static_assert(sizeof(sc_event) <= sizeof(event_words), "an sc_event is two words at most");

static inline event_words words_of(const sc_event *event) {
    event_words w = { SC_NONE, 0 };
    if (event) memcpy(&w, event, sizeof *event);
    return w;
}

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

static inline uint8_t call_guard(const machine_trampoline_callee *callee, uint64_t serial, event_words w) {
    return ((swift_guard)callee->function)(serial, w.id_flags, w.data, callee->argument, callee->context);
}

static inline void call_action(const machine_trampoline_callee *callee, uint64_t serial, event_words w) {
    ((swift_action)callee->function)(serial, w.id_flags, w.data, callee->argument, callee->context);
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
    event_words w = words_of(event);
    call_action(&list->first, serial, w);
    for (const machine_trampoline_callee *c = list->rest; c->function; c++) call_action(c, serial, w);
}

bool machine_trampoline_guard(void *context, sc_machine *machine, sc_id guard, const sc_event *event) {
    (void)machine;
    const machine_trampoline_host *host = context;
    return call_guard(&host->guards[guard].first, begin(host->runtime), words_of(event)) & 1u;
}

void machine_trampoline_action(void *context, sc_machine *machine, sc_id action, const sc_event *event) {
    (void)machine;
    const machine_trampoline_host *host = context;
    const machine_trampoline_list *list = &host->actions[action];
    if (list->rest) {
        run_actions(host, list, event);
        return;
    }
    call_action(&list->first, begin(host->runtime), words_of(event));
}
