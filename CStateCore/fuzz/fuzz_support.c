/*
 * fuzz_support.c - the configuration oracle and failure report of the CStateCore harnesses
 * (see fuzz_support.h).
 */
#include "fuzz_support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static bool is_history(uint8_t kind) { return kind == SC_HISTORY_SHALLOW || kind == SC_HISTORY_DEEP; }

const char *fuzz_illegal_configuration(const sc_machine *m, sc_id *state) {
    const sc_chart *c = sc_machine_chart(m);
    const uint32_t n = c->state_count;
    *state = 0;
    if (!sc_machine_is_started(m)) {
        for (sc_id s = 0; s < n; s++)
            if (sc_machine_is_active(m, s)) return *state = s, "a state is active before the machine started";
        return NULL;
    }
    /* The root (<scxml>) is never in the core's configuration, but counts as active. */
    if (sc_machine_is_active(m, 0)) return "the root's bit is set in the configuration";
    uint32_t active = 0;
    for (sc_id s = 0; s < n; s++) {
        const sc_state *st = &c->states[s];
        bool on = s == 0 || sc_machine_is_active(m, s);
        *state = s;
        if (!on) continue;
        active++;
        if (is_history(st->kind)) return "a history state is active";
        if (s != 0 && st->parent != 0 && !sc_machine_is_active(m, st->parent)) return "an active state's parent is inactive";
        if (st->kind != SC_COMPOUND && st->kind != SC_PARALLEL) continue;
        uint32_t children = 0, active_children = 0;
        for (sc_id child = s + 1; child <= st->last_descendant; child = c->states[child].last_descendant + 1) {
            if (is_history(c->states[child].kind)) continue;
            children++;
            if (sc_machine_is_active(m, child)) active_children++;
        }
        if (st->kind == SC_COMPOUND && active_children != 1)
            return active_children ? "an active compound state has more than one active child"
                                   : "an active compound state has no active child";
        if (st->kind == SC_PARALLEL && active_children != children)
            return "an active parallel state has an inactive region";
    }
    *state = 0;
    /* The accessors agree with each other and with the bit array's size. */
    if (sc_machine_active_states(m, false, NULL, 0) != active - 1)
        return "sc_machine_active_states counts differently from sc_machine_is_active";
    const uint64_t *bits = sc_machine_configuration(m);
    uint32_t words = sc_machine_configuration_words(m);
    if ((uint64_t)words * 64 < n) return "the configuration has fewer bits than the chart has states";
    for (uint64_t b = n; b < (uint64_t)words * 64; b++)
        if (bits[b / 64] >> (b % 64) & 1) return "a configuration bit past the last state is set";
    return NULL;
}

_Noreturn void fuzz_fail(const char *harness, const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "%s: FINDING: ", harness);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    abort();
}
