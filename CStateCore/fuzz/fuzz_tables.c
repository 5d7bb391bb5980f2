/*
 * fuzz_tables.c - libFuzzer harness: arbitrary chart tables through every CStateCore entry
 * point that takes tables.
 *
 * The input is decoded field by field into tables allocated at exactly their declared sizes,
 * so AddressSanitizer reports any read past them. Each field takes one byte, so small ids
 * (in range) and large ones (out of range) are both a single mutation away; masks are all
 * ones (which satisfies sc_chart_check's mask rules without constraining the fuzzer) unless
 * the input asks for sc_chart_fill_masks, which must then cope with the raw tables.
 *
 * What must hold for every input:
 *  - sc_chart_check, sc_chart_fill_masks, sc_machine_size, sc_machine_create and
 *    sc_machine_init return in bounded time (libFuzzer's -timeout reports a hang) and never
 *    read outside the tables (ASan);
 *  - a chart sc_chart_check rejects is rejected by sc_machine_size (0), sc_machine_create
 *    (NULL) and sc_machine_init (SC_ERR_BAD_CHART);
 *  - a chart it accepts runs: start, external events, posts, restores and stop, driven by the
 *    input, leave a legal configuration after every call (fuzz_illegal_configuration), the
 *    observers see entered states active and exited states inactive, and every status is one
 *    of sc_status.
 *
 * Input layout (every read past the end yields 0):
 *   mode, counts, states, transitions, events, target pool, descriptor pool, options,
 *   guard values, raised events per action, then operations until the input ends.
 */
#include "fuzz_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HARNESS "fuzz_tables"

enum {
    MODE_FILL_MASKS = 0x01,     /* run sc_chart_fill_masks on the raw tables */
    MODE_CALLER_BLOCK = 0x02,   /* sc_machine_init in a block of exactly sc_machine_size bytes */
    MODE_POST_FROM_ACTIONS = 0x04, /* actions also post (sc_machine_post) an event */
    MODE_DISPATCH_FROM_ACTIONS = 0x08, /* actions also call sc_machine_dispatch (must queue) */
    MODE_NULL_EMPTY_TABLES = 0x10, /* empty tables are passed as NULL rather than a 0-byte block */
};

typedef struct fuzz_host {
    uint64_t guards;            /* guard g holds when bit g % 64 is set */
    sc_id raises[16];           /* action a raises raises[a % 16] (SC_NONE: nothing) */
    uint8_t mode;
    uint32_t callbacks;         /* bounds the work a runaway chart makes the harness do */
    uint32_t posts;             /* events actions posted: sc_machine_run processes until the
                                 * external queue is empty, which a chart whose every macrostep
                                 * posts again never is, so the harness stops posting */
} fuzz_host;

#define MAX_POSTS_FROM_ACTIONS 256

static sc_id byte_id(uint8_t b) { return b == 0xFF ? SC_NONE : b; }

static void *table(size_t count, size_t size, uint8_t mode) {
    if (count == 0 && (mode & MODE_NULL_EMPTY_TABLES)) return NULL;
    void *p = malloc(count ? count * size : 1);
    if (!p) abort();
    return p;
}

static bool host_guard(void *context, sc_machine *m, sc_id guard, const sc_event *event) {
    fuzz_host *h = context;
    (void)m;
    (void)event;
    h->callbacks++;
    return h->guards >> (guard % 64) & 1;
}

