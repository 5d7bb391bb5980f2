/*
 * fuzz_dispatch.c - libFuzzer harness: charts described by the input (through chart_builder,
 * so the tables are well formed), dispatched with events the input chooses, against the
 * reference model (tests/reference_model.c) and the configuration oracle.
 *
 * Two kinds of chart, chosen by the first byte:
 *  - "model" charts are those of test_core.c's differential test (at most 36 states, one
 *    target or two in different regions of a parallel state, initial and history defaults
 *    with one target): the core must produce exactly the reference model's trace of actions
 *    and invocations, status, configuration and history records after every event;
 *  - "wild" charts have up to CB_MAX_STATES states, parallel states with up to 12 regions and
 *    transitions, initial transitions and history defaults with up to CB_MAX_LIST arbitrary
 *    targets (histories among them). sc_chart_check may reject such a chart; one it accepts
 *    must leave a legal configuration after every call and never write outside its machine
 *    (ASan), whatever the history records make a target set resolve to.
 * Both check the observers: an entered state is active, an exited one is not, and an action
 * "enter:s"/"exit:s" runs while s is active (the trace then contains "!inactive-during-...").
 */
#include "chart_builder.h"
#include "fuzz_support.h"
#include "reference_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HARNESS "fuzz_dispatch"
#define MODEL_MAX_STATES 36      /* as test_core.c's random charts */
#define WILD_MAX_STATES 200
#define MAX_STEPS 60             /* as test_core.c's RANDOM_MAX_STEPS */
#define MAX_EVENTS 24

typedef struct host_state {
    const cb_builder *b;
    const bool *guards;
    const sc_id *raise_on_action;
    char trace[65536];
} host_state;

static void trace_add(host_state *h, const char *format, ...) {
    size_t len = strlen(h->trace);
    if (len && len + 1 < sizeof h->trace) h->trace[len++] = ' ';
    va_list args;
    va_start(args, format);
    vsnprintf(h->trace + len, sizeof h->trace - len, format, args);
    va_end(args);
}

/* The tokens are those of test_core.c's harness, which the reference model writes too. */
static void host_action(void *context, sc_machine *m, sc_id action, const sc_event *event) {
    host_state *h = context;
    (void)event;
    if (action >= h->b->action_count) fuzz_fail(HARNESS, "action id %u out of range", (unsigned)action);
    const char *token = h->b->action_name[action];
    trace_add(h, "%s", token);
    if (strncmp(token, "enter:", 6) == 0 || strncmp(token, "exit:", 5) == 0) {
        sc_id s = cb_find_state(h->b, strchr(token, ':') + 1);
        if (!sc_machine_is_active(m, s)) trace_add(h, "!inactive-during-%s", token);
    }
    if (h->raise_on_action[action] != SC_NONE) {
        sc_event raised = { h->raise_on_action[action], 0, 0 };
        (void)sc_machine_raise(m, raised);   /* a full queue is the model's business too */
    }
}

static bool host_guard(void *context, sc_machine *m, sc_id guard, const sc_event *event) {
    host_state *h = context;
    (void)m;
    (void)event;
    if (guard >= h->b->guard_count) fuzz_fail(HARNESS, "guard id %u out of range", (unsigned)guard);
    return h->guards[guard];
}

static void host_entered(void *context, sc_machine *m, sc_id state) {
    host_state *h = context;
    if (state >= h->b->state_count || !sc_machine_is_active(m, state))
        fuzz_fail(HARNESS, "entered(%u) for an inactive or unknown state", (unsigned)state);
}

static void host_exited(void *context, sc_machine *m, sc_id state) {
    host_state *h = context;
    if (state >= h->b->state_count || sc_machine_is_active(m, state))
        fuzz_fail(HARNESS, "exited(%u) for a state still active or unknown", (unsigned)state);
}

static void host_invoke(void *context, sc_machine *m, sc_id state, bool start) {
    host_state *h = context;
    (void)m;
    trace_add(h, "%s:%s", start ? "invoke" : "cancel", h->b->state_name[state]);
}

/* ---- chart generation from the input ------------------------------------------------------- */

static bool is_history_kind(uint8_t kind) { return kind == SC_HISTORY_SHALLOW || kind == SC_HISTORY_DEEP; }

static bool raw_descendant(const cb_builder *b, sc_id d, sc_id s) {
    for (sc_id a = b->states[d].parent; a != SC_NONE; a = b->states[a].parent)
        if (a == s) return true;
    return false;
}

