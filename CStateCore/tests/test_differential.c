/*
 * test_differential.c - C-level tests of CStateCore: the core against the reference model on random charts, and plans.
 * The conventions (hand-derived traces, the harness) are in test_harness.h.
 */
#include "test_harness.h"
#if SC_PLAN_STATS   /* builds that count replays (Makefile: test-plan, test-sanitize) */
#include "sc_plan.h"
#endif

/* =========================================================================================
 * Differential test: the core against a literal Appendix D model on random charts
 * ======================================================================================= */

static uint32_t rng_state;

static uint32_t rnd(uint32_t n) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

static bool raw_descendant(const cb_builder *b, sc_id d, sc_id s) {
    for (sc_id a = b->states[d].parent; a != SC_NONE; a = b->states[a].parent)
        if (a == s) return true;
    return false;
}

static bool raw_history(const cb_builder *b, sc_id s) {
    return b->states[s].kind == SC_HISTORY_SHALLOW || b->states[s].kind == SC_HISTORY_DEEP;
}

/* A random non-history proper descendant of s (s = 0: any state). */
static sc_id random_descendant(const cb_builder *b, sc_id s) {
    sc_id pool[CB_MAX_STATES];
    uint32_t n = 0;
    for (sc_id d = 1; d < b->state_count; d++)
        if (!raw_history(b, d) && raw_descendant(b, d, s)) pool[n++] = d;
    return n ? pool[rnd(n)] : SC_NONE;
}

/* The generator's size: random_chart() stops adding states at gen_limit; gen_regions > 0 puts a
 * parallel state with that many regions under the root first (charts of more than 64 states with
 * many regions, whose configurations take several words: multi-word plans). */
static uint32_t gen_limit = 36, gen_regions = 0;

static void gen_children(cb_builder *b, sc_id parent, int depth) {
    const char *pname = b->state_name[parent];
    uint8_t pkind = b->states[parent].kind;
    uint32_t kids = 1 + rnd(3);
    bool has_state = false;
    int histories = 0;
    for (uint32_t i = 0; i < kids && b->state_count < gen_limit; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%u", (unsigned)b->state_count);
        uint32_t r = rnd(12);
        sc_state_kind kind = SC_ATOMIC;
        if (depth < 3 && r < 3) kind = SC_COMPOUND;
        else if (depth < 3 && r < 5) kind = SC_PARALLEL;
        else if (r < 6 && pkind == SC_COMPOUND && (parent != 0 || rnd(3) == 0)) kind = SC_FINAL;
        else if (r < 8 && parent != 0 && histories < 2) kind = rnd(2) ? SC_HISTORY_DEEP : SC_HISTORY_SHALLOW;
        sc_id s = cb_state(b, parent ? pname : NULL, kind, name);
        if (kind == SC_HISTORY_DEEP || kind == SC_HISTORY_SHALLOW) histories++;
        else has_state = true;
        if (kind == SC_COMPOUND || kind == SC_PARALLEL) gen_children(b, s, depth + 1);
        if (kind != SC_HISTORY_DEEP && kind != SC_HISTORY_SHALLOW && kind != SC_FINAL && rnd(6) == 0)
            cb_flags(b, name, SC_STATE_HAS_INVOKE);
    }
    if (!has_state) {
        char name[16];
        snprintf(name, sizeof name, "s%u", (unsigned)b->state_count);
        cb_state(b, parent ? pname : NULL, SC_ATOMIC, name);
    }
}