static void host_action(void *context, sc_machine *m, sc_id action, const sc_event *event) {
    fuzz_host *h = context;
    (void)event;
    h->callbacks++;
    sc_id raised = h->raises[action % 16];
    if (raised == SC_NONE) return;
    sc_event e = { raised, 0, 0 };
    sc_status st = sc_machine_raise(m, e);
    if (st != SC_OK && st != SC_ERR_QUEUE_FULL && st != SC_ERR_BAD_ARGUMENT)
        fuzz_fail(HARNESS, "sc_machine_raise from an action returned %d", (int)st);
    if (h->posts >= MAX_POSTS_FROM_ACTIONS) return;
    if (h->mode & MODE_POST_FROM_ACTIONS) h->posts++, (void)sc_machine_post(m, e);
    if (h->mode & MODE_DISPATCH_FROM_ACTIONS) {
        h->posts++;
        st = sc_machine_dispatch(m, e);
        if (st != SC_QUEUED && st != SC_ERR_QUEUE_FULL && st != SC_ERR_BAD_ARGUMENT)
            fuzz_fail(HARNESS, "sc_machine_dispatch inside a callback returned %d, not SC_QUEUED", (int)st);
    }
}

static void host_entered(void *context, sc_machine *m, sc_id state) {
    (void)context;
    if (!sc_machine_is_active(m, state)) fuzz_fail(HARNESS, "entered(%u) reported for an inactive state", (unsigned)state);
}

static void host_exited(void *context, sc_machine *m, sc_id state) {
    (void)context;
    if (sc_machine_is_active(m, state)) fuzz_fail(HARNESS, "exited(%u) reported for a state still active", (unsigned)state);
}

static void host_done_data(void *context, sc_machine *m, sc_id final_state, sc_event *done) {
    (void)context;
    (void)m;
    done->data = final_state;
}

/* A status is one of sc_status when the core has a text for it (so new codes need no edit here). */
static bool known_status(sc_status st) {
    return strcmp(sc_status_text(st), "unknown status") != 0;
}

static void check_machine(const sc_machine *m, const char *after, sc_status st) {
    if (!known_status(st)) fuzz_fail(HARNESS, "%s returned %d, not an sc_status", after, (int)st);
    sc_id where;
    const char *why = fuzz_illegal_configuration(m, &where);
    if (why) {
        char active[512] = "";
        sc_id ids[64];
        uint32_t n = sc_machine_active_states(m, false, ids, 64);
        for (uint32_t i = 0, len = 0; i < n && i < 64 && len + 12 < sizeof active; i++)
            len += (uint32_t)snprintf(active + len, sizeof active - len, " %u", (unsigned)ids[i]);
        fuzz_fail(HARNESS, "after %s (status %d): %s (state %u); active:%s", after, (int)st, why, (unsigned)where, active);
    }
}