/* A non-history proper descendant of s chosen by the input (history too when `any`). */
static sc_id pick_descendant(fuzz_input *in, const cb_builder *b, sc_id s, bool any) {
    sc_id pool[CB_MAX_STATES];
    uint32_t n = 0;
    for (sc_id d = 1; d < b->state_count; d++)
        if ((any || !is_history_kind(b->states[d].kind)) && raw_descendant(b, d, s)) pool[n++] = d;
    return n ? pool[fuzz_choose(in, n)] : SC_NONE;
}

typedef struct gen {
    fuzz_input *in;
    cb_builder *b;
    bool wild;
    uint32_t max_states;
} gen;

static void gen_children(gen *g, sc_id parent, int depth) {
    cb_builder *b = g->b;
    const char *pname = b->state_name[parent];
    uint8_t pkind = b->states[parent].kind;
    uint32_t kids = 1 + fuzz_choose(g->in, g->wild && pkind == SC_PARALLEL ? 12 : 3);
    bool has_state = false;
    int histories = 0;
    for (uint32_t i = 0; i < kids && b->state_count < g->max_states; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%u", (unsigned)b->state_count);
        uint32_t r = fuzz_choose(g->in, 12);
        sc_state_kind kind = SC_ATOMIC;
        if (depth < (g->wild ? 5 : 3) && r < 3) kind = SC_COMPOUND;
        else if (depth < (g->wild ? 5 : 3) && r < 5) kind = SC_PARALLEL;
        else if (r < 6 && pkind == SC_COMPOUND && (parent != 0 || fuzz_choose(g->in, 3) == 0)) kind = SC_FINAL;
        else if (r < 8 && parent != 0 && histories < 2)
            kind = fuzz_choose(g->in, 2) ? SC_HISTORY_DEEP : SC_HISTORY_SHALLOW;
        sc_id s = cb_state(b, parent ? pname : NULL, kind, name);
        if (s == SC_NONE) return;
        if (is_history_kind(kind)) histories++;
        else has_state = true;
        if (kind == SC_COMPOUND || kind == SC_PARALLEL) gen_children(g, s, depth + 1);
        if (!is_history_kind(kind) && kind != SC_FINAL && fuzz_choose(g->in, 6) == 0) cb_flags(b, name, SC_STATE_HAS_INVOKE);
    }
    if (!has_state) {
        char name[16];
        snprintf(name, sizeof name, "s%u", (unsigned)b->state_count);
        cb_state(b, parent ? pname : NULL, SC_ATOMIC, name);
    }
}

/* Appends up to CB_MAX_LIST names of states chosen from `pool` to `out`. */
static void target_list(gen *g, const sc_id *pool, uint32_t n, char *out, size_t size) {
    uint32_t count = 1 + fuzz_choose(g->in, CB_MAX_LIST);
    size_t len = 0;
    out[0] = '\0';
    for (uint32_t k = 0; k < count && n; k++)
        len += (size_t)snprintf(out + len, size - len, "%s%s", k ? " " : "", g->b->state_name[pool[fuzz_choose(g->in, n)]]);
}

/* The descendants of s (histories too when `any`), for wild target lists. */
static uint32_t descendants(const cb_builder *b, sc_id s, bool any, sc_id *pool) {
    uint32_t n = 0;
    for (sc_id d = 1; d < b->state_count; d++)
        if ((any || !is_history_kind(b->states[d].kind)) && raw_descendant(b, d, s)) pool[n++] = d;
    return n;
}

static void gen_initials(gen *g) {
    cb_builder *b = g->b;
    const sc_id n = b->state_count;
    char list[CB_MAX_LIST * CB_NAME];
    sc_id pool[CB_MAX_STATES];
    for (sc_id s = 0; s < n; s++) {
        bool compound = b->states[s].kind == SC_COMPOUND, history = is_history_kind(b->states[s].kind);
        if (!(compound && s != 0 && fuzz_choose(g->in, 3) == 0) && !history) continue;
        sc_id scope = history ? b->states[s].parent : s;
        if (g->wild) {
            uint32_t count = descendants(b, scope, false, pool);
            target_list(g, pool, count, list, sizeof list);
        } else {
            snprintf(list, sizeof list, "%s", b->state_name[pick_descendant(g->in, b, scope, false)]);
        }
        cb_initial(b, b->state_name[s], list, fuzz_choose(g->in, 2));
    }
    if (fuzz_choose(g->in, 4) == 0) {
        if (g->wild) {
            uint32_t count = descendants(b, 0, false, pool);
            target_list(g, pool, count, list, sizeof list);
        } else {
            snprintf(list, sizeof list, "%s", b->state_name[pick_descendant(g->in, b, 0, false)]);
        }
        cb_initial(b, "scxml", list, false);
    }
}