static cb_builder *random_chart(void) {
    cb_builder *b = cb_new();
    if (!b) return NULL;
    static const char *const pool[] = { "a", "b", "c", "a.x", "b.y", "d" };
    for (size_t i = 0; i < sizeof pool / sizeof pool[0]; i++) cb_event(b, pool[i]);
    if (gen_regions) {
        cb_state(b, NULL, SC_PARALLEL, "P");
        for (uint32_t i = 0; i < gen_regions; i++) {
            char name[16];
            snprintf(name, sizeof name, "r%u", (unsigned)i);
            sc_id region = cb_state(b, "P", SC_COMPOUND, name);
            gen_children(b, region, 1);
        }
    }
    gen_children(b, 0, 0);
    const sc_id n = b->state_count;
    for (sc_id s = 0; s < n; s++) {
        /* Never two draws among one call's arguments: C leaves their order of evaluation
         * open, and a seed must make the same chart whatever the compiler. */
        if (b->states[s].kind == SC_COMPOUND && s != 0 && rnd(3) == 0) {
            sc_id target = random_descendant(b, s);
            cb_initial(b, b->state_name[s], b->state_name[target], rnd(2));
        }
        if (raw_history(b, s)) {
            sc_id target = random_descendant(b, b->states[s].parent);
            cb_initial(b, b->state_name[s], b->state_name[target], rnd(2));
        }
    }
    if (rnd(4) == 0) cb_initial(b, "scxml", b->state_name[random_descendant(b, 0)], false);
    /* Parallel states with two regions, for legal two-target transitions. */
    sc_id parallels[CB_MAX_STATES];
    uint32_t np = 0;
    for (sc_id s = 1; s < n; s++) {
        if (b->states[s].kind != SC_PARALLEL) continue;
        uint32_t regions = 0;
        for (sc_id c = s + 1; c < n; c++)
            if (b->states[c].parent == s && !raw_history(b, c)) regions++;
        if (regions >= 2) parallels[np++] = s;
    }
    static const char *const descriptors[] = { NULL, NULL, "*", "a b", "done", "a.x", "b.y", "a", "a", "b", "c", "c" };
    uint32_t label = 0;
    for (sc_id s = 1; s < n; s++) {
        if (raw_history(b, s) || b->states[s].kind == SC_FINAL) continue;
        uint32_t count = rnd(4);
        for (uint32_t k = 0; k < count; k++) {
            const char *events = descriptors[rnd(12)];
            char guard[8], targets[2 * CB_NAME + 2], name[16];
            const char *g = NULL;
            if (rnd(events ? 4 : 2) == 0) {
                snprintf(guard, sizeof guard, "g%u", (unsigned)rnd(3));
                g = guard;
            }
            uint32_t r = rnd(10);
            const char *t = targets;
            if (r == 0) {
                t = NULL;
            } else if (r == 1 && np) {
                sc_id p = parallels[rnd(np)], regions[CB_MAX_STATES];
                uint32_t nr = 0;
                for (sc_id c = p + 1; c < n; c++)
                    if (b->states[c].parent == p && !raw_history(b, c)) regions[nr++] = c;
                uint32_t i1 = rnd(nr), i2 = (i1 + 1 + rnd(nr - 1)) % nr;
                sc_id x = rnd(2) ? regions[i1] : random_descendant(b, regions[i1]);
                sc_id y = rnd(2) ? regions[i2] : random_descendant(b, regions[i2]);
                if (x == SC_NONE) x = regions[i1];
                if (y == SC_NONE) y = regions[i2];
                snprintf(targets, sizeof targets, "%s %s", b->state_name[x], b->state_name[y]);
            } else {
                snprintf(targets, sizeof targets, "%s", b->state_name[1 + rnd(n - 1)]);
            }
            snprintf(name, sizeof name, "t%u", (unsigned)label++);
            cb_trans(b, b->state_name[s], events, t, rnd(3) == 0 ? SC_TRANSITION_INTERNAL : 0, g, name);
        }
    }
    return b;
}

static void dump_chart(const cb_builder *b) {
    fprintf(stderr, "chart:\n");
    for (sc_id s = 1; s < b->chart.state_count; s++) {
        static const char *const kinds[] = { "atomic", "compound", "parallel", "final", "history", "deep-history" };
        const sc_state *st = &b->states[s];
        fprintf(stderr, "  %*s%s %s%s", 2 * (int)st->depth, "", kinds[st->kind], b->state_name[s],
                st->flags & SC_STATE_HAS_INVOKE ? " [invoke]" : "");
        if (st->kind == SC_COMPOUND || st->kind == SC_HISTORY_SHALLOW || st->kind == SC_HISTORY_DEEP) {
            const sc_transition *t = &b->transitions[st->initial];
            fprintf(stderr, " initial/default ->");
            for (uint32_t k = 0; k < t->target_count; k++) fprintf(stderr, " %s", b->state_name[b->targets[t->targets_offset + k]]);
        }
        fprintf(stderr, "\n");
        for (uint32_t k = 0; k < st->transition_count; k++) {
            sc_id ti = st->first_transition + k;
            const sc_transition *t = &b->transitions[ti];
            fprintf(stderr, "  %*s  %s: on", 2 * (int)st->depth, "", b->transition_name[ti]);
            if (!t->event_count) fprintf(stderr, " (eventless)");
            for (uint32_t j = 0; j < t->event_count; j++) {
                sc_id d = b->descriptors[t->events_offset + j];
                fprintf(stderr, " %s", d == SC_EVENT_ANY ? "*" : b->event_name[d]);
            }
            if (t->guard != SC_NONE) fprintf(stderr, " [%s]", b->guard_name[t->guard]);
            fprintf(stderr, " ->");
            for (uint32_t j = 0; j < t->target_count; j++) fprintf(stderr, " %s", b->state_name[b->targets[t->targets_offset + j]]);
            fprintf(stderr, "%s\n", t->flags & SC_TRANSITION_INTERNAL ? " (internal)" : "");
        }
    }
}

