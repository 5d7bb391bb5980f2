/*
 * test_machine_size.c - C-level tests of CStateCore: SC_MACHINE_SIZE (sc_core.h), the machine's
 * bytes as a constant expression, equals sc_machine_size() for every chart and queue capacity,
 * in the build being tested (plan cache or not, this compiler's pointer size). The charts cover
 * what the size depends on: 1 to 5 configuration words (plan keys of one word, several words,
 * and the leaf), parallel regions, shallow and deep history, invocations, guards, silent and
 * talkative charts. The conventions are in test_harness.h.
 */
#include "test_harness.h"

/* What SC_MACHINE_SIZE takes, read from checked tables as `statechart generate c` reads them. */
typedef struct size_facts {
    uint32_t states, atomic, max_active_atomic, events, history, history_words;
    bool invoke, parallel, guards, silent;
} size_facts;

static size_facts facts_of(const sc_chart *c) {
    size_facts f = { .states = c->state_count, .events = c->event_count, .max_active_atomic = 1 };
    f.silent = true;
    bool quiet = (c->flags & SC_CHART_QUIET_CONTENT) != 0;
    for (sc_id s = 0; s < c->state_count; s++) {
        const sc_state *st = &c->states[s];
        if (st->kind == SC_ATOMIC || st->kind == SC_FINAL) f.atomic++;
        if (st->kind == SC_PARALLEL) {
            f.parallel = true;
            for (sc_id k = s + 1; k <= st->last_descendant; k = c->states[k].last_descendant + 1)
                f.max_active_atomic++;
            f.max_active_atomic--;
        }
        if (st->kind == SC_HISTORY_SHALLOW || st->kind == SC_HISTORY_DEEP) {
            sc_id p = st->parent;
            f.history++;
            f.history_words += (uint32_t)SC_BIT_WORDS(c->states[p].last_descendant - p);
        }
        if (st->flags & SC_STATE_HAS_INVOKE) f.invoke = true;
        if ((!quiet && (st->on_entry != SC_NONE || st->on_exit != SC_NONE)) || st->done_event != SC_NONE ||
            (st->flags & (SC_STATE_HAS_INVOKE | SC_STATE_HAS_HISTORY | SC_STATE_HAS_DONEDATA)))
            f.silent = false;
    }
    for (sc_id t = 0; t < c->transition_count; t++) {
        if (c->transitions[t].guard != SC_NONE) f.guards = true;
        if (!quiet && c->transitions[t].action != SC_NONE) f.silent = false;
    }
    if (f.max_active_atomic > f.atomic) f.max_active_atomic = f.atomic;
    return f;
}

/* SC_MACHINE_SIZE for chart c with options o, the defaults resolved as sc_options documents. */
static size_t macro_size(const sc_chart *c, const sc_options *o) {
    size_facts f = facts_of(c);
    uint32_t internal = o && o->internal_queue_capacity ? o->internal_queue_capacity : f.silent ? 0u : 8u;
    uint32_t external = o && o->external_queue_capacity ? o->external_queue_capacity : f.silent ? 1u : 8u;
    if (external == SC_QUEUE_NONE) external = 0;
    return SC_MACHINE_SIZE(f.states, f.atomic, f.max_active_atomic, f.events, f.history, f.history_words,
                           f.invoke, f.parallel, f.guards, internal, external);
}

/* A chart of about `target` states: nested compound states `fanout` wide, every `parallel_every`-th
 * one parallel (0: none), a history state in every `history_every`-th compound one (0: none;
 * deep and shallow alternate), invocations and guarded, labelled transitions as asked. */
typedef struct shape {
    uint32_t target, fanout, parallel_every, history_every;
    bool invoke, guards, actions;
} shape;

static void grow(cb_builder *b, const shape *sh, const char *parent, int depth, uint32_t *made) {
    for (uint32_t i = 0; i < sh->fanout && b->state_count + 2 < sh->target; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%u", (unsigned)b->state_count);
        uint32_t n = ++*made;
        bool inner = depth < 4 && b->state_count + sh->fanout + 2 < sh->target;
        sc_state_kind kind = !inner ? SC_ATOMIC
                           : sh->parallel_every && n % sh->parallel_every == 0 ? SC_PARALLEL : SC_COMPOUND;
        cb_state(b, parent, kind, name);
        if (sh->invoke && n % 5 == 0) cb_flags(b, name, SC_STATE_HAS_INVOKE);
        if (kind == SC_ATOMIC) continue;
        grow(b, sh, name, depth + 1, made);
        if (kind == SC_COMPOUND && sh->history_every && n % sh->history_every == 0) {
            char history[20];
            snprintf(history, sizeof history, "h%u", (unsigned)b->state_count);
            sc_id h = cb_state(b, name, n % 2 ? SC_HISTORY_DEEP : SC_HISTORY_SHALLOW, history);
            (void)h;
            char first[16];
            snprintf(first, sizeof first, "%s", b->state_name[cb_find_state(b, name) + 1]);
            cb_initial(b, history, first, false);
        }
    }
}