static void gen_transitions(gen *g) {
    cb_builder *b = g->b;
    const sc_id n = b->state_count;
    sc_id parallels[CB_MAX_STATES], pool[CB_MAX_STATES];
    uint32_t np = 0;
    for (sc_id s = 1; s < n; s++) {
        if (b->states[s].kind != SC_PARALLEL) continue;
        uint32_t regions = 0;
        for (sc_id c = s + 1; c < n; c++)
            if (b->states[c].parent == s && !is_history_kind(b->states[c].kind)) regions++;
        if (regions >= 2) parallels[np++] = s;
    }
    uint32_t all = descendants(b, 0, true, pool);
    static const char *const descriptors[] = { NULL, NULL, "*", "a b", "done", "a.x", "b.y", "a", "a", "b", "c", "c" };
    uint32_t label = 0;
    for (sc_id s = 1; s < n; s++) {
        if (is_history_kind(b->states[s].kind) || b->states[s].kind == SC_FINAL) continue;
        uint32_t count = fuzz_choose(g->in, 4);
        for (uint32_t k = 0; k < count; k++) {
            const char *events = descriptors[fuzz_choose(g->in, 12)];
            char guard[8], targets[CB_MAX_LIST * CB_NAME], name[16];
            const char *gname = NULL;
            if (fuzz_choose(g->in, events ? 4 : 2) == 0) {
                snprintf(guard, sizeof guard, "g%u", (unsigned)fuzz_choose(g->in, 3));
                gname = guard;
            }
            uint32_t r = fuzz_choose(g->in, 10);
            const char *t = targets;
            if (r == 0) {
                t = NULL;
            } else if (r == 1 && np) {
                sc_id p = parallels[fuzz_choose(g->in, np)], regions[CB_MAX_STATES];
                uint32_t nr = 0;
                for (sc_id c = p + 1; c < n; c++)
                    if (b->states[c].parent == p && !is_history_kind(b->states[c].kind)) regions[nr++] = c;
                uint32_t i1 = fuzz_choose(g->in, nr), i2 = (i1 + 1 + fuzz_choose(g->in, nr - 1)) % nr;
                sc_id x = fuzz_choose(g->in, 2) ? regions[i1] : pick_descendant(g->in, b, regions[i1], false);
                sc_id y = fuzz_choose(g->in, 2) ? regions[i2] : pick_descendant(g->in, b, regions[i2], false);
                if (x == SC_NONE) x = regions[i1];
                if (y == SC_NONE) y = regions[i2];
                snprintf(targets, sizeof targets, "%s %s", b->state_name[x], b->state_name[y]);
            } else if (r == 2 && g->wild) {
                target_list(g, pool, all, targets, sizeof targets);
            } else {
                snprintf(targets, sizeof targets, "%s", b->state_name[1 + fuzz_choose(g->in, n - 1)]);
            }
            snprintf(name, sizeof name, "t%u", (unsigned)label++);
            cb_trans(b, b->state_name[s], events, t, fuzz_choose(g->in, 3) == 0 ? SC_TRANSITION_INTERNAL : 0, gname, name);
        }
    }
}

/* ---- running ---------------------------------------------------------------------------------- */

/* Compares the core with the model after one call, as test_core.c's same_state does. */
static void compare(const cb_builder *b, const sc_machine *m, const host_state *h, const ref_machine *r,
                    sc_status core, sc_status model, const char *when) {
    if (core != model) fuzz_fail(HARNESS, "%s: status core %d, model %d", when, (int)core, (int)model);
    if (strcmp(h->trace, r->trace) != 0)
        fuzz_fail(HARNESS, "%s: trace differs\n  core:  %.2000s\n  model: %.2000s", when, h->trace, r->trace);
    for (sc_id s = 0; s < b->chart.state_count; s++) {
        if (sc_machine_is_active(m, s) != r->active[s])
            fuzz_fail(HARNESS, "%s: state %s active in %s only", when, b->state_name[s], r->active[s] ? "model" : "core");
        if (!is_history_kind(b->states[s].kind)) continue;
        sc_id ids[CB_MAX_STATES];
        bool in_core[CB_MAX_STATES] = { false };
        uint32_t count = sc_machine_history(m, s, ids, CB_MAX_STATES);
        for (uint32_t i = 0; i < count && i < CB_MAX_STATES; i++) in_core[ids[i]] = true;
        for (sc_id v = 0; v < b->chart.state_count; v++) {
            bool in_model = r->history_recorded[s] && r->history_value[s][v];
            if (in_core[v] != in_model)
                fuzz_fail(HARNESS, "%s: history %s: %s recorded in %s only", when, b->state_name[s], b->state_name[v],
                          in_model ? "model" : "core");
        }
    }
}