/* Compares core and model after a call; fills why and returns false on the first difference. */
static bool same_state(const harness *h, const ref_machine *r, sc_status core, sc_status model, char *why, size_t size) {
    if (core != model) {
        snprintf(why, size, "status core %d, model %d; core trace \"%.600s\" model trace \"%.600s\"", (int)core, (int)model,
                 h->trace, r->trace);
        return false;
    }
    if (strcmp(h->trace, r->trace) != 0) {
        size_t at = 0;                      /* show both from shortly before the first difference */
        while (h->trace[at] && h->trace[at] == r->trace[at]) at++;
        size_t from = at > 200 ? at - 200 : 0;
        while (from > 0 && h->trace[from - 1] != ' ') from--;
        snprintf(why, size, "trace differs at character %zu\n      core:  \"...%.500s\"\n      model: \"...%.500s\"",
                 at, h->trace + from, r->trace + from);
        return false;
    }
    for (sc_id s = 0; s < h->b->chart.state_count; s++) {
        if (sc_machine_is_active(h->m, s) != r->active[s]) {
            snprintf(why, size, "state %s active in %s only", h->b->state_name[s], r->active[s] ? "model" : "core");
            return false;
        }
        const sc_state *st = &h->b->states[s];
        if (st->kind != SC_HISTORY_SHALLOW && st->kind != SC_HISTORY_DEEP) continue;
        sc_id ids[CB_MAX_STATES];
        uint32_t n = sc_machine_history(h->m, s, ids, CB_MAX_STATES), m = 0;
        bool in_core[CB_MAX_STATES] = { false };
        for (uint32_t i = 0; i < n; i++) in_core[ids[i]] = true;
        for (sc_id v = 0; v < h->b->chart.state_count; v++) {
            bool in_model = r->history_recorded[s] && r->history_value[s][v];
            if (in_model) m++;
            if (in_core[v] != in_model) {
                snprintf(why, size, "history %s: %s recorded in %s only", h->b->state_name[s], h->b->state_name[v],
                         in_model ? "model" : "core");
                return false;
            }
        }
        (void)m;
    }
    return true;
}

#ifndef RANDOM_CHARTS                 /* e.g. -DRANDOM_CHARTS=200000 for a longer local sweep */
#define RANDOM_CHARTS 3000
#endif
#define RANDOM_EVENTS 16
#define RANDOM_MAX_STEPS 60

/* One random chart and event sequence; false (and why) on a difference. */
static bool run_random_case(uint32_t seed, harness *h, ref_machine *r, char *why, size_t size) {
    rng_state = seed;
    cb_builder *b = random_chart();
    if (!b) {
        snprintf(why, size, "out of memory");
        return false;
    }
    bool ok = true;
    sc_machine *m = NULL;
    sc_id raise_table[CB_MAX_ACTIONS];
    if (!cb_finish(b)) {
        snprintf(why, size, "generator made a bad description: %s", b->error);
        ok = false;
        goto done;
    }
    sc_chart_error err = { NULL, NULL, 0 };
    if (sc_chart_check(&b->chart, &err) != SC_OK) {
        snprintf(why, size, "sc_chart_check rejects a built chart: %s (%s %u)", err.message, err.table, (unsigned)err.index);
        ok = false;
        goto done;
    }
    harness_bind(h, b);
    for (uint32_t g = 0; g < CB_MAX_GUARDS; g++) h->guard[g] = rnd(2);
    for (uint32_t a = 0; a < CB_MAX_ACTIONS; a++) raise_table[a] = rnd(10) == 0 ? rnd(5) : SC_NONE;
    h->raise_on_action = raise_table;
    sc_options o = { REF_QUEUE, 0, RANDOM_MAX_STEPS, 0 };
    m = sc_machine_create(&b->chart, &h->host, &o);
    if (!m) {
        snprintf(why, size, "sc_machine_create failed");
        ok = false;
        goto done;
    }
    h->m = m;
    ref_init(r, b, h->guard, raise_table, RANDOM_MAX_STEPS);
    sc_status core = sc_machine_start(m), model = ref_start(r);
    int step = 0;
    char head[64] = "start";
    ok = same_state(h, r, core, model, why, size);
    while (ok && core >= 0 && !sc_machine_is_halted(m) && step < RANDOM_EVENTS) {
        h->trace[0] = r->trace[0] = '\0';
        uint32_t pick = rnd(9);
        sc_id event = pick < 6 ? pick : pick == 6 ? SC_EVENT_UNKNOWN : rnd(b->chart.event_count);
        snprintf(head, sizeof head, "event %d (%s)", step, event == SC_EVENT_UNKNOWN ? "?" : b->event_name[event]);
        sc_event e = { event, 0, 0 };
        core = sc_machine_dispatch(m, e);
        model = ref_dispatch(r, event);
        ok = same_state(h, r, core, model, why, size);
        step++;
    }
    if (!ok) {
        size_t len = strlen(why);
        snprintf(why + len, size - len, "\n      seed %u, at %s", (unsigned)seed, head);
        dump_chart(b);
    }
done:
    sc_machine_destroy(m);
    cb_free(b);
    return ok;
}

