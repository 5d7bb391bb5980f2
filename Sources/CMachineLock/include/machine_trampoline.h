/*
 * machine_trampoline: the core's guard and action callbacks for Swift machines, calling the
 * Swift closures of a chart's guards and actions from C.
 *
 * Why C: every guard and action of a Swift machine is a call from the core into Swift, 3.6 of
 * them per event on the guarded benchmark. Through a Swift `@convention(c)` trampoline each went
 * core -> C entry thunk -> trampoline -> box -> closure; here it is core -> trampoline -> closure,
 * the closure's function, context and argument copied into the list this reads (one dependent
 * load fewer on the chain the call waits on, no thunk, no box).
 *
 * What it relies on: Swift's calling convention, which clang calls `swiftcall` (LLVM's swiftcc).
 * A Swift closure is two words, its function and its context (NULL when it captures nothing);
 * the function takes its arguments exploded into scalars and the context in the swift_context
 * register. The one argument, an `ActionContext`, explodes into four scalars: the frame's
 * serial (64 bits), the event's address (machine_trampoline_no_event when there is none), the
 * box's argument and the machine's configuration bits (`sc_machine_configuration`). Swift
 * passes a struct of at most four scalars in registers; a fifth would pass it through memory.
 * The Swift side checks the context's layout where it fills these lists (`CallbackTable`), and
 * every Swift test of a guard or action calls through here.
 *
 * Built by SwiftPM's clang only (the Swift runtime's C target); not part of the core.
 */
#ifndef MACHINE_TRAMPOLINE_H
#define MACHINE_TRAMPOLINE_H

#include <stdbool.h>
#include <stdint.h>
#include "sc_core.h"

/** One Swift closure taking an `ActionContext`: a guard's `(ActionContext) -> Bool` or an
 *  action's `(ActionContext) -> Void`, and the argument its contexts carry. Unretained: the
 *  chart's callback table keeps the box that keeps the closure. */
typedef struct machine_trampoline_callee {
    const void *function;       /**< the closure's function (swiftcall) */
    void *context;              /**< the closure's context (swift_context), or NULL */
    const void *argument;       /**< the context's last word: the box's argument, or NULL */
} machine_trampoline_callee;

/** A guard's closure (one per guard id) or an action list's closures (one list per action id,
 *  never empty): the first held here; `rest` NULL, or the others, ended by one whose function is
 *  NULL. 32 bytes: an index is a shift, and a list never straddles two cache lines. */
typedef struct machine_trampoline_list {
    machine_trampoline_callee first;
    const machine_trampoline_callee *rest;
} machine_trampoline_list;

/** The `sc_host.context` of a Swift machine: the frame's machine (machine_callback.h: the
 *  Swift runtime's address), the chart's lists, and the configuration bits the contexts carry. */
typedef struct machine_trampoline_host {
    void *runtime;
    const machine_trampoline_list *guards;
    const machine_trampoline_list *actions;
    const uint64_t *configuration;
} machine_trampoline_host;

/** The event a context has when there is none (an eventless transition, the initial entry):
 *  id SC_NONE, no flags, no data. */
extern const sc_event machine_trampoline_no_event;

/** Its address (for Swift, which cannot take a C constant's address itself). */
static inline const sc_event *machine_trampoline_no_event_address(void) {
    return &machine_trampoline_no_event;
}

/*
 * Frames: each call below opens a callback frame of the runtime (machine_callback.h) for its
 * closures and leaves it open when it returns. Whoever called the core (the Swift runtime's
 * MachineRuntime.restoringCallbackFrame) reads the frame before the call and puts it back
 * after: the frame is emptied after a send from outside, and a callback of another machine
 * that sent to this one has its own frame back. Leaving it open saves a test, a store and two
 * registers per callback (about 2 ns per event on the guarded benchmark); between two
 * callbacks only the core's code runs, and every Swift callback that runs user code opens a
 * frame of its own.
 */

/** `sc_host.guard`: calls guard `guard`'s closure in a new callback frame of the runtime. */
bool machine_trampoline_guard(void *context, sc_machine *machine, sc_id guard, const sc_event *event);

/** `sc_host.action`: calls action list `action`'s closures, in order, in one new callback frame. */
void machine_trampoline_action(void *context, sc_machine *machine, sc_id action, const sc_event *event);

#endif