/* cb_new'ed (the caller frees it with cb_free); NULL when it does not build. */
static cb_builder *shaped_chart(const shape *sh) {
    cb_builder *b = cb_new();
    if (!b) return NULL;
    static const char *const events[] = { "a", "b", "c.d" };
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) cb_event(b, events[i]);
    uint32_t made = 0;
    grow(b, sh, NULL, 0, &made);
    if (b->state_count == 1) cb_state(b, NULL, SC_ATOMIC, "only");
    for (sc_id s = 1; s < b->state_count && s < 40; s++) {
        if (b->states[s].kind == SC_HISTORY_SHALLOW || b->states[s].kind == SC_HISTORY_DEEP) continue;
        char label[16];
        snprintf(label, sizeof label, "t%u", (unsigned)s);
        cb_trans(b, b->state_name[s], events[s % 3], b->state_name[1], 0,
                 sh->guards && s % 3 == 0 ? "g0" : NULL, sh->actions ? label : NULL);
    }
    if (!cb_finish(b)) {
        fprintf(stderr, "shaped chart: %s\n", b->error);
        cb_free(b);
        return NULL;
    }
    if (!sh->actions) b->chart.flags |= SC_CHART_QUIET_CONTENT;
    return b;
}

static const sc_options size_options[] = {
    { 0 }, { .internal_queue_capacity = 4, .external_queue_capacity = 4 },
    { .internal_queue_capacity = 1, .external_queue_capacity = SC_QUEUE_NONE },
    { .internal_queue_capacity = 33, .external_queue_capacity = 3, .flags = SC_MACHINE_NO_PLANS },
};

/* Every shape, every size from 2 to about 300 states, every option set: the macro is exact. */
static void test_machine_size_macro_equals_sc_machine_size(void) {
    static const shape shapes[] = {
        { .fanout = 2 },
        { .fanout = 3, .guards = true },
        { .fanout = 2, .parallel_every = 3 },
        { .fanout = 3, .parallel_every = 2, .history_every = 2, .guards = true, .actions = true },
        { .fanout = 4, .history_every = 3, .invoke = true },
        { .fanout = 2, .parallel_every = 4, .history_every = 1, .invoke = true, .actions = true },
    };
    uint32_t compared = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        for (uint32_t target = 2; target <= 300; target += target < 80 ? 3 : 37) {
            shape sh = shapes[k];
            sh.target = target;
            cb_builder *b = shaped_chart(&sh);
            REQUIRE(b, "shape %zu, %u states: the chart does not build", k, (unsigned)target);
            sc_chart_error error = { NULL, NULL, 0 };
            bool checked = sc_chart_check(&b->chart, &error) == SC_OK;
            uint32_t states = b->chart.state_count;
            size_t want = 0, got = 0, o = 0;
            for (; checked && o < sizeof size_options / sizeof size_options[0]; o++) {
                want = sc_machine_size(&b->chart, &size_options[o]);
                got = macro_size(&b->chart, &size_options[o]);
                if (want == 0 || got != want) break;
                compared++;
            }
            cb_free(b);
            REQUIRE(checked, "shape %zu, %u states: %s (%s %u)", k, (unsigned)target, error.message, error.table,
                    (unsigned)error.index);
            REQUIRE(want > 0 && got == want, "shape %zu, %u states, options %zu: SC_MACHINE_SIZE is %zu, sc_machine_size %zu",
                    k, (unsigned)states, o, got, want);
        }
    }
    REQUIRE(compared > 300, "only %u comparisons", (unsigned)compared);
}

/* The constant is usable where C needs one: a static block's length, sized for a turnstile
 * (3 states, 2 atomic, 2 events, silent: no internal slot, one external), and a machine fits in it exactly. */
static void test_machine_size_macro_sizes_a_static_block(void) {
    static uint64_t block[(SC_MACHINE_SIZE(3, 2, 1, 2, 0, 0, 0, 0, 0, 0, 1) + 7u) / 8u];
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "locked");
    cb_state(b, NULL, SC_ATOMIC, "unlocked");
    cb_trans(b, "locked", "coin", "unlocked", 0, NULL, NULL);
    cb_trans(b, "unlocked", "push", "locked", 0, NULL, NULL);
    REQUIRE(cb_finish(b), "builder: %s", b->error);
    b->chart.flags |= SC_CHART_QUIET_CONTENT;   /* the builder's entry and exit actions queue nothing */
    EXPECT_EQ_U(b->chart.event_count, 2);
    EXPECT_EQ_U(sizeof block, sc_machine_size(&b->chart, NULL));
    harness *h = new_harness(b);
    REQUIRE(h, "harness");
    sc_machine *m = NULL;
    EXPECT_STATUS(sc_machine_init(&m, block, sizeof block, &b->chart, &h->host, NULL), SC_OK);
    EXPECT_STATUS(sc_machine_init(&m, block, sizeof block - 8, &b->chart, &h->host, NULL), SC_ERR_NO_MEMORY);
}

const test_case machine_size_tests[] = {
    TEST(test_machine_size_macro_equals_sc_machine_size),
    TEST(test_machine_size_macro_sizes_a_static_block),
};
const size_t machine_size_test_count = sizeof machine_size_tests / sizeof machine_size_tests[0];