static void test_differential_random_charts_vs_reference_model(void) {
    harness *h = owned_alloc(sizeof *h);
    ref_machine *r = owned_alloc(sizeof *r);
    char why[1536];
    for (uint32_t seed = 1; seed <= RANDOM_CHARTS; seed++) {
        if (!run_random_case(seed, h, r, why, sizeof why)) {
            test_fail(__LINE__, "%s", why);
            return;
        }
    }
}

/* s{s1} and t, `go` from s1 to t and `back` again, without transition actions. */
static cb_builder *chart_go_back(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "s");
    cb_state(b, "s", SC_ATOMIC, "s1");
    cb_state(b, NULL, SC_ATOMIC, "t");
    cb_trans(b, "s1", "go", "t", 0, NULL, NULL);
    cb_trans(b, "t", "back", "s1", 0, NULL, NULL);
    return b;
}

/* No entry or exit actions left: every microstep of the chart is quiet (a MASKS plan). */
static void drop_entry_exit_actions(cb_builder *b) {
    for (sc_id s = 0; s < b->chart.state_count; s++) b->states[s].on_entry = b->states[s].on_exit = SC_NONE;
}

/* sc_machine_set_host: observers installed after quiet microsteps were cached see every
 * replayed entry and exit; removed again, the machine still moves. */
static void test_set_host_observers_see_cached_microsteps(void) {
    cb_builder *b = chart_go_back();
    MACHINE(h, b, NULL);
    drop_entry_exit_actions(b);
    /* The machine keeps its host by reference: both live as long as the machine. */
    sc_host *observing = owned_alloc(sizeof *observing), *quiet = owned_alloc(sizeof *quiet);
    *observing = h->host;
    *quiet = (sc_host){ .context = h };
    EXPECT_EQ_U(sc_machine_set_host(h->m, quiet), SC_OK);
    START(h, SC_OK, "", "s s1");
    for (int i = 0; i < 3; i++) {
        STEP(h, "go", SC_OK, "", "t");
        STEP(h, "back", SC_OK, "", "s s1");
    }
    h->trace_observers = true;
    EXPECT_EQ_U(sc_machine_set_host(h->m, observing), SC_OK);
    STEP(h, "go", SC_OK, "exited:s1 exited:s taken: entered:t", "t");
    STEP(h, "back", SC_OK, "exited:t taken: entered:s entered:s1", "s s1");
    STEP(h, "go", SC_OK, "exited:s1 exited:s taken: entered:t", "t");
    EXPECT_EQ_U(sc_machine_set_host(h->m, quiet), SC_OK);
    STEP(h, "back", SC_OK, "", "s s1");
    STEP(h, "go", SC_OK, "", "t");
    EXPECT_EQ_U(sc_machine_set_host(NULL, quiet), SC_ERR_BAD_ARGUMENT);
    EXPECT_EQ_U(sc_machine_set_host(h->m, NULL), SC_ERR_BAD_ARGUMENT);
}

/* The machine keeps its host by reference: a host that edits the very struct the machine uses
 * (observers added) and hands it in again sees every replayed entry and exit; the quiet plans
 * recorded before are dropped although the pointer is the same. */
static void test_set_host_same_struct_edited_in_place(void) {
    cb_builder *b = chart_go_back();
    MACHINE(h, b, NULL);
    drop_entry_exit_actions(b);
    const sc_host observing = h->host;
    h->host.entered = NULL, h->host.exited = NULL, h->host.taken = NULL;
    EXPECT_EQ_U(sc_machine_set_host(h->m, &h->host), SC_OK);
    START(h, SC_OK, "", "s s1");
    for (int i = 0; i < 3; i++) {       /* quiet: recorded and replayed as MASKS plans */
        STEP(h, "go", SC_OK, "", "t");
        STEP(h, "back", SC_OK, "", "s s1");
    }
    h->trace_observers = true;
    h->host.entered = observing.entered, h->host.exited = observing.exited, h->host.taken = observing.taken;
    EXPECT_EQ_U(sc_machine_set_host(h->m, &h->host), SC_OK);
    STEP(h, "go", SC_OK, "exited:s1 exited:s taken: entered:t", "t");
    STEP(h, "back", SC_OK, "exited:t taken: entered:s entered:s1", "s s1");
}

/* An exit action that changes the observers while a cached microstep is being replayed (which
 * clears the cache under it): the replay still completes as recorded. */
static void hook_drop_taken_on_exit(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "exit:s1") != 0) return;
    /* The struct the machine uses, edited in place, then handed in again (sc_machine_set_host). */
    h->host.taken = NULL;
    sc_machine_set_host(h->m, &h->host);
    h->hook = NULL;
}