static void check_legal(const sc_machine *m, const cb_builder *b, const host_state *h, sc_status st, const char *when) {
    if (strcmp(sc_status_text(st), "unknown status") == 0) fuzz_fail(HARNESS, "%s returned %d, not an sc_status", when, (int)st);
    sc_id where;
    const char *why = fuzz_illegal_configuration(m, &where);
    if (why) fuzz_fail(HARNESS, "%s (status %d): %s (state %s)", when, (int)st, why, b->state_name[where]);
    if (strstr(h->trace, "!inactive-during-")) fuzz_fail(HARNESS, "%s: an entry or exit action ran on an inactive state: %.2000s", when, h->trace);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static host_state h;               /* large traces: kept off the stack */
    static ref_machine r;
    fuzz_input in = { data, size, 0 };
    gen g = { .in = &in, .b = cb_new() };
    if (!g.b) abort();
    g.wild = fuzz_byte(&in) & 1;
    g.max_states = g.wild ? WILD_MAX_STATES : MODEL_MAX_STATES;
    static const char *const events[] = { "a", "b", "c", "a.x", "b.y", "d" };
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) cb_event(g.b, events[i]);
    gen_children(&g, 0, 0);
    gen_initials(&g);
    gen_transitions(&g);
    if (!cb_finish(g.b)) {
        /* The generator only describes well-formed trees, so this is a harness defect. */
        fuzz_fail(HARNESS, "chart_builder rejected the generated chart: %s", g.b->error);
    }
    const cb_builder *b = g.b;
    sc_chart_error error = { NULL, NULL, 0 };
    sc_status checked = sc_chart_check(&b->chart, &error);
    if (checked != SC_OK) {
        if (!g.wild) fuzz_fail(HARNESS, "sc_chart_check rejects a model chart: %s (%s %u)", error.message, error.table, (unsigned)error.index);
        cb_free(g.b);
        return 0;
    }
    bool guards[CB_MAX_GUARDS];
    sc_id raises[CB_MAX_ACTIONS];
    for (uint32_t i = 0; i < CB_MAX_GUARDS; i++) guards[i] = fuzz_byte(&in) & 1;
    /* One byte per action would make inputs long: 32 bytes, repeated over the action ids. */
    uint8_t raise_bytes[32];
    for (uint32_t i = 0; i < 32; i++) raise_bytes[i] = fuzz_byte(&in);
    for (uint32_t a = 0; a < CB_MAX_ACTIONS; a++) raises[a] = raise_bytes[a % 32] < 26 ? raise_bytes[a % 32] % 5 : SC_NONE;

    memset(&h, 0, sizeof h);
    h.b = b;
    h.guards = guards;
    h.raise_on_action = raises;
    sc_host host = { .context = &h, .guard = host_guard, .action = host_action, .entered = host_entered,
                     .exited = host_exited, .invoke = host_invoke };
    sc_options options = { REF_QUEUE, 0, MAX_STEPS, 0 };
    sc_machine *m = sc_machine_create(&b->chart, &host, &options);
    if (!m) fuzz_fail(HARNESS, "sc_machine_create failed on a chart sc_chart_check accepts");
    if (!g.wild) ref_init(&r, b, guards, raises, MAX_STEPS);

    sc_status core = sc_machine_start(m);
    check_legal(m, b, &h, core, "start");
    if (!g.wild) compare(b, m, &h, &r, core, ref_start(&r), "start");
    for (int step = 0; step < MAX_EVENTS && core >= 0 && !sc_machine_is_halted(m) && !fuzz_exhausted(&in); step++) {
        uint32_t pick = fuzz_choose(&in, 9);
        sc_id event = pick < 6 ? pick : pick == 6 ? SC_EVENT_UNKNOWN : fuzz_choose(&in, b->chart.event_count);
        char when[64];
        snprintf(when, sizeof when, "event %d (%s)", step, event == SC_EVENT_UNKNOWN ? "?" : b->event_name[event]);
        h.trace[0] = '\0';
        sc_event e = { event, 0, 0 };
        core = sc_machine_dispatch(m, e);
        check_legal(m, b, &h, core, when);
        if (!g.wild) {
            r.trace[0] = '\0';
            compare(b, m, &h, &r, core, ref_dispatch(&r, event), when);
        }
    }
    sc_machine_destroy(m);
    cb_free(g.b);
    return 0;
}