/* Runs a chart sc_chart_check accepted, driven by the rest of the input. */
static void run_machine(const sc_chart *chart, fuzz_input *in, uint8_t mode) {
    /* Capacities 0 (the default, 64) to 8, so full queues are common; a step bound of 1 to 64
     * keeps runaway charts cheap (the default bound is the same code with a larger number). */
    sc_options options = { fuzz_choose(in, 9), fuzz_choose(in, 9), 1 + fuzz_choose(in, 64), 0 };
    fuzz_host h = { .mode = mode };
    for (int i = 0; i < 8; i++) h.guards = h.guards << 8 | fuzz_byte(in);
    for (int i = 0; i < 16; i++) h.raises[i] = byte_id(fuzz_byte(in));
    sc_host host = { .context = &h, .guard = host_guard, .action = host_action, .entered = host_entered,
                     .exited = host_exited, .done_data = host_done_data };

    size_t size = sc_machine_size(chart, &options);
    if (size == 0) fuzz_fail(HARNESS, "sc_machine_size is 0 for a chart sc_chart_check accepts");
    sc_machine *m = NULL;
    void *block = NULL;
    if (mode & MODE_CALLER_BLOCK) {
        block = malloc(size);
        if (!block) abort();
        sc_machine *small = NULL;
        if (sc_machine_init(&small, block, size - 1, chart, &host, &options) != SC_ERR_NO_MEMORY)
            fuzz_fail(HARNESS, "sc_machine_init accepted a block one byte smaller than sc_machine_size");
        sc_status st = sc_machine_init(&m, block, size, chart, &host, &options);
        if (st != SC_OK) fuzz_fail(HARNESS, "sc_machine_init failed (%d) with sc_machine_size bytes", (int)st);
    } else {
        m = sc_machine_create(chart, &host, &options);
        if (!m) fuzz_fail(HARNESS, "sc_machine_create failed on a chart sc_chart_check accepts");
    }
    check_machine(m, "create", SC_OK);

    sc_status st = sc_machine_start(m);
    check_machine(m, "start", st);
    uint32_t ops = 0;
    while (!fuzz_exhausted(in) && ops++ < 64 && h.callbacks < 200000) {
        uint8_t op = fuzz_byte(in) % 8;
        if (op <= 4) {
            uint8_t b = fuzz_byte(in);
            sc_event e = { b == 0xFF ? SC_EVENT_UNKNOWN : b, 0, 0 };
            st = sc_machine_dispatch(m, e);
            check_machine(m, "dispatch", st);
            if (sc_machine_is_busy(m)) fuzz_fail(HARNESS, "busy after dispatch returned");
        } else if (op == 5) {
            sc_event e = { fuzz_byte(in), 0, 0 };
            st = sc_machine_post(m, e);
            check_machine(m, "post", st);
            st = sc_machine_run(m);
            check_machine(m, "run", st);
        } else if (op == 6) {
            sc_id ids[8];
            uint32_t count = fuzz_choose(in, 9);
            for (uint32_t i = 0; i < count; i++) ids[i] = fuzz_byte(in);
            st = sc_machine_restore(m, ids, count, false);
            check_machine(m, "restore", st);
            if (st == SC_OK)
                for (uint32_t i = 0; i < count; i++)
                    if (!sc_machine_is_active(m, ids[i])) fuzz_fail(HARNESS, "restore accepted %u but left it inactive", (unsigned)ids[i]);
        } else {
            st = sc_machine_stop(m);
            check_machine(m, "stop", st);
            if (!sc_machine_is_halted(m)) fuzz_fail(HARNESS, "not halted after sc_machine_stop");
        }
    }
    if (block) free(block);
    else sc_machine_destroy(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = { data, size, 0 };
    uint8_t mode = fuzz_byte(&in);
    sc_chart chart = { 0 };
    chart.state_count = fuzz_choose(&in, 40);
    chart.transition_count = fuzz_choose(&in, 48);
    chart.event_count = fuzz_choose(&in, 12);
    chart.target_pool_count = fuzz_choose(&in, 48);
    chart.descriptor_pool_count = fuzz_choose(&in, 32);

    sc_state *states = table(chart.state_count, sizeof *states, mode);
    sc_transition *transitions = table(chart.transition_count, sizeof *transitions, mode);
    sc_event_info *events = table(chart.event_count, sizeof *events, mode);
    sc_id *targets = table(chart.target_pool_count, sizeof *targets, mode);
    sc_id *descriptors = table(chart.descriptor_pool_count, sizeof *descriptors, mode);

    for (uint32_t s = 0; s < chart.state_count; s++) {
        sc_state *st = &states[s];
        memset(st, 0, sizeof *st);
        st->parent = byte_id(fuzz_byte(&in));
        st->last_descendant = fuzz_byte(&in);
        st->first_transition = fuzz_byte(&in);
        st->transition_count = fuzz_byte(&in);
        st->initial = byte_id(fuzz_byte(&in));
        st->on_entry = byte_id(fuzz_byte(&in));
        st->on_exit = byte_id(fuzz_byte(&in));
        st->done_event = byte_id(fuzz_byte(&in));
        st->kind = fuzz_byte(&in) % 8;
        st->flags = fuzz_byte(&in);
        st->depth = fuzz_byte(&in);
        st->own_mask = st->path_mask = ~UINT64_C(0);
    }
    for (uint32_t i = 0; i < chart.transition_count; i++) {
        sc_transition *t = &transitions[i];
        memset(t, 0, sizeof *t);
        t->source = fuzz_byte(&in);
        t->domain = byte_id(fuzz_byte(&in));
        t->targets_offset = fuzz_byte(&in);
        t->target_count = fuzz_byte(&in) % 12;
        t->events_offset = fuzz_byte(&in);
        t->event_count = fuzz_byte(&in) % 6;
        t->guard = byte_id(fuzz_byte(&in));
        t->action = byte_id(fuzz_byte(&in));
        t->flags = fuzz_byte(&in) & 3u;
    }
    for (uint32_t e = 0; e < chart.event_count; e++) {
        events[e].prefix = byte_id(fuzz_byte(&in));
        events[e].reserved = 0;
        events[e].mask = ~UINT64_C(0);
    }
    for (uint32_t i = 0; i < chart.target_pool_count; i++) targets[i] = fuzz_byte(&in);
    for (uint32_t i = 0; i < chart.descriptor_pool_count; i++) {
        uint8_t b = fuzz_byte(&in);
        descriptors[i] = b == 0xFE ? SC_EVENT_ANY : b;
    }
    chart.states = states;
    chart.transitions = transitions;
    chart.events = events;
    chart.targets = targets;
    chart.descriptors = descriptors;

    if (mode & MODE_FILL_MASKS) sc_chart_fill_masks(&chart, states, events);

    sc_chart_error error = { NULL, NULL, 0 };
    sc_status st = sc_chart_check(&chart, &error);
    if (st != SC_OK) {
        if (st != SC_ERR_BAD_CHART) fuzz_fail(HARNESS, "sc_chart_check returned %d", (int)st);
        if (!error.message || !error.table) fuzz_fail(HARNESS, "sc_chart_check failed without a message and table");
        if (sc_machine_size(&chart, NULL) != 0) fuzz_fail(HARNESS, "sc_machine_size accepted a chart sc_chart_check rejects");
        sc_host host = { 0 };
        sc_machine *m = sc_machine_create(&chart, &host, NULL);
        if (m) fuzz_fail(HARNESS, "sc_machine_create accepted a chart sc_chart_check rejects (%s)", error.message);
        uint64_t block[64];
        if (sc_machine_init(&m, block, sizeof block, &chart, &host, NULL) != SC_ERR_BAD_CHART)
            fuzz_fail(HARNESS, "sc_machine_init did not return SC_ERR_BAD_CHART for a chart sc_chart_check rejects");
    } else {
        run_machine(&chart, &in, mode);
    }
    free(states);
    free(transitions);
    free(events);
    free(targets);
    free(descriptors);
    return 0;
}

#ifdef FUZZ_WRITE_SEEDS
/*
 * Seed writer: `fuzz_tables_seeds DIR` writes charts built with chart_builder in the input
 * layout above, so the fuzzer starts from tables sc_chart_check accepts (random bytes almost
 * never form a tree in document order) and mutates them into near-misses. Built by
 * scripts/fuzz.sh with -DFUZZ_WRITE_SEEDS and tests/chart_builder.c.
 */
#include "chart_builder.h"

#include <stdio.h>

static uint8_t id_byte(sc_id id) { return id == SC_NONE ? 0xFF : id == SC_EVENT_ANY ? 0xFE : (uint8_t)id; }

/* Encodes b's tables and an operation sequence; false when a table is too large for the layout. */
static bool write_seed(const cb_builder *b, uint8_t mode, const char *dir, const char *name) {
    const sc_chart *c = &b->chart;
    if (c->state_count >= 40 || c->transition_count >= 48 || c->event_count >= 12 || c->target_pool_count >= 48 ||
        c->descriptor_pool_count >= 32)
        return false;
    uint8_t out[4096];
    size_t n = 0;
    out[n++] = mode;
    out[n++] = (uint8_t)c->state_count;
    out[n++] = (uint8_t)c->transition_count;
    out[n++] = (uint8_t)c->event_count;
    out[n++] = (uint8_t)c->target_pool_count;
    out[n++] = (uint8_t)c->descriptor_pool_count;
    for (uint32_t s = 0; s < c->state_count; s++) {
        const sc_state *st = &c->states[s];
        const uint8_t fields[] = { id_byte(st->parent), id_byte(st->last_descendant), id_byte(st->first_transition),
                                   (uint8_t)st->transition_count, id_byte(st->initial), id_byte(st->on_entry % 255),
                                   id_byte(st->on_exit % 255), id_byte(st->done_event), st->kind, st->flags,
                                   (uint8_t)st->depth };
        for (size_t i = 0; i < sizeof fields; i++) out[n++] = fields[i];
    }
    for (uint32_t i = 0; i < c->transition_count; i++) {
        const sc_transition *t = &c->transitions[i];
        const uint8_t fields[] = { id_byte(t->source), id_byte(t->domain), (uint8_t)t->targets_offset,
                                   (uint8_t)t->target_count, (uint8_t)t->events_offset, (uint8_t)t->event_count,
                                   id_byte(t->guard), id_byte(t->action == SC_NONE ? SC_NONE : t->action % 255),
                                   (uint8_t)t->flags };
        for (size_t k = 0; k < sizeof fields; k++) out[n++] = fields[k];
    }
    for (uint32_t e = 0; e < c->event_count; e++) out[n++] = id_byte(c->events[e].prefix);
    for (uint32_t i = 0; i < c->target_pool_count; i++) out[n++] = id_byte(c->targets[i]);
    for (uint32_t i = 0; i < c->descriptor_pool_count; i++) out[n++] = id_byte(c->descriptors[i]);
    out[n++] = 4;                                       /* internal queue capacity */
    out[n++] = 2;                                       /* external queue capacity */
    out[n++] = 20;                                      /* step bound 21 */
    for (int i = 0; i < 8; i++) out[n++] = 0x55;        /* every other guard holds */
    for (int i = 0; i < 16; i++) out[n++] = i % 5 == 0 ? (uint8_t)(i % (c->event_count ? c->event_count : 1)) : 0xFF;
    /* Operations: each event id in turn, a post, a restore of the root alone, a stop. */
    for (uint32_t e = 0; e < c->event_count && n + 8 < sizeof out; e++) out[n++] = 0, out[n++] = (uint8_t)e;
    out[n++] = 1, out[n++] = 0xFF;
    out[n++] = 5, out[n++] = 0;
    out[n++] = 6, out[n++] = 1, out[n++] = 0;
    out[n++] = 7;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(out, 1, n, f) != n) {
        fprintf(stderr, "fuzz_tables_seeds: cannot write %s\n", path);
        if (f) fclose(f);
        return false;
    }
    fclose(f);
    return true;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    int written = 0;
    for (int variant = 0; variant < 5; variant++) {
        cb_builder *b = cb_new();
        if (!b) return 1;
        switch (variant) {
        case 0: /* a toggle */
            cb_state(b, NULL, SC_ATOMIC, "off");
            cb_state(b, NULL, SC_ATOMIC, "on");
            cb_trans(b, "off", "flip", "on", 0, NULL, "t1");
            cb_trans(b, "on", "flip", "off", 0, "g", "t2");
            break;
        case 1: /* compound with deep and shallow history, a final state and an eventless transition */
            cb_state(b, NULL, SC_COMPOUND, "p");
            cb_state(b, "p", SC_HISTORY_DEEP, "ph");
            cb_state(b, "p", SC_COMPOUND, "q");
            cb_state(b, "q", SC_ATOMIC, "q1");
            cb_state(b, "q", SC_ATOMIC, "q2");
            cb_state(b, "p", SC_FINAL, "pf");
            cb_state(b, NULL, SC_ATOMIC, "out");
            cb_initial(b, "ph", "q2", true);
            cb_trans(b, "q1", "a", "q2", 0, NULL, "t1");
            cb_trans(b, "q2", "b", "pf", 0, NULL, "t2");
            cb_trans(b, "p", "x", "out", 0, NULL, "t3");
            cb_trans(b, "out", "x", "ph", 0, NULL, "t4");
            cb_trans(b, "out", NULL, NULL, 0, "g", "t5");
            break;
        case 2: /* a parallel state with three regions, a two-target transition, done events */
            cb_state(b, NULL, SC_PARALLEL, "par");
            cb_state(b, "par", SC_COMPOUND, "r1");
            cb_state(b, "r1", SC_ATOMIC, "a1");
            cb_state(b, "r1", SC_FINAL, "f1");
            cb_state(b, "par", SC_COMPOUND, "r2");
            cb_state(b, "r2", SC_ATOMIC, "a2");
            cb_state(b, "r2", SC_FINAL, "f2");
            cb_state(b, "par", SC_ATOMIC, "r3");
            cb_state(b, NULL, SC_FINAL, "end");
            cb_trans(b, "a1", "go", "f1 f2", 0, NULL, "t1");
            cb_trans(b, "a2", "go.x *", "f2", SC_TRANSITION_INTERNAL, NULL, "t2");
            cb_trans(b, "par", "done.state.par", "end", 0, NULL, "t3");
            cb_flags(b, "r3", SC_STATE_HAS_INVOKE);
            break;
        case 3: /* the shape of issue 12's heap corruption: a deep history of a parallel state whose
                 * default enters b1 b2 while the transition also targets a1 a2 */
            cb_state(b, NULL, SC_ATOMIC, "start");
            cb_state(b, NULL, SC_PARALLEL, "p");
            cb_state(b, "p", SC_HISTORY_DEEP, "h");
            cb_state(b, "p", SC_COMPOUND, "r1");
            cb_state(b, "r1", SC_ATOMIC, "a1");
            cb_state(b, "r1", SC_ATOMIC, "b1");
            cb_state(b, "p", SC_COMPOUND, "r2");
            cb_state(b, "r2", SC_ATOMIC, "a2");
            cb_state(b, "r2", SC_ATOMIC, "b2");
            cb_initial(b, "h", "b1 b2", false);
            cb_trans(b, "start", "go", "h a1 a2", 0, NULL, "t1");
            break;
        default: /* nested compounds with internal transitions and raised events */
            cb_state(b, NULL, SC_COMPOUND, "s");
            cb_state(b, "s", SC_COMPOUND, "s1");
            cb_state(b, "s1", SC_ATOMIC, "s11");
            cb_state(b, "s1", SC_HISTORY_SHALLOW, "s1h");
            cb_state(b, "s", SC_ATOMIC, "s2");
            cb_initial(b, "s1h", "s11", false);
            cb_initial(b, "s", "s2", true);
            cb_trans(b, "s2", "a", "s11", SC_TRANSITION_INTERNAL, NULL, "t1");
            cb_trans(b, "s", "a.b", "s1h", 0, "g", "t2");
            cb_trans(b, "s11", "*", "s2", 0, NULL, "t3");
            cb_event(b, "a.b.c");
            break;
        }
        char name[32];
        snprintf(name, sizeof name, "chart-%d", variant);
        bool built = cb_finish(b);
        /* Charts 3 is the defect's shape, which a fixed sc_chart_check may reject: still a seed. */
        if (!built || (variant != 3 && sc_chart_check(&b->chart, NULL) != SC_OK)) {
            fprintf(stderr, "fuzz_tables_seeds: chart %d is not valid: %s\n", variant, b->error);
            cb_free(b);
            return 1;
        }
        for (uint8_t mode = 0; mode < 2; mode++) {
            char file[48];
            snprintf(file, sizeof file, "%s-mode%u", name, (unsigned)(mode ? MODE_CALLER_BLOCK | MODE_POST_FROM_ACTIONS : 0));
            if (write_seed(b, mode ? MODE_CALLER_BLOCK | MODE_POST_FROM_ACTIONS : 0, argv[1], file)) written++;
        }
        cb_free(b);
    }
    printf("fuzz_tables_seeds: %d seeds in %s\n", written, argv[1]);
    return written == 10 ? 0 : 1;
}
#endif