static void test_set_host_inside_a_replayed_microstep(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "s");
    cb_state(b, "s", SC_ATOMIC, "s1");
    cb_state(b, NULL, SC_ATOMIC, "t");
    cb_trans(b, "s1", "go", "t", 0, NULL, "t1");
    cb_trans(b, "t", "back", "s1", 0, NULL, "t2");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:s enter:s1", "s s1");
    for (int i = 0; i < 2; i++) {
        STEP(h, "go", SC_OK, "exit:s1 exit:s take:t1 enter:t", "t");
        STEP(h, "back", SC_OK, "exit:t take:t2 enter:s enter:s1", "s s1");
    }
    h->hook = hook_drop_taken_on_exit;
    STEP(h, "go", SC_OK, "exit:s1 exit:s take:t1 enter:t", "t");
    STEP(h, "back", SC_OK, "exit:t take:t2 enter:s enter:s1", "s s1");
    STEP(h, "go", SC_OK, "exit:s1 exit:s take:t1 enter:t", "t");
}

/* Plans (sc_plan.c) replay microsteps from single-path configurations. Long event sequences over
 * a few events make (leaf, event) pairs recur, so most microsteps are replays: once with every
 * observer (replayed state by state, traces compared) and once on a chart stripped of its
 * actions with a host that has only a guard callback (quiet plans: replayed as masks). */
static bool same_configuration(sc_machine *m, const cb_builder *b, const ref_machine *r, sc_status core,
                               sc_status model, char *why, size_t size) {
    if (core != model) {
        snprintf(why, size, "status core %d, model %d", (int)core, (int)model);
        return false;
    }
    for (sc_id s = 0; s < b->chart.state_count; s++) {
        if (sc_machine_is_active(m, s) != r->active[s]) {
            snprintf(why, size, "state %s active in %s only", b->state_name[s], r->active[s] ? "model" : "core");
            return false;
        }
    }
    return true;
}

/* What a machine did in one call of a plan case, as a number: FNV-1a over its status, its trace
 * and its configuration (two runs that agree on every call agree on every digest). */
static uint64_t call_digest(const harness *h, sc_status status) {
    uint64_t d = UINT64_C(0xcbf29ce484222325);
    char text[64];
    snprintf(text, sizeof text, "%d|", (int)status);
    for (const char *c = text; *c; c++) d = (d ^ (unsigned char)*c) * UINT64_C(0x100000001b3);
    for (const char *c = h->trace; *c; c++) d = (d ^ (unsigned char)*c) * UINT64_C(0x100000001b3);
    for (sc_id s = 0; s < h->b->chart.state_count; s++)
        d = (d ^ (sc_machine_is_active(h->m, s) ? 1u : 0u)) * UINT64_C(0x100000001b3);
    return d;
}

#define PLAN_CASE_EVENTS 64

/* One plan case: a random chart and PLAN_CASE_EVENTS events, core (made with `flags`) against the
 * model. With `digests` (PLAN_CASE_EVENTS + 2 entries), the call_digest of the start and of each
 * dispatch, then 0. */
static bool run_plan_case(uint32_t seed, bool quiet, uint32_t flags, uint64_t *digests, harness *h,
                          ref_machine *r, char *why, size_t size) {
    rng_state = seed;
    cb_builder *b = random_chart();
    if (!b) {
        snprintf(why, size, "out of memory");
        return false;
    }
    bool ok = cb_finish(b);
    sc_machine *m = NULL;
    if (!ok) {
        snprintf(why, size, "generator made a bad description: %s", b->error);
        goto done;
    }
    if (quiet) {
        for (sc_id s = 0; s < b->chart.state_count; s++) b->states[s].on_entry = b->states[s].on_exit = SC_NONE;
        for (sc_id t = 0; t < b->chart.transition_count; t++) b->transitions[t].action = SC_NONE;
    }
    harness_bind(h, b);
    for (uint32_t g = 0; g < CB_MAX_GUARDS; g++) h->guard[g] = rnd(2);
    sc_host quiet_host = { .context = h, .guard = h->host.guard, .release = seed % 2 ? h->host.release : NULL };
    sc_options o = { REF_QUEUE, 0, RANDOM_MAX_STEPS, flags };
    m = sc_machine_create(&b->chart, quiet ? &quiet_host : &h->host, &o);
    if (!m) {
        snprintf(why, size, "sc_machine_create failed");
        ok = false;
        goto done;
    }
    h->m = m;
    ref_init(r, b, h->guard, NULL, RANDOM_MAX_STEPS);
    sc_status core = sc_machine_start(m), model = ref_start(r);
    ok = quiet ? same_configuration(m, b, r, core, model, why, size) : same_state(h, r, core, model, why, size);
    uint32_t calls = 0;
    if (digests) digests[calls++] = call_digest(h, core);
    for (int step = 0; ok && core >= 0 && !sc_machine_is_halted(m) && step < PLAN_CASE_EVENTS; step++) {
        h->trace[0] = r->trace[0] = '\0';
        sc_id event = rnd(4);                 /* a, b, c, a.x */
        /* Guards change now and then (the model reads the same array), so GUARDED plans see
         * other choices than the one their step was recorded for. */
        if (rnd(8) == 0) h->guard[rnd(3)] ^= true;
        core = sc_machine_dispatch(m, (sc_event){ event, 0, 0 });
        model = ref_dispatch(r, event);
        ok = quiet ? same_configuration(m, b, r, core, model, why, size) : same_state(h, r, core, model, why, size);
        if (digests) digests[calls++] = call_digest(h, core);
        if (!ok) {
            size_t len = strlen(why);
            snprintf(why + len, size - len, "\n      seed %u (%s), at event %d (%s)", (unsigned)seed,
                     quiet ? "quiet" : "observed", step, b->event_name[event]);
            dump_chart(b);
        }
    }
    if (digests) digests[calls] = 0;
done:
    sc_machine_destroy(m);
    cb_free(b);
    return ok;
}

/* Runs the plan cases of seeds 1..charts; false (after test_fail) at the first difference. */
static bool run_plan_cases(uint32_t charts, harness *h, ref_machine *r) {
    char why[1536];
    for (uint32_t seed = 1; seed <= charts; seed++) {
        for (int quiet = 0; quiet < 2; quiet++) {
            if (!run_plan_case(seed, quiet, 0, NULL, h, r, why, sizeof why)) {
                test_fail(__LINE__, "%s", why);
                return false;
            }
        }
    }
    return true;
}

#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
/* The fast paths ran: replays of each kind, counted by the core (-DSC_PLAN_STATS=1 builds). */
static void expect_replays(const sc_plan_stats *before, bool multiword) {
    const sc_plan_stats *now = &sc_plan_counters;
    static const char *const names[] = { "", "UNHANDLED", "MASKS", "STEPS", "COMPUTE" };
    for (int kind = SC_PLAN_UNHANDLED; kind <= SC_PLAN_STEPS; kind++)
        if (now->replays[kind] == before->replays[kind]) test_fail(__LINE__, "no %s plan was replayed", names[kind]);
    if (now->guarded_replays == before->guarded_replays)
        test_fail(__LINE__, "no GUARDED plan was replayed for the selection it recorded");
    if (now->guarded_misses == before->guarded_misses)
        test_fail(__LINE__, "no GUARDED plan met a selection other than the one it recorded");
    if (multiword && now->multiword_replays == before->multiword_replays)
        test_fail(__LINE__, "no multi-word plan was replayed");
    /* The fast path: plans that were the whole dispatch. Only required of the one-word charts:
     * the multi-word ones (8 to 22 regions) nearly always have an eventless transition or an
     * invocation somewhere. */
    if (!multiword && now->fast_masks == before->fast_masks)
        test_fail(__LINE__, "no MASKS plan was the whole dispatch (fast path)");
    if (!multiword && now->fast_unhandled == before->fast_unhandled)
        test_fail(__LINE__, "no UNHANDLED plan was the whole dispatch (fast path)");
}
#endif

static void test_plans_replay_like_the_reference_model(void) {
    harness *h = owned_alloc(sizeof *h);
    ref_machine *r = owned_alloc(sizeof *r);
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
    sc_plan_stats before = sc_plan_counters;
#endif
    if (!run_plan_cases(RANDOM_CHARTS, h, r)) return;
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
    expect_replays(&before, false);
#endif
}

/* The same on charts of about 60 to 250 states under a parallel state of 8 to 22 regions: their
 * configurations take two to four words, so multi-word plans (and WALK plans in multi-region
 * configurations) are replayed. */
static void test_multiword_plans_replay_like_the_reference_model(void) {
    harness *h = owned_alloc(sizeof *h);
    ref_machine *r = owned_alloc(sizeof *r);
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
    sc_plan_stats before = sc_plan_counters;
#endif
    bool ok = true;
    uint32_t words_seen[5] = { 0 };
    for (uint32_t round = 0; ok && round < 8; round++) {
        gen_regions = 8 + round * 2;
        gen_limit = 80 + round * 25;
        ok = run_plan_cases(RANDOM_CHARTS / 20, h, r);
        rng_state = round;
        cb_builder *b = random_chart();
        if (b && cb_finish(b)) words_seen[(b->chart.state_count + 63) / 64 > 4 ? 4 : (b->chart.state_count + 63) / 64]++;
        cb_free(b);
    }
    gen_regions = 0;
    gen_limit = 36;
    if (!ok) return;
    if (!words_seen[2] || !words_seen[3]) test_fail(__LINE__, "the generator made no chart of two and three words");
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
    expect_replays(&before, true);
#endif
}

/* SC_MACHINE_NO_PLANS: on the plan cases' charts and events, a machine that never uses a plan
 * makes the same calls (status, trace with every observer, configuration) as one that replays
 * plans, call by call, and agrees with the model; in builds that count replays, it replays none. */
static void test_no_plans_machine_traces_like_a_planned_one(void) {
    harness *h = owned_alloc(sizeof *h);
    ref_machine *r = owned_alloc(sizeof *r);
    char why[1536];
    uint64_t planned[PLAN_CASE_EVENTS + 2], unplanned[PLAN_CASE_EVENTS + 2];
    unsigned long planned_replays = 0, unplanned_replays = 0;
    for (uint32_t seed = 1; seed <= RANDOM_CHARTS / 3; seed++) {
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
        sc_plan_stats before = sc_plan_counters;
#endif
        if (!run_plan_case(seed, false, 0, planned, h, r, why, sizeof why)) {
            test_fail(__LINE__, "planned: %s", why);
            return;
        }
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
        sc_plan_stats middle = sc_plan_counters;
        for (int mode = 0; mode <= SC_PLAN_COMPUTE; mode++) planned_replays += middle.replays[mode] - before.replays[mode];
#endif
        if (!run_plan_case(seed, false, SC_MACHINE_NO_PLANS, unplanned, h, r, why, sizeof why)) {
            test_fail(__LINE__, "SC_MACHINE_NO_PLANS: %s", why);
            return;
        }
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
        for (int mode = 0; mode <= SC_PLAN_COMPUTE; mode++) unplanned_replays += sc_plan_counters.replays[mode] - middle.replays[mode];
        unplanned_replays += sc_plan_counters.multiword_replays - middle.multiword_replays;
#endif
        for (uint32_t i = 0; i < PLAN_CASE_EVENTS + 2; i++) {
            if (planned[i] != unplanned[i]) {
                test_fail(__LINE__, "seed %u: call %u (0: start) differs between the planned and the unplanned machine",
                          (unsigned)seed, (unsigned)i);
                return;
            }
            if (planned[i] == 0) break;
        }
    }
    EXPECT_EQ_U(unplanned_replays, 0);
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
    REQUIRE(planned_replays > 1000, "the planned machines replayed only %lu plans", planned_replays);
#else
    (void)planned_replays;
#endif
}

/* A microstep that enters a compound state by default runs its <initial> content (W3C
 * enterStates: defaultEntryContent), so it is not quiet even when no observer is installed and
 * no other action runs: replayed from a plan, it runs that content again every time. */
static void test_plans_keep_initial_content(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "A");
    cb_state(b, NULL, SC_COMPOUND, "B");
    cb_state(b, "B", SC_ATOMIC, "b1");
    cb_state(b, "B", SC_ATOMIC, "b2");
    cb_initial(b, "B", "b2", true);
    cb_trans(b, "A", "go", "B", 0, NULL, NULL);
    cb_trans(b, "b2", "back", "A", 0, NULL, NULL);
    MACHINE(h, b, NULL);
    for (sc_id s = 0; s < b->chart.state_count; s++) b->states[s].on_entry = b->states[s].on_exit = SC_NONE;
    sc_host *actions_only = owned_alloc(sizeof *actions_only);     /* as long as the machine */
    *actions_only = (sc_host){ .context = h, .action = h->host.action };
    EXPECT_STATUS(sc_machine_set_host(h->m, actions_only), SC_OK);
    START(h, SC_OK, "", "A");
    for (int round = 0; round < 3; round++) {
        STEP(h, "go", SC_OK, "init:B", "B b2");
        STEP(h, "back", SC_OK, "", "A");
    }
}

/* A chart of more than 256 states keys its plans by the only active atomic state (the leaf), and
 * a WALK plan keeps no 32-bit state it leaves (a plan is 24 bytes): the replay takes it from the
 * key. Replayed WALK steps, exits, transition content, a default entry with <initial> content
 * and entries, must trace exactly as the first, computed, microsteps did.
 *
 *   P: Q (q1, q2), R (r1; <initial> with content)    q1, q2 --go--> R    r1 --back--> q2
 *   F: f0 .. f299 (never entered; only there to make 308 states, five configuration words) */
static void test_leaf_keyed_walk_plans_replay_from_the_key(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "P");
    cb_state(b, "P", SC_COMPOUND, "Q");
    cb_state(b, "Q", SC_ATOMIC, "q1");
    cb_state(b, "Q", SC_ATOMIC, "q2");
    cb_state(b, "P", SC_COMPOUND, "R");
    cb_state(b, "R", SC_ATOMIC, "r1");
    cb_initial(b, "R", "r1", true);
    cb_state(b, NULL, SC_COMPOUND, "F");
    char name[16];
    for (int i = 0; i < 300; i++) {
        snprintf(name, sizeof name, "f%d", i);
        cb_state(b, "F", SC_ATOMIC, name);
    }
    cb_trans(b, "q1", "go", "R", 0, NULL, "tgo1");
    cb_trans(b, "q2", "go", "R", 0, NULL, "tgo2");
    cb_trans(b, "r1", "back", "q2", 0, NULL, "tback");
    MACHINE(h, b, NULL);
    EXPECT_EQ_U(sc_machine_configuration_words(h->m), SC_BIT_WORDS(h->b->chart.state_count));   /* 5 of 64 bits */
    START(h, SC_OK, "enter:P enter:Q enter:q1", "P Q q1");
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
    sc_plan_stats before = sc_plan_counters;
#endif
    STEP(h, "go", SC_OK, "exit:q1 exit:Q take:tgo1 enter:R init:R enter:r1", "P R r1");
    for (int round = 0; round < 3; round++) {       /* from the second round on, both are replayed */
        STEP(h, "back", SC_OK, "exit:r1 exit:R take:tback enter:Q enter:q2", "P Q q2");
        STEP(h, "go", SC_OK, "exit:q2 exit:Q take:tgo2 enter:R init:R enter:r1", "P R r1");
    }
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
    EXPECT_EQ_U(sc_plan_counters.replays[SC_PLAN_STEPS] - before.replays[SC_PLAN_STEPS], 4);
    EXPECT_EQ_U(sc_plan_counters.multiword_replays - before.multiword_replays, 0);
#endif
}

/* A GUARDED plan holds for the guard outcomes it recorded. When its guard gives another outcome,
 * the plan must not be replayed: the algorithm selects again, told the outcome already asked (the
 * guard is asked once per event), and its microstep replaces the plan. A cache that replayed the
 * stale plan would take tg to s2 after g turned false. Once with every callback (STEPS plans) and
 * once quiet (no content, a host with only the guard: MASKS plans).
 *
 *   s1 --go [g]--> s2 (tg)     s1 --go--> s3 (tf)     s2 --back--> s1 (b2)     s3 --back--> s1 (b3) */
static void test_guarded_plans_replay_only_their_guard_outcomes(void) {
    for (int quiet = 0; quiet < 2; quiet++) {
        cb_builder *b = new_chart();
        cb_state(b, NULL, SC_ATOMIC, "s1");
        cb_state(b, NULL, SC_ATOMIC, "s2");
        cb_state(b, NULL, SC_ATOMIC, "s3");
        cb_trans(b, "s1", "go", "s2", 0, "g", "tg");
        cb_trans(b, "s1", "go", "s3", 0, NULL, "tf");
        cb_trans(b, "s2", "back", "s1", 0, NULL, "b2");
        cb_trans(b, "s3", "back", "s1", 0, NULL, "b3");
        MACHINE(h, b, NULL);
        h->trace_guards = true;
        if (quiet) {
            for (sc_id s = 0; s < b->chart.state_count; s++) b->states[s].on_entry = b->states[s].on_exit = SC_NONE;
            for (sc_id t = 0; t < b->chart.transition_count; t++) b->transitions[t].action = SC_NONE;
            sc_host *guard_only = owned_alloc(sizeof *guard_only);     /* as long as the machine */
            *guard_only = (sc_host){ .context = h, .guard = h->host.guard };
            EXPECT_STATUS(sc_machine_set_host(h->m, guard_only), SC_OK);
        }
        const char *to_s2 = quiet ? "guard:g" : "guard:g exit:s1 take:tg enter:s2";
        const char *to_s3 = quiet ? "guard:g" : "guard:g exit:s1 take:tf enter:s3";
        const char *from_s2 = quiet ? "" : "exit:s2 take:b2 enter:s1";
        const char *from_s3 = quiet ? "" : "exit:s3 take:b3 enter:s1";
        START(h, SC_OK, quiet ? "" : "enter:s1", "s1");
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
        sc_plan_stats before = sc_plan_counters;
#endif
        set_guard(h, "g", true);
        for (int round = 0; round < 3; round++) {   /* recorded, then replayed */
            STEP(h, "go", SC_OK, to_s2, "s2");
            STEP(h, "back", SC_OK, from_s2, "s1");
        }
        set_guard(h, "g", false);                   /* the plan of (s1, go) is now wrong */
        for (int round = 0; round < 3; round++) {
            STEP(h, "go", SC_OK, to_s3, "s3");
            STEP(h, "back", SC_OK, from_s3, "s1");
        }
        set_guard(h, "g", true);
        STEP(h, "go", SC_OK, to_s2, "s2");
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
        /* go from s1: the first two replays match, then a miss, two matches, a miss. */
        EXPECT_EQ_U(sc_plan_counters.guarded_replays - before.guarded_replays, 4);
        EXPECT_EQ_U(sc_plan_counters.guarded_misses - before.guarded_misses, 2);
#endif
    }
}

const test_case differential_tests[] = {
    TEST(test_differential_random_charts_vs_reference_model),
    TEST(test_plans_replay_like_the_reference_model),
    TEST(test_multiword_plans_replay_like_the_reference_model),
    TEST(test_plans_keep_initial_content),
    TEST(test_guarded_plans_replay_only_their_guard_outcomes),
    TEST(test_leaf_keyed_walk_plans_replay_from_the_key),
    TEST(test_no_plans_machine_traces_like_a_planned_one),
    TEST(test_set_host_observers_see_cached_microsteps),
    TEST(test_set_host_inside_a_replayed_microstep),
    TEST(test_set_host_same_struct_edited_in_place),
};
const size_t differential_test_count = sizeof differential_tests / sizeof differential_tests[0];
