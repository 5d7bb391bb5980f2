/*
 * test_core.c - C-level tests of CStateCore, independent of Swift.
 *
 * Every test builds a small chart with chart_builder, runs a machine whose host callbacks
 * append tokens to a trace ("enter:s1", "exit:s1", "take:t3", "init:s", "hist:h", "invoke:s",
 * "cancel:s", and with the optional switches "guard:g", "entered:s", "exited:s", "taken:t"),
 * and compares the trace and the configuration with values derived BY HAND from the W3C
 * algorithm (Appendix D of SCXML 1.0; text in /work/shared/w3c-scxml/algorithm.txt). The
 * comment above each expectation names the steps of the algorithm that produce it.
 *
 * Output: one line per test, "ok - name" or "FAIL - name: details", then "N passed, M failed";
 * the exit status is non-zero when a test failed.
 */
#include "chart_builder.h"
#include "reference_model.h"
#include "sc_core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* =========================================================================================
 * A tiny test framework
 * ======================================================================================= */

static bool test_failed;
static char test_message[2048];

static void test_fail(int line, const char *format, ...) {
    if (test_failed) return;
    test_failed = true;
    int n = snprintf(test_message, sizeof test_message, "line %d: ", line);
    va_list args;
    va_start(args, format);
    vsnprintf(test_message + n, sizeof test_message - (size_t)n, format, args);
    va_end(args);
}

#define REQUIRE(cond, ...) \
    do { if (!(cond)) { test_fail(__LINE__, __VA_ARGS__); return; } } while (0)

#define EXPECT_STATUS(expr, want)                                                              \
    do {                                                                                       \
        sc_status got_ = (expr);                                                               \
        if (got_ != (want)) {                                                                  \
            test_fail(__LINE__, "%s returned %d (%s), expected %d (%s)", #expr, (int)got_,     \
                      sc_status_text(got_), (int)(want), sc_status_text(want));                \
            return;                                                                            \
        }                                                                                      \
    } while (0)

#define EXPECT_EQ_U(got, want)                                                                 \
    do {                                                                                       \
        unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want);    \
        if (g_ != w_) { test_fail(__LINE__, "%s is %llu, expected %llu", #got, g_, w_); return; } \
    } while (0)

#define EXPECT_STR(what, got, want)                                                            \
    do {                                                                                       \
        const char *g_ = (got), *w_ = (want);                                                  \
        if (strcmp(g_, w_) != 0) {                                                             \
            test_fail(__LINE__, "%s\n      got:      \"%s\"\n      expected: \"%s\"", what, g_, w_); \
            return;                                                                            \
        }                                                                                      \
    } while (0)

#define EXPECT_CONTAINS(what, got, part)                                                       \
    do {                                                                                       \
        const char *g_ = (got), *p_ = (part);                                                  \
        if (!g_ || !strstr(g_, p_)) {                                                          \
            test_fail(__LINE__, "%s \"%s\" does not contain \"%s\"", what, g_ ? g_ : "(null)", p_); \
            return;                                                                            \
        }                                                                                      \
    } while (0)

/* =========================================================================================
 * The harness: a machine over a built chart, with tracing host callbacks
 * ======================================================================================= */

typedef struct harness harness;
typedef void (*hook_fn)(harness *h, const char *token, const sc_event *event);

struct harness {
    cb_builder *b;
    sc_machine *m;
    sc_host host;
    char trace[65536];
    bool guard[CB_MAX_GUARDS];      /* guard values, all false until a test sets them */
    bool trace_guards;              /* "guard:<name>" for every guard evaluation */
    bool trace_observers;           /* "entered:", "exited:", "taken:" */
    bool trace_events;              /* "@<event>" ("@-" for none) after action tokens */
    hook_fn hook;                   /* called after each action/invoke token is traced */
    uint32_t releases;
    uintptr_t done_data;            /* what the done_data callback stores in done->data */
    uint32_t done_data_calls;
    const sc_id *raise_on_action;   /* action id -> event raised by that content, or SC_NONE */
};

/* Everything a test allocates is released after it, even when it returns early. */
#define MAX_OWNED 64
static sc_machine *owned_machines[MAX_OWNED];
static void *owned_blocks[MAX_OWNED];
static int owned_machine_count, owned_block_count;

static void *owned_alloc(size_t size) {
    void *p = calloc(1, size);
    if (!p || owned_block_count == MAX_OWNED) {
        fprintf(stderr, "test harness: out of memory\n");
        exit(2);
    }
    owned_blocks[owned_block_count++] = p;
    return p;
}

static void own_machine(sc_machine *m) {
    if (m && owned_machine_count < MAX_OWNED) owned_machines[owned_machine_count++] = m;
}

static void release_all(void) {
    for (int i = 0; i < owned_machine_count; i++) sc_machine_destroy(owned_machines[i]);
    for (int i = 0; i < owned_block_count; i++) free(owned_blocks[i]);
    owned_machine_count = owned_block_count = 0;
}

static cb_builder *new_chart(void) {
    cb_builder *b = cb_new();
    if (!b || owned_block_count == MAX_OWNED) {
        fprintf(stderr, "test harness: out of memory\n");
        exit(2);
    }
    owned_blocks[owned_block_count++] = b;
    return b;
}

static void trace_add(harness *h, const char *format, ...) {
    size_t len = strlen(h->trace);
    if (len && len + 1 < sizeof h->trace) h->trace[len++] = ' ';
    va_list args;
    va_start(args, format);
    vsnprintf(h->trace + len, sizeof h->trace - len, format, args);
    va_end(args);
}

static const char *event_name(const harness *h, const sc_event *e) {
    if (!e) return "-";
    if (e->id == SC_EVENT_UNKNOWN) return "?";
    if (e->id < h->b->event_count) return h->b->event_name[e->id];
    return "(bad event id)";
}

/* Appends the names of the active states (document order) to buf. */
static void config_text(const harness *h, char *buf, size_t size) {
    sc_id ids[CB_MAX_STATES];
    uint32_t n = sc_machine_active_states(h->m, false, ids, CB_MAX_STATES);
    buf[0] = '\0';
    size_t len = 0;
    for (uint32_t i = 0; i < n && i < CB_MAX_STATES; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", h->b->state_name[ids[i]]);
}

/* ---- host callbacks ------------------------------------------------------------------------ */

static void token_done(harness *h, const char *token, const sc_event *event) {
    if (h->trace_events) {
        size_t len = strlen(h->trace);
        snprintf(h->trace + len, sizeof h->trace - len, "@%s", event_name(h, event));
    }
    if (h->hook) h->hook(h, token, event);
}

static void host_action(void *context, sc_machine *m, sc_id action, const sc_event *event) {
    harness *h = context;
    if (action >= h->b->action_count) {
        trace_add(h, "!bad-action:%u", (unsigned)action);
        return;
    }
    const char *token = h->b->action_name[action];
    trace_add(h, "%s", token);
    /* W3C enterStates adds s to the configuration before its onentry; exitStates runs onexit
     * before removing s. Checked on every test. */
    if (strncmp(token, "enter:", 6) == 0 || strncmp(token, "exit:", 5) == 0) {
        sc_id s = cb_find_state(h->b, strchr(token, ':') + 1);
        if (!sc_machine_is_active(m, s)) trace_add(h, "!inactive-during-%s", token);
    }
    if (h->raise_on_action && h->raise_on_action[action] != SC_NONE) {
        sc_event raised = { h->raise_on_action[action], 0, 0 };
        sc_machine_raise(m, raised);
    }
    token_done(h, token, event);
}

static bool host_guard(void *context, sc_machine *m, sc_id guard, const sc_event *event) {
    harness *h = context;
    (void)m;
    (void)event;
    if (guard >= h->b->guard_count) return false;
    if (h->trace_guards) trace_add(h, "guard:%s", h->b->guard_name[guard]);
    return h->guard[guard];
}

static void host_entered(void *context, sc_machine *m, sc_id state) {
    harness *h = context;
    (void)m;
    if (h->trace_observers) trace_add(h, "entered:%s", h->b->state_name[state]);
}

static void host_exited(void *context, sc_machine *m, sc_id state) {
    harness *h = context;
    if (sc_machine_is_active(m, state)) trace_add(h, "!still-active-in-exited");
    if (h->trace_observers) trace_add(h, "exited:%s", h->b->state_name[state]);
}

static void host_taken(void *context, sc_machine *m, sc_id transition, const sc_event *event) {
    harness *h = context;
    (void)m;
    (void)event;
    if (h->trace_observers) trace_add(h, "taken:%s", h->b->transition_name[transition]);
}

static void host_invoke(void *context, sc_machine *m, sc_id state, bool start) {
    harness *h = context;
    (void)m;
    char token[CB_NAME + 8];
    snprintf(token, sizeof token, "%s:%s", start ? "invoke" : "cancel", h->b->state_name[state]);
    trace_add(h, "%s", token);
    if (h->hook) h->hook(h, token, NULL);
}

static void host_done_data(void *context, sc_machine *m, sc_id final_state, sc_event *done) {
    harness *h = context;
    (void)m;
    (void)final_state;
    done->data = h->done_data;
    h->done_data_calls++;
}

static void host_release(void *context, sc_machine *m, const sc_event *event) {
    harness *h = context;
    (void)m;
    (void)event;
    h->releases++;
}

static void harness_bind(harness *h, cb_builder *b) {
    memset(h, 0, sizeof *h);
    h->b = b;
    h->host.context = h;
    h->host.guard = host_guard;
    h->host.action = host_action;
    h->host.entered = host_entered;
    h->host.exited = host_exited;
    h->host.taken = host_taken;
    h->host.invoke = host_invoke;
    h->host.done_data = host_done_data;
    h->host.release = host_release;
}

/* A harness whose host has every callback, without a machine. NULL if the chart is bad. */
static harness *new_harness(cb_builder *b) {
    if (!cb_finish(b)) return NULL;
    harness *h = owned_alloc(sizeof *h);
    harness_bind(h, b);
    return h;
}

/* A harness with a machine made by sc_machine_create, not started. NULL on failure. */
static harness *machine_with(cb_builder *b, const sc_options *options) {
    harness *h = new_harness(b);
    if (!h) return NULL;
    h->m = sc_machine_create(&b->chart, &h->host, options);
    if (!h->m) return NULL;
    own_machine(h->m);
    return h;
}

static sc_event ev(const harness *h, const char *name) {
    sc_event e = { SC_EVENT_UNKNOWN, 0, 0 };
    if (strcmp(name, "?") == 0) return e;
    e.id = cb_find_event(h->b, name);
    if (e.id == SC_NONE) {
        fprintf(stderr, "test bug: event '%s' is not interned in the chart\n", name);
        exit(2);
    }
    return e;
}

static sc_id st(const harness *h, const char *name) {
    sc_id s = cb_find_state(h->b, name);
    if (s == SC_NONE) {
        fprintf(stderr, "test bug: no state '%s'\n", name);
        exit(2);
    }
    return s;
}

static void set_guard(harness *h, const char *name, bool value) {
    sc_id g = cb_find_guard(h->b, name);
    if (g == SC_NONE) {
        fprintf(stderr, "test bug: no guard '%s'\n", name);
        exit(2);
    }
    h->guard[g] = value;
}

static sc_status send(harness *h, const char *name) { return sc_machine_dispatch(h->m, ev(h, name)); }

/* The trace since the last check must be exactly `want`; the trace is then cleared. */
#define EXPECT_TRACE(h, want)                                                                  \
    do { EXPECT_STR("trace", (h)->trace, want); (h)->trace[0] = '\0'; } while (0)

#define EXPECT_CONFIG(h, want)                                                                 \
    do { char cfg_[1024]; config_text(h, cfg_, sizeof cfg_); EXPECT_STR("configuration", cfg_, want); } while (0)

/* Start the machine: status, trace, configuration. */
#define START(h, status, trace, config)                                                        \
    do {                                                                                       \
        EXPECT_STATUS(sc_machine_start((h)->m), status);                                       \
        EXPECT_TRACE(h, trace);                                                                \
        EXPECT_CONFIG(h, config);                                                              \
    } while (0)

/* Dispatch one external event: status, trace, configuration. */
#define STEP(h, event, status, trace, config)                                                  \
    do {                                                                                       \
        EXPECT_STATUS(send(h, event), status);                                                 \
        EXPECT_TRACE(h, trace);                                                                \
        EXPECT_CONFIG(h, config);                                                              \
    } while (0)

#define MACHINE(h, b, options)                                                                 \
    harness *h = machine_with(b, options);                                                     \
    REQUIRE(h != NULL, "could not build the machine: %s", (b)->error[0] ? (b)->error : "sc_machine_create failed")

/* =========================================================================================
 * Hierarchy: exit innermost first, entry outermost first, the LCCA bounds both
 * ======================================================================================= */

/*  scxml
 *    a            a11 --go--> b12 (t1)        a1 --sib--> a2 (t4)
 *      a1         b12 --side--> b2 (t2)
 *        a11      b --back--> a12 (t3)
 *        a12
 *      a2
 *    b
 *      b1
 *        b11
 *        b12
 *      b2
 */
static cb_builder *chart_hierarchy(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "a");
    cb_state(b, "a", SC_COMPOUND, "a1");
    cb_state(b, "a1", SC_ATOMIC, "a11");
    cb_state(b, "a1", SC_ATOMIC, "a12");
    cb_state(b, "a", SC_ATOMIC, "a2");
    cb_state(b, NULL, SC_COMPOUND, "b");
    cb_state(b, "b", SC_COMPOUND, "b1");
    cb_state(b, "b1", SC_ATOMIC, "b11");
    cb_state(b, "b1", SC_ATOMIC, "b12");
    cb_state(b, "b", SC_ATOMIC, "b2");
    cb_trans(b, "a11", "go", "b12", 0, NULL, "t1");
    cb_trans(b, "b12", "side", "b2", 0, NULL, "t2");
    cb_trans(b, "b", "back", "a12", 0, NULL, "t3");
    cb_trans(b, "a1", "sib", "a2", 0, NULL, "t4");
    return b;
}

static void test_hierarchy_exit_entry_order_and_lcca(void) {
    MACHINE(h, chart_hierarchy(), NULL);
    /* interpret: enterStates([root initial -> a]); a, a1 compound: default entry of first child. */
    START(h, SC_OK, "enter:a enter:a1 enter:a11", "a a1 a11");
    /* LCCA(a11, b12) = scxml: exit set {a, a1, a11} in exitOrder; entry set {b, b1, b12}. */
    STEP(h, "go", SC_OK, "exit:a11 exit:a1 exit:a take:t1 enter:b enter:b1 enter:b12", "b b1 b12");
    /* LCCA(b12, b2) = b: b is neither exited nor re-entered. */
    STEP(h, "side", SC_OK, "exit:b12 exit:b1 take:t2 enter:b2", "b b2");
    /* b2 has no transition for back: selection walks to the ancestor b; LCCA(b, a12) = scxml. */
    STEP(h, "back", SC_OK, "exit:b2 exit:b take:t3 enter:a enter:a1 enter:a12", "a a1 a12");
    /* Transition of a1 selected from a12; LCCA(a1, a2) = a. */
    STEP(h, "sib", SC_OK, "exit:a12 exit:a1 take:t4 enter:a2", "a a2");
    /* Nothing in a2's ancestry handles go. */
    STEP(h, "go", SC_UNHANDLED, "", "a a2");
}

static void test_hierarchy_observers_wrap_actions(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "s");
    cb_state(b, "s", SC_ATOMIC, "s1");
    cb_state(b, NULL, SC_ATOMIC, "t");
    cb_trans(b, "s1", "go", "t", 0, NULL, "t1");
    cb_flags(b, "s1", SC_STATE_HAS_INVOKE);
    MACHINE(h, b, NULL);
    h->trace_observers = true;
    /* entered(s) when s joins the configuration, before its onentry. */
    START(h, SC_OK, "entered:s enter:s entered:s1 enter:s1 invoke:s1", "s s1");
    /* exitStates per state: onexit, cancelInvoke, configuration.delete (then the observer);
     * taken just before the transition content. */
    STEP(h, "go", SC_OK, "exit:s1 cancel:s1 exited:s1 exit:s exited:s taken:t1 take:t1 entered:t enter:t", "t");
}

static void test_hierarchy_active_states_accessors(void) {
    MACHINE(h, chart_hierarchy(), NULL);
    START(h, SC_OK, "enter:a enter:a1 enter:a11", "a a1 a11");
    sc_id out[4] = { 0, 0, 0, 0 };
    EXPECT_EQ_U(sc_machine_active_states(h->m, true, out, 4), 1);
    EXPECT_EQ_U(out[0], st(h, "a11"));
    /* The total is returned even when it does not fit. */
    EXPECT_EQ_U(sc_machine_active_states(h->m, false, out, 2), 3);
    EXPECT_EQ_U(out[0], st(h, "a"));
    EXPECT_EQ_U(out[1], st(h, "a1"));
    EXPECT_EQ_U(sc_machine_configuration_words(h->m), 1);
    const uint64_t *words = sc_machine_configuration(h->m);
    uint64_t want = (UINT64_C(1) << st(h, "a")) | (UINT64_C(1) << st(h, "a1")) | (UINT64_C(1) << st(h, "a11"));
    EXPECT_EQ_U(words[0], want);
    REQUIRE(sc_machine_is_active(h->m, st(h, "a1")) && !sc_machine_is_active(h->m, st(h, "b")), "is_active");
    REQUIRE(!sc_machine_is_active(h->m, 0) && !sc_machine_is_active(h->m, 999), "root / out of range");
    REQUIRE(sc_machine_chart(h->m) == &h->b->chart && sc_machine_context(h->m) == h, "chart/context");
}

/* =========================================================================================
 * Parallel states
 * ======================================================================================= */

/*  scxml
 *    p (parallel)    x1 --go--> x2 (tx)      y1 --go--> y2 (ty)     x1 --onlyx--> x2 (tox)
 *      r1            p --leave--> out (tl)   y2 --jump--> out (tj)
 *        x1          out --back--> p (tb)    out --deep--> y2 (td)
 *        x2
 *      r2
 *        y1
 *        y2
 *    out
 */
static cb_builder *chart_parallel(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_PARALLEL, "p");
    cb_state(b, "p", SC_COMPOUND, "r1");
    cb_state(b, "r1", SC_ATOMIC, "x1");
    cb_state(b, "r1", SC_ATOMIC, "x2");
    cb_state(b, "p", SC_COMPOUND, "r2");
    cb_state(b, "r2", SC_ATOMIC, "y1");
    cb_state(b, "r2", SC_ATOMIC, "y2");
    cb_state(b, NULL, SC_ATOMIC, "out");
    cb_trans(b, "x1", "go", "x2", 0, NULL, "tx");
    cb_trans(b, "x1", "onlyx", "x2", 0, NULL, "tox");
    cb_trans(b, "y1", "go", "y2", 0, NULL, "ty");
    cb_trans(b, "p", "leave", "out", 0, NULL, "tl");
    cb_trans(b, "y2", "jump", "out", 0, NULL, "tj");
    cb_trans(b, "out", "back", "p", 0, NULL, "tb");
    cb_trans(b, "out", "deep", "y2", 0, NULL, "td");
    return b;
}

static void test_parallel_regions_in_document_order(void) {
    MACHINE(h, chart_parallel(), NULL);
    /* addDescendantStatesToEnter(p): every child region, each by default entry; entryOrder. */
    START(h, SC_OK, "enter:p enter:r1 enter:x1 enter:r2 enter:y1", "p r1 x1 r2 y1");
    /* Transition selected from an ancestor once for both atomic states (OrderedSet); the exit set
     * is everything below scxml, in reverse document order. */
    STEP(h, "leave", SC_OK, "exit:y1 exit:r2 exit:x1 exit:r1 exit:p take:tl enter:out", "out");
    STEP(h, "back", SC_OK, "exit:out take:tb enter:p enter:r1 enter:x1 enter:r2 enter:y1", "p r1 x1 r2 y1");
}

static void test_parallel_two_regions_one_microstep(void) {
    MACHINE(h, chart_parallel(), NULL);
    START(h, SC_OK, "enter:p enter:r1 enter:x1 enter:r2 enter:y1", "p r1 x1 r2 y1");
    /* tx (domain r1) and ty (domain r2) do not conflict: one microstep exits {x1, y1} in
     * exitOrder, runs both contents in selection order, enters {x2, y2} in entryOrder. */
    STEP(h, "go", SC_OK, "exit:y1 exit:x1 take:tx take:ty enter:x2 enter:y2", "p r1 x2 r2 y2");
    /* The other region is untouched by a transition inside one region. */
    STEP(h, "leave", SC_OK, "exit:y2 exit:r2 exit:x2 exit:r1 exit:p take:tl enter:out", "out");
    STEP(h, "back", SC_OK, "exit:out take:tb enter:p enter:r1 enter:x1 enter:r2 enter:y1", "p r1 x1 r2 y1");
    STEP(h, "onlyx", SC_OK, "exit:x1 take:tox enter:x2", "p r1 x2 r2 y1");
}

static void test_parallel_deep_target_fills_other_regions(void) {
    MACHINE(h, chart_parallel(), NULL);
    START(h, SC_OK, "enter:p enter:r1 enter:x1 enter:r2 enter:y1", "p r1 x1 r2 y1");
    STEP(h, "leave", SC_OK, "exit:y1 exit:r2 exit:x1 exit:r1 exit:p take:tl enter:out", "out");
    /* addAncestorStatesToEnter(y2, scxml): r2, p; p is parallel, so r1 (no descendant in the set)
     * gets addDescendantStatesToEnter -> default x1. Sorted in entryOrder. */
    STEP(h, "deep", SC_OK, "exit:out take:td enter:p enter:r1 enter:x1 enter:r2 enter:y2", "p r1 x1 r2 y2");
    /* A transition of one region leaving the parallel state exits every region. */
    STEP(h, "jump", SC_OK, "exit:y2 exit:r2 exit:x1 exit:r1 exit:p take:tj enter:out", "out");
}

/* =========================================================================================
 * History: record on exit, restore on entry, default content when nothing is recorded
 * ======================================================================================= */

/*  scxml (initial O)
 *    S                       S1a --n--> S1b (tn)     S1 --two--> S2 (t2)
 *      Sh shallow -> S2      S --out--> O (tout)     O --s--> S (ts)
 *      Sd deep    -> S1b     O --sh--> Sh (tsh)      O --sd--> Sd (tsd)
 *      S1
 *        S1a
 *        S1b
 *      S2
 *    O
 */
static cb_builder *chart_history(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "S");
    cb_state(b, "S", SC_HISTORY_SHALLOW, "Sh");
    cb_state(b, "S", SC_HISTORY_DEEP, "Sd");
    cb_state(b, "S", SC_COMPOUND, "S1");
    cb_state(b, "S1", SC_ATOMIC, "S1a");
    cb_state(b, "S1", SC_ATOMIC, "S1b");
    cb_state(b, "S", SC_ATOMIC, "S2");
    cb_state(b, NULL, SC_ATOMIC, "O");
    cb_initial(b, "scxml", "O", false);
    cb_initial(b, "Sh", "S2", true);
    cb_initial(b, "Sd", "S1b", true);
    cb_trans(b, "S1a", "n", "S1b", 0, NULL, "tn");
    cb_trans(b, "S1", "two", "S2", 0, NULL, "t2");
    cb_trans(b, "S", "out", "O", 0, NULL, "tout");
    cb_trans(b, "O", "s", "S", 0, NULL, "ts");
    cb_trans(b, "O", "sh", "Sh", 0, NULL, "tsh");
    cb_trans(b, "O", "sd", "Sd", 0, NULL, "tsd");
    cb_trans(b, "S", "reset", "Sh", 0, NULL, "treset");
    cb_trans(b, "S", "ireset", "Sh", SC_TRANSITION_INTERNAL, NULL, "tireset");
    return b;
}

/* Reads a history record as a list of names. */
static void history_text(const harness *h, const char *history, char *buf, size_t size) {
    sc_id ids[CB_MAX_STATES];
    uint32_t n = sc_machine_history(h->m, st(h, history), ids, CB_MAX_STATES);
    size_t len = 0;
    buf[0] = '\0';
    if (n == UINT32_MAX) {
        snprintf(buf, size, "(not a history)");
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", h->b->state_name[ids[i]]);
}

#define EXPECT_HISTORY(h, history, want)                                                       \
    do { char hb_[256]; history_text(h, history, hb_, sizeof hb_); EXPECT_STR("history " history, hb_, want); } while (0)

static void test_history_shallow_default_content(void) {
    MACHINE(h, chart_history(), NULL);
    START(h, SC_OK, "enter:O", "O");
    EXPECT_HISTORY(h, "Sh", "");
    /* No history value: defaultHistoryContent[S] = Sh's transition content; targets S2; S enters
     * as an ancestor (not for default entry), then the history content runs after S's onentry. */
    STEP(h, "sh", SC_OK, "exit:O take:tsh enter:S hist:Sh enter:S2", "S S2");
}

static void test_history_deep_default_content(void) {
    MACHINE(h, chart_history(), NULL);
    START(h, SC_OK, "enter:O", "O");
    /* Default target S1b: addAncestorStatesToEnter(S1b, S) adds S1, which is therefore not
     * entered by default (its first child S1a is not entered). */
    STEP(h, "sd", SC_OK, "exit:O take:tsd enter:S hist:Sd enter:S1 enter:S1b", "S S1 S1b");
}

static void test_history_record_and_restore(void) {
    MACHINE(h, chart_history(), NULL);
    START(h, SC_OK, "enter:O", "O");
    STEP(h, "s", SC_OK, "exit:O take:ts enter:S enter:S1 enter:S1a", "S S1 S1a");
    STEP(h, "n", SC_OK, "exit:S1a take:tn enter:S1b", "S S1 S1b");
    /* exitStates records, for the exited S: shallow = active children, deep = active atomic
     * descendants; recorded before any state leaves the configuration. */
    STEP(h, "out", SC_OK, "exit:S1b exit:S1 exit:S take:tout enter:O", "O");
    EXPECT_HISTORY(h, "Sh", "S1");
    EXPECT_HISTORY(h, "Sd", "S1b");
    EXPECT_EQ_U(sc_machine_history(h->m, st(h, "S"), NULL, 0), UINT32_MAX);
    /* Deep: the recorded atomic state itself; no default content (a value is recorded). */
    STEP(h, "sd", SC_OK, "exit:O take:tsd enter:S enter:S1 enter:S1b", "S S1 S1b");
    STEP(h, "out", SC_OK, "exit:S1b exit:S1 exit:S take:tout enter:O", "O");
    /* Shallow: the recorded child S1 is entered by addDescendantStatesToEnter, i.e. by default:
     * S1a, not the S1b that was active. */
    STEP(h, "sh", SC_OK, "exit:O take:tsh enter:S enter:S1 enter:S1a", "S S1 S1a");
    STEP(h, "two", SC_OK, "exit:S1a exit:S1 take:t2 enter:S2", "S S2");
    STEP(h, "out", SC_OK, "exit:S2 exit:S take:tout enter:O", "O");
    EXPECT_HISTORY(h, "Sh", "S2");
    EXPECT_HISTORY(h, "Sd", "S2");
    STEP(h, "sh", SC_OK, "exit:O take:tsh enter:S enter:S2", "S S2");
}

static void test_history_self_target_uses_value_recorded_on_exit(void) {
    MACHINE(h, chart_history(), NULL);
    START(h, SC_OK, "enter:O", "O");
    STEP(h, "s", SC_OK, "exit:O take:ts enter:S enter:S1 enter:S1a", "S S1 S1a");
    STEP(h, "n", SC_OK, "exit:S1a take:tn enter:S1b", "S S1 S1b");
    /* External S -> S.Sh: nothing recorded yet, so the domain is findLCCA(S, S2) = scxml; S is
     * exited and exitStates records Sh = [S1] before enterStates dereferences Sh, which therefore
     * enters the just-recorded S1 (by default: S1a) and runs no default content. */
    STEP(h, "reset", SC_OK, "exit:S1b exit:S1 exit:S take:treset enter:S enter:S1 enter:S1a", "S S1 S1a");
    STEP(h, "two", SC_OK, "exit:S1a exit:S1 take:t2 enter:S2", "S S2");
    /* Internal S -> S.Sh with the value [S1] inside S: domain S, S stays, nothing is recorded. */
    STEP(h, "ireset", SC_OK, "exit:S2 take:tireset enter:S1 enter:S1a", "S S1 S1a");
    EXPECT_HISTORY(h, "Sh", "S1");
}

static void test_history_internal_default_without_parent_entry(void) {
    MACHINE(h, chart_history(), NULL);
    START(h, SC_OK, "enter:O", "O");
    STEP(h, "s", SC_OK, "exit:O take:ts enter:S enter:S1 enter:S1a", "S S1 S1a");
    /* Internal S -> S.Sh, no value: default target S2, domain S. S is not entered, so
     * defaultHistoryContent[S] is never executed. */
    STEP(h, "ireset", SC_OK, "exit:S1a exit:S1 take:tireset enter:S2", "S S2");
    STEP(h, "out", SC_OK, "exit:S2 exit:S take:tout enter:O", "O");
    /* A later default entry of S runs S's own default only. */
    STEP(h, "s", SC_OK, "exit:O take:ts enter:S enter:S1 enter:S1a", "S S1 S1a");
}

/* Shallow history of a parallel state records every region; each is re-entered by default. */
static void test_history_shallow_in_parallel(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_PARALLEL, "p");
    cb_state(b, "p", SC_HISTORY_SHALLOW, "ph");
    cb_state(b, "p", SC_COMPOUND, "r1");
    cb_state(b, "r1", SC_ATOMIC, "x1");
    cb_state(b, "r1", SC_ATOMIC, "x2");
    cb_state(b, "p", SC_COMPOUND, "r2");
    cb_state(b, "r2", SC_ATOMIC, "y1");
    cb_state(b, "r2", SC_ATOMIC, "y2");
    cb_state(b, NULL, SC_ATOMIC, "O");
    cb_initial(b, "ph", "r2", false);
    cb_trans(b, "x1", "go", "x2", 0, NULL, "tx");
    cb_trans(b, "p", "out", "O", 0, NULL, "tout");
    cb_trans(b, "O", "back", "ph", 0, NULL, "tb");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:p enter:r1 enter:x1 enter:r2 enter:y1", "p r1 x1 r2 y1");
    STEP(h, "go", SC_OK, "exit:x1 take:tx enter:x2", "p r1 x2 r2 y1");
    STEP(h, "out", SC_OK, "exit:y1 exit:r2 exit:x2 exit:r1 exit:p take:tout enter:O", "O");
    EXPECT_HISTORY(h, "ph", "r1 r2");
    /* The recorded children r1 and r2 get addDescendantStatesToEnter: default x1 and y1. */
    STEP(h, "back", SC_OK, "exit:O take:tb enter:p enter:r1 enter:x1 enter:r2 enter:y1", "p r1 x1 r2 y1");
}

/*  scxml                      q1 --h--> Ph (th)
 *    P                        q2 --re--> P (tre)
 *      Ph deep -> q2 (hist:Ph)
 *      Q
 *        q1
 *        q2
 *      r
 */
static void test_history_default_content_runs_only_in_its_microstep(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "P");
    cb_state(b, "P", SC_HISTORY_DEEP, "Ph");
    cb_state(b, "P", SC_COMPOUND, "Q");
    cb_state(b, "Q", SC_ATOMIC, "q1");
    cb_state(b, "Q", SC_ATOMIC, "q2");
    cb_state(b, "P", SC_ATOMIC, "r");
    cb_initial(b, "Ph", "q2", true);
    cb_trans(b, "q1", "h", "Ph", 0, NULL, "th");
    cb_trans(b, "q2", "re", "P", 0, NULL, "tre");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:P enter:Q enter:q1", "P Q q1");
    /* Effective target q2 (default), domain findLCCA(q1, q2) = Q, so P is not entered and the
     * default content (defaultHistoryContent[P]) is not run. Appendix D would also re-add Q via
     * addAncestorStatesToEnter(q2, P) and run Q's onentry although Q stays active; the core
     * enters only below the domain, i.e. it behaves as if the transition targeted q2 (3.10). */
    STEP(h, "h", SC_OK, "exit:q1 take:th enter:q2", "P Q q2");
    /* enterStates starts with an empty defaultHistoryContent table: entering P by default now
     * must not run Ph's content, which belonged to the previous microstep. */
    STEP(h, "re", SC_OK, "exit:q2 exit:Q exit:P take:tre enter:P enter:Q enter:q1", "P Q q1");
    EXPECT_HISTORY(h, "Ph", "q2");
}

/* Two transitions in regions r1 and r3 of a parallel state: r2 lies between their domains but is
 * not exited, so its history is not recorded (exitStates records only for exited states). */
static void test_history_recorded_only_for_exited_states(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_PARALLEL, "p");
    cb_state(b, "p", SC_COMPOUND, "r1");
    cb_state(b, "r1", SC_ATOMIC, "x1");
    cb_state(b, "r1", SC_ATOMIC, "x2");
    cb_state(b, "p", SC_COMPOUND, "r2");
    cb_state(b, "r2", SC_COMPOUND, "Q");
    cb_state(b, "Q", SC_HISTORY_SHALLOW, "Qh");
    cb_state(b, "Q", SC_ATOMIC, "q1");
    cb_state(b, "Q", SC_ATOMIC, "q2");
    cb_state(b, "p", SC_COMPOUND, "r3");
    cb_state(b, "r3", SC_ATOMIC, "y1");
    cb_state(b, "r3", SC_ATOMIC, "y2");
    cb_initial(b, "Qh", "q2", true);
    cb_trans(b, "x1", "e", "x2", 0, NULL, "tx");
    cb_trans(b, "y1", "e", "y2", 0, NULL, "ty");
    cb_trans(b, "q1", "n", "q2", 0, NULL, "tn");
    cb_trans(b, "q2", "h", "Qh", 0, NULL, "th");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:p enter:r1 enter:x1 enter:r2 enter:Q enter:q1 enter:r3 enter:y1", "p r1 x1 r2 Q q1 r3 y1");
    STEP(h, "e", SC_OK, "exit:y1 exit:x1 take:tx take:ty enter:x2 enter:y2", "p r1 x2 r2 Q q1 r3 y2");
    EXPECT_HISTORY(h, "Qh", "");
    STEP(h, "n", SC_OK, "exit:q1 take:tn enter:q2", "p r1 x2 r2 Q q2 r3 y2");
    /* Nothing recorded: default q2; domain findLCCA(q2, q2) = Q, so Q is not entered and the
     * default content does not run. */
    STEP(h, "h", SC_OK, "exit:q2 take:th enter:q2", "p r1 x2 r2 Q q2 r3 y2");
}

/*  scxml                        C --go--> Ph, type internal (tgo)
 *    P parallel                 c1 --n--> c2 (tn)
 *      Ph deep -> C
 *      C: c1, c2
 * Appendix D computes the domain twice: in computeExitSet (nothing recorded: effective target C,
 * not inside C, so findLCCA(C, C) = scxml: P is exited and Ph records [c2]) and again in
 * computeEntrySet, where the effective target is now c2, inside the internal source C, giving the
 * domain C: addAncestorStatesToEnter(c2, C) would not re-enter P, leaving C active without its
 * parent. The core keeps the domain of the microstep for both (P re-entered), the only reading
 * that yields a legal configuration. */
static void test_history_internal_to_ancestor_history_keeps_domain(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_PARALLEL, "P");
    cb_state(b, "P", SC_HISTORY_DEEP, "Ph");
    cb_state(b, "P", SC_COMPOUND, "C");
    cb_state(b, "C", SC_ATOMIC, "c1");
    cb_state(b, "C", SC_ATOMIC, "c2");
    cb_initial(b, "Ph", "C", false);
    cb_trans(b, "C", "go", "Ph", SC_TRANSITION_INTERNAL, NULL, "tgo");
    cb_trans(b, "c1", "n", "c2", 0, NULL, "tn");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:P enter:C enter:c1", "P C c1");
    STEP(h, "n", SC_OK, "exit:c1 take:tn enter:c2", "P C c2");
    STEP(h, "go", SC_OK, "exit:c2 exit:C exit:P take:tgo enter:P enter:C enter:c2", "P C c2");
    EXPECT_HISTORY(h, "Ph", "c2");
}

/*  scxml                   a1 --n--> a2 (tn)
 *    P                     b1 --h--> Ph (th)
 *      Ph deep -> b1
 *      par parallel
 *        A: a1, a2
 *        B: b1
 * Effective target b1, domain findLCCA(b1, b1) = B. Appendix D's addAncestorStatesToEnter(b1, P)
 * would climb past the domain to the active par and default-enter region A (a1) next to the
 * active a2; the core enters below the domain only. */
static void test_history_default_below_domain_leaves_parallel_alone(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "P");
    cb_state(b, "P", SC_HISTORY_DEEP, "Ph");
    cb_state(b, "P", SC_PARALLEL, "par");
    cb_state(b, "par", SC_COMPOUND, "A");
    cb_state(b, "A", SC_ATOMIC, "a1");
    cb_state(b, "A", SC_ATOMIC, "a2");
    cb_state(b, "par", SC_COMPOUND, "B");
    cb_state(b, "B", SC_ATOMIC, "b1");
    cb_initial(b, "Ph", "b1", true);
    cb_trans(b, "a1", "n", "a2", 0, NULL, "tn");
    cb_trans(b, "b1", "h", "Ph", 0, NULL, "th");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:P enter:par enter:A enter:a1 enter:B enter:b1", "P par A a1 B b1");
    STEP(h, "n", SC_OK, "exit:a1 take:tn enter:a2", "P par A a2 B b1");
    STEP(h, "h", SC_OK, "exit:b1 take:th enter:b1", "P par A a2 B b1");
}

/* History inside a parallel region's compound state, deep record spanning parallel regions. */
static void test_history_deep_across_parallel_regions(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "W");
    cb_state(b, "W", SC_HISTORY_DEEP, "Wh");
    cb_state(b, "W", SC_PARALLEL, "p");
    cb_state(b, "p", SC_COMPOUND, "r1");
    cb_state(b, "r1", SC_ATOMIC, "x1");
    cb_state(b, "r1", SC_ATOMIC, "x2");
    cb_state(b, "p", SC_COMPOUND, "r2");
    cb_state(b, "r2", SC_ATOMIC, "y1");
    cb_state(b, "r2", SC_ATOMIC, "y2");
    cb_state(b, NULL, SC_ATOMIC, "O");
    cb_initial(b, "Wh", "p", false);
    cb_trans(b, "x1", "go", "x2", 0, NULL, "tx");
    cb_trans(b, "y1", "go", "y2", 0, NULL, "ty");
    cb_trans(b, "W", "out", "O", 0, NULL, "tout");
    cb_trans(b, "O", "back", "Wh", 0, NULL, "tb");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:W enter:p enter:r1 enter:x1 enter:r2 enter:y1", "W p r1 x1 r2 y1");
    STEP(h, "go", SC_OK, "exit:y1 exit:x1 take:tx take:ty enter:x2 enter:y2", "W p r1 x2 r2 y2");
    STEP(h, "out", SC_OK, "exit:y2 exit:r2 exit:x2 exit:r1 exit:p exit:W take:tout enter:O", "O");
    EXPECT_HISTORY(h, "Wh", "x2 y2");
    /* Both recorded atomic states with their ancestors up to W; no default entry anywhere. */
    STEP(h, "back", SC_OK, "exit:O take:tb enter:W enter:p enter:r1 enter:x2 enter:r2 enter:y2", "W p r1 x2 r2 y2");
}

/* =========================================================================================
 * Done events and halting
 * ======================================================================================= */

/*  scxml                      c1 --fin--> cf (tfin)           c --done.state.c--> p (tdc)
 *    c                        pa1 --a--> paf (ta)             pb1 --b--> pbf (tb)
 *      c1                     pa --done.state.pa--> . (tda)   pb --done.state.pb--> . (tdb)
 *      cf final               p --done.state.p--> top (tdp)
 *    p parallel
 *      pa: pa1, paf final
 *      pb: pb1, pbf final
 *    top final
 */
static cb_builder *chart_done(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "c");
    cb_state(b, "c", SC_ATOMIC, "c1");
    cb_state(b, "c", SC_FINAL, "cf");
    cb_state(b, NULL, SC_PARALLEL, "p");
    cb_state(b, "p", SC_COMPOUND, "pa");
    cb_state(b, "pa", SC_ATOMIC, "pa1");
    cb_state(b, "pa", SC_FINAL, "paf");
    cb_state(b, "p", SC_COMPOUND, "pb");
    cb_state(b, "pb", SC_ATOMIC, "pb1");
    cb_state(b, "pb", SC_FINAL, "pbf");
    cb_state(b, NULL, SC_FINAL, "top");
    cb_trans(b, "c1", "fin", "cf", 0, NULL, "tfin");
    cb_trans(b, "c", "done.state.c", "p", 0, NULL, "tdc");
    cb_trans(b, "pa1", "a", "paf", 0, NULL, "ta");
    cb_trans(b, "pb1", "b", "pbf", 0, NULL, "tb");
    cb_trans(b, "pa", "done.state.pa", NULL, 0, NULL, "tda");
    cb_trans(b, "pb", "done.state.pb", NULL, 0, NULL, "tdb");
    cb_trans(b, "p", "done.state.p", "top", 0, NULL, "tdp");
    return b;
}

static void test_done_events_compound_parallel_and_halt(void) {
    MACHINE(h, chart_done(), NULL);
    START(h, SC_OK, "enter:c enter:c1", "c c1");
    /* Entering final cf enqueues done.state.c; the internal event is taken in the same
     * macrostep (no eventless transitions are enabled first). */
    STEP(h, "fin", SC_OK,
         "exit:c1 take:tfin enter:cf exit:cf exit:c take:tdc enter:p enter:pa enter:pa1 enter:pb enter:pb1",
         "p pa pa1 pb pb1");
    /* done.state.pa; p is not in a final state yet (pb is not), so no done.state.p. */
    STEP(h, "a", SC_OK, "exit:pa1 take:ta enter:paf take:tda", "p pa paf pb pb1");
    /* Entering pbf enqueues done.state.pb, then (every child of p is in a final state)
     * done.state.p. FIFO: tdb first, then tdp, which enters the top-level final state: running
     * becomes false and exitInterpreter runs top's onexit. */
    STEP(h, "b", SC_OK,
         "exit:pb1 take:tb enter:pbf take:tdb exit:pbf exit:pb exit:paf exit:pa exit:p take:tdp enter:top exit:top",
         "top");
    REQUIRE(sc_machine_is_halted(h->m), "machine should be halted");
    STEP(h, "a", SC_HALTED, "", "top");
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "a")), SC_OK);
    EXPECT_STATUS(sc_machine_run(h->m), SC_HALTED);
    EXPECT_STATUS(sc_machine_stop(h->m), SC_HALTED);
    EXPECT_TRACE(h, "");
}

static void hook_record_data(harness *h, const char *token, const sc_event *event) {
    if (strcmp(token, "take:td") == 0) trace_add(h, "data=%lu", (unsigned long)(event ? event->data : 0));
}

static void test_done_event_carries_donedata(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "c");
    cb_state(b, "c", SC_ATOMIC, "c1");
    cb_state(b, "c", SC_FINAL, "cf");
    cb_flags(b, "cf", SC_STATE_HAS_DONEDATA);
    cb_trans(b, "c1", "fin", "cf", 0, NULL, "tfin");
    cb_trans(b, "c", "done.state.c", NULL, 0, NULL, "td");
    MACHINE(h, b, NULL);
    h->done_data = 42;
    h->hook = hook_record_data;
    START(h, SC_OK, "enter:c enter:c1", "c c1");
    STEP(h, "fin", SC_OK, "exit:c1 take:tfin enter:cf take:td data=42", "c cf");
}

static void hook_raise_x_on_enter_cf(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "enter:cf") == 0) sc_machine_raise(h->m, ev(h, "x"));
}

/* enterStates runs the final state's onentry before enqueuing done.state: an event raised there
 * comes first. */
static void test_done_event_after_final_onentry_events(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "c");
    cb_state(b, "c", SC_ATOMIC, "c1");
    cb_state(b, "c", SC_FINAL, "cf");
    cb_trans(b, "c1", "fin", "cf", 0, NULL, "tfin");
    cb_trans(b, "c", "done.state.c", NULL, 0, NULL, "td");
    cb_trans(b, "c", "x", NULL, 0, NULL, "tx");
    MACHINE(h, b, NULL);
    h->hook = hook_raise_x_on_enter_cf;
    START(h, SC_OK, "enter:c enter:c1", "c c1");
    STEP(h, "fin", SC_OK, "exit:c1 take:tfin enter:cf take:tx take:td", "c cf");
}

/* A parent without a done event (done_event SC_NONE): no event, so no payload to fill (the host
 * would never get it back through release). */
static void test_done_no_event_no_donedata(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "c");
    cb_state(b, "c", SC_ATOMIC, "c1");
    cb_state(b, "c", SC_FINAL, "cf");
    cb_flags(b, "cf", SC_STATE_HAS_DONEDATA);
    cb_trans(b, "c1", "fin", "cf", 0, NULL, "tfin");
    REQUIRE(cb_finish(b), "builder: %s", b->error);
    b->states[cb_find_state(b, "c")].done_event = SC_NONE;
    MACHINE(h, b, NULL);
    h->done_data = 7;
    START(h, SC_OK, "enter:c enter:c1", "c c1");
    STEP(h, "fin", SC_OK, "exit:c1 take:tfin enter:cf", "c cf");
    EXPECT_EQ_U(sc_machine_internal_count(h->m), 0);
    EXPECT_EQ_U(h->done_data_calls, 0);
    /* With the event the payload is filled once and released once the event is consumed. */
    cb_builder *b2 = new_chart();
    cb_state(b2, NULL, SC_COMPOUND, "c");
    cb_state(b2, "c", SC_ATOMIC, "c1");
    cb_state(b2, "c", SC_FINAL, "cf");
    cb_flags(b2, "cf", SC_STATE_HAS_DONEDATA);
    cb_trans(b2, "c1", "fin", "cf", 0, NULL, "tfin");
    MACHINE(h2, b2, NULL);
    START(h2, SC_OK, "enter:c enter:c1", "c c1");
    STEP(h2, "fin", SC_OK, "exit:c1 take:tfin enter:cf", "c cf");
    EXPECT_EQ_U(h2->done_data_calls, 1);
    EXPECT_EQ_U(h2->releases, 2);           /* fin and done.state.c */
}

/* A recorded shallow child is entered by default: its <initial> content runs. */
static void test_history_shallow_value_entered_by_default(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "S");
    cb_state(b, "S", SC_HISTORY_SHALLOW, "Sh");
    cb_state(b, "S", SC_COMPOUND, "S1");
    cb_state(b, "S1", SC_ATOMIC, "S1a");
    cb_state(b, "S1", SC_ATOMIC, "S1b");
    cb_state(b, "S", SC_ATOMIC, "S2");
    cb_state(b, NULL, SC_ATOMIC, "O");
    cb_initial(b, "scxml", "O", false);
    cb_initial(b, "Sh", "S2", false);
    cb_initial(b, "S1", "S1b", true);
    cb_trans(b, "O", "s", "S1a", 0, NULL, "ts");
    cb_trans(b, "S", "out", "O", 0, NULL, "tout");
    cb_trans(b, "O", "sh", "Sh", 0, NULL, "tsh");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:O", "O");
    /* S1 is an ancestor of the target, not entered by default: no init:S1. */
    STEP(h, "s", SC_OK, "exit:O take:ts enter:S enter:S1 enter:S1a", "S S1 S1a");
    STEP(h, "out", SC_OK, "exit:S1a exit:S1 exit:S take:tout enter:O", "O");
    /* addDescendantStatesToEnter(S1) for the value [S1]: statesForDefaultEntry gets S1. */
    STEP(h, "sh", SC_OK, "exit:O take:tsh enter:S enter:S1 init:S1 enter:S1b", "S S1 S1b");
}

static void test_done_top_level_final_on_start(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_FINAL, "f");
    cb_state(b, NULL, SC_ATOMIC, "never");
    cb_trans(b, "never", "go", "f", 0, NULL, "t");
    MACHINE(h, b, NULL);
    /* enterStates sets running = false; mainEventLoop exits at once; exitInterpreter. */
    START(h, SC_OK, "enter:f exit:f", "f");
    REQUIRE(sc_machine_is_halted(h->m) && sc_machine_is_started(h->m), "halted after start");
    STEP(h, "go", SC_HALTED, "", "f");
}

static void test_done_stop_runs_exit_interpreter(void) {
    MACHINE(h, chart_hierarchy(), NULL);
    EXPECT_STATUS(sc_machine_stop(h->m), SC_ERR_NOT_STARTED);
    START(h, SC_OK, "enter:a enter:a1 enter:a11", "a a1 a11");
    /* exitInterpreter: every active state in exitOrder; the configuration stays readable. */
    EXPECT_STATUS(sc_machine_stop(h->m), SC_OK);
    EXPECT_TRACE(h, "exit:a11 exit:a1 exit:a");
    EXPECT_CONFIG(h, "a a1 a11");
    REQUIRE(sc_machine_is_halted(h->m), "halted after stop");
    STEP(h, "go", SC_HALTED, "", "a a1 a11");
    EXPECT_STATUS(sc_machine_stop(h->m), SC_HALTED);
    EXPECT_TRACE(h, "");
}

/* Parallel inside parallel: done.state is raised for the grandparent only (W3C enterStates). */
static void test_done_nested_parallel_grandparent_only(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_PARALLEL, "outer");
    cb_state(b, "outer", SC_PARALLEL, "inner");
    cb_state(b, "inner", SC_COMPOUND, "ia");
    cb_state(b, "ia", SC_ATOMIC, "ia1");
    cb_state(b, "ia", SC_FINAL, "iaf");
    cb_state(b, "outer", SC_COMPOUND, "ob");
    cb_state(b, "ob", SC_FINAL, "obf");
    cb_trans(b, "ia1", "go", "iaf", 0, NULL, "tgo");
    cb_trans(b, "outer", "done.state.ia", NULL, 0, NULL, "d_ia");
    cb_trans(b, "outer", "done.state.inner", NULL, 0, NULL, "d_inner");
    cb_trans(b, "outer", "done.state.ob", NULL, 0, NULL, "d_ob");
    cb_trans(b, "outer", "done.state.outer", NULL, 0, NULL, "d_outer");
    MACHINE(h, b, NULL);
    /* Entering obf at start: done.state.ob; its grandparent outer is parallel but inner is not
     * final yet. */
    START(h, SC_OK, "enter:outer enter:inner enter:ia enter:ia1 enter:ob enter:obf take:d_ob",
          "outer inner ia ia1 ob obf");
    /* iaf: done.state.ia, then grandparent inner (parallel, all final): done.state.inner. outer
     * is now in a final state too, but it is nobody's grandparent here: no done.state.outer. */
    STEP(h, "go", SC_OK, "exit:ia1 take:tgo enter:iaf take:d_ia take:d_inner", "outer inner ia iaf ob obf");
}

/* =========================================================================================
 * Eventless transitions
 * ======================================================================================= */

static void hook_raise_int_on_go(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tgo") == 0) trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "int")));
}

static void test_eventless_before_internal_events(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_state(b, NULL, SC_ATOMIC, "c");
    cb_state(b, NULL, SC_ATOMIC, "d");
    cb_state(b, NULL, SC_ATOMIC, "e");
    cb_trans(b, "a", "go", "b", 0, NULL, "tgo");
    cb_trans(b, "b", "int", "a", 0, NULL, "tba");     /* would win if int came before eventless */
    cb_trans(b, "b", NULL, "c", 0, NULL, "tbc");
    cb_trans(b, "c", "int", "d", 0, NULL, "tcd");
    cb_trans(b, "d", NULL, "e", 0, NULL, "tde");
    MACHINE(h, b, NULL);
    h->hook = hook_raise_int_on_go;
    START(h, SC_OK, "enter:a", "a");
    /* mainEventLoop: after the external microstep, selectEventlessTransitions first (b -> c);
     * only when none is enabled is "int" dequeued (c -> d); then eventless again (d -> e). */
    STEP(h, "go", SC_OK, "exit:a take:tgo raise=0 enter:b exit:b take:tbc enter:c exit:c take:tcd enter:d exit:d take:tde enter:e", "e");
}

static void test_eventless_chain_on_start_and_guards_reevaluated(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "s0");
    cb_state(b, NULL, SC_ATOMIC, "s1");
    cb_state(b, NULL, SC_ATOMIC, "s2");
    cb_state(b, NULL, SC_ATOMIC, "s3");
    cb_trans(b, "s0", NULL, "s1", 0, NULL, "t01");
    cb_trans(b, "s1", NULL, "s2", 0, NULL, "t12");
    cb_trans(b, "s2", "poke", NULL, 0, NULL, "tpoke");
    cb_trans(b, "s2", NULL, "s3", 0, "g", "t23");
    MACHINE(h, b, NULL);
    /* The initial macrostep runs eventless transitions until none is enabled. */
    START(h, SC_OK, "enter:s0 exit:s0 take:t01 enter:s1 exit:s1 take:t12 enter:s2", "s2");
    STEP(h, "poke", SC_OK, "take:tpoke", "s2");
    /* The guard now holds: the next macrostep's eventless selection (after the external
     * event's microstep) takes t23. */
    set_guard(h, "g", true);
    STEP(h, "poke", SC_OK, "take:tpoke exit:s2 take:t23 enter:s3", "s3");
}

/* =========================================================================================
 * Internal versus external transitions
 * ======================================================================================= */

/*  scxml                  s --ie--> s2 internal (tie)     s --ee--> s2 (tee)
 *    s (<initial> s1)     s --self--> s internal (tself)  s1 --ai--> s2 internal (tai)
 *      s1                 s2 --back--> s1 (tback)         s --tgl--> . (ttgl)
 *      s2                 s --gop--> p (tgop)             p --pi--> r2 internal (tpi)
 *    p parallel
 *      r: r1, r2
 */
static void test_internal_vs_external_transitions(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "s");
    cb_state(b, "s", SC_ATOMIC, "s1");
    cb_state(b, "s", SC_ATOMIC, "s2");
    cb_state(b, NULL, SC_PARALLEL, "p");
    cb_state(b, "p", SC_COMPOUND, "r");
    cb_state(b, "r", SC_ATOMIC, "r1");
    cb_state(b, "r", SC_ATOMIC, "r2");
    cb_initial(b, "s", "s1", true);
    cb_trans(b, "s", "ie", "s2", SC_TRANSITION_INTERNAL, NULL, "tie");
    cb_trans(b, "s", "ee", "s2", 0, NULL, "tee");
    cb_trans(b, "s", "self", "s", SC_TRANSITION_INTERNAL, NULL, "tself");
    cb_trans(b, "s", "tgl", NULL, 0, NULL, "ttgl");
    cb_trans(b, "s", "gop", "p", 0, NULL, "tgop");
    cb_trans(b, "s1", "ai", "s2", SC_TRANSITION_INTERNAL, NULL, "tai");
    cb_trans(b, "s2", "back", "s1", 0, NULL, "tback");
    cb_trans(b, "p", "pi", "r2", SC_TRANSITION_INTERNAL, NULL, "tpi");
    MACHINE(h, b, NULL);
    /* s is entered by default: its <initial> content runs after its onentry. */
    START(h, SC_OK, "enter:s init:s enter:s1", "s s1");
    /* Internal, compound source, target inside: domain = s; s is not exited. */
    STEP(h, "ie", SC_OK, "exit:s1 take:tie enter:s2", "s s2");
    STEP(h, "back", SC_OK, "exit:s2 take:tback enter:s1", "s s1");
    /* External: domain = findLCCA(s, s2) = scxml; s is exited and re-entered as an ancestor of
     * the target (not by default: no <initial> content). */
    STEP(h, "ee", SC_OK, "exit:s1 exit:s take:tee enter:s enter:s2", "s s2");
    /* Internal but the target is the source itself (not a descendant): external behaviour;
     * s is a target, so it is entered by default. */
    STEP(h, "self", SC_OK, "exit:s2 exit:s take:tself enter:s init:s enter:s1", "s s1");
    /* Internal on an atomic source: same as external, domain findLCCA(s1, s2) = s. */
    STEP(h, "ai", SC_OK, "exit:s1 take:tai enter:s2", "s s2");
    /* Targetless: empty exit set, content only. */
    STEP(h, "tgl", SC_OK, "take:ttgl", "s s2");
    STEP(h, "gop", SC_OK, "exit:s2 exit:s take:tgop enter:p enter:r enter:r1", "p r r1");
    /* Internal on a parallel source: not compound, so external: p is exited and re-entered. */
    STEP(h, "pi", SC_OK, "exit:r1 exit:r exit:p take:tpi enter:p enter:r enter:r2", "p r r2");
}

/* =========================================================================================
 * Conflicts: removeConflictingTransitions
 * ======================================================================================= */

/*  scxml                   x1: e->x2 (tx_e), g->o1 (tx_g), h->. (tx_h), m->. (tx_m)
 *    p parallel            y1: f->y2 (ty_f), g->o2 (ty_g), h->o2 (ty_h), m->. (ty_m)
 *      r1: x1, x2          p:  e->o1 (tp_e), f->o1 (tp_f), k->. (tp_k)
 *      r2: y1, y2
 *    o1
 *    o2
 */
static cb_builder *chart_conflicts(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_PARALLEL, "p");
    cb_state(b, "p", SC_COMPOUND, "r1");
    cb_state(b, "r1", SC_ATOMIC, "x1");
    cb_state(b, "r1", SC_ATOMIC, "x2");
    cb_state(b, "p", SC_COMPOUND, "r2");
    cb_state(b, "r2", SC_ATOMIC, "y1");
    cb_state(b, "r2", SC_ATOMIC, "y2");
    cb_state(b, NULL, SC_ATOMIC, "o1");
    cb_state(b, NULL, SC_ATOMIC, "o2");
    cb_trans(b, "x1", "e", "x2", 0, NULL, "tx_e");
    cb_trans(b, "x1", "g", "o1", 0, NULL, "tx_g");
    cb_trans(b, "x1", "h", NULL, 0, NULL, "tx_h");
    cb_trans(b, "x1", "m", NULL, 0, NULL, "tx_m");
    cb_trans(b, "y1", "f", "y2", 0, NULL, "ty_f");
    cb_trans(b, "y1", "g", "o2", 0, NULL, "ty_g");
    cb_trans(b, "y1", "h", "o2", 0, NULL, "ty_h");
    cb_trans(b, "y1", "m", NULL, 0, NULL, "ty_m");
    cb_trans(b, "p", "e", "o1", 0, NULL, "tp_e");
    cb_trans(b, "p", "f", "o1", 0, NULL, "tp_f");
    cb_trans(b, "p", "k", NULL, 0, NULL, "tp_k");
    return b;
}

#define CONFLICT_START "enter:p enter:r1 enter:x1 enter:r2 enter:y1"

static void test_conflict_descendant_preempts_ancestor(void) {
    MACHINE(h, chart_conflicts(), NULL);
    START(h, SC_OK, CONFLICT_START, "p r1 x1 r2 y1");
    /* enabled = [tp_f (selected by x1 via p), ty_f (by y1)]; exit sets intersect; y1 is a
     * descendant of p, so ty_f preempts the earlier tp_f. */
    STEP(h, "f", SC_OK, "exit:y1 take:ty_f enter:y2", "p r1 x1 r2 y2");
}

static void test_conflict_earlier_selected_descendant_keeps_ancestor_out(void) {
    MACHINE(h, chart_conflicts(), NULL);
    START(h, SC_OK, CONFLICT_START, "p r1 x1 r2 y1");
    /* enabled = [tx_e, tp_e (by y1 via p)]; p is not a descendant of x1: tp_e is preempted. */
    STEP(h, "e", SC_OK, "exit:x1 take:tx_e enter:x2", "p r1 x2 r2 y1");
}

static void test_conflict_document_order_wins_between_regions(void) {
    MACHINE(h, chart_conflicts(), NULL);
    START(h, SC_OK, CONFLICT_START, "p r1 x1 r2 y1");
    /* Both leave p (domain scxml): the one selected by the earlier atomic state (x1) wins. */
    STEP(h, "g", SC_OK, "exit:y1 exit:r2 exit:x1 exit:r1 exit:p take:tx_g enter:o1", "o1");
}

static void test_conflict_targetless_never_conflicts(void) {
    MACHINE(h, chart_conflicts(), NULL);
    START(h, SC_OK, CONFLICT_START, "p r1 x1 r2 y1");
    /* tx_h has an empty exit set: both are taken; the exit set is ty_h's; contents in order. */
    STEP(h, "h", SC_OK, "exit:y1 exit:r2 exit:x1 exit:r1 exit:p take:tx_h take:ty_h enter:o2", "o2");
}

static void test_conflict_shared_and_parallel_targetless(void) {
    MACHINE(h, chart_conflicts(), NULL);
    START(h, SC_OK, CONFLICT_START, "p r1 x1 r2 y1");
    /* Selected by both atomic states: enabledTransitions is a set, content runs once. */
    STEP(h, "k", SC_OK, "take:tp_k", "p r1 x1 r2 y1");
    STEP(h, "m", SC_OK, "take:tx_m take:ty_m", "p r1 x1 r2 y1");
}

/* =========================================================================================
 * Event descriptors: nameMatch
 * ======================================================================================= */

static cb_builder *chart_descriptors(bool with_star) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "s");
    cb_trans(b, "s", "error", NULL, 0, NULL, "t_error");
    cb_trans(b, "s", "a b", NULL, 0, NULL, "t_ab");
    cb_trans(b, "s", "x.y", NULL, 0, NULL, "t_xy");
    cb_trans(b, "s", "q.*", NULL, 0, NULL, "t_q");
    if (with_star) cb_trans(b, "s", "*", NULL, 0, NULL, "t_any");
    const char *events[] = { "errors", "error.send.failed", "ab", "a.c", "x", "x.yz", "x.y.z", "q.r", "qq" };
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) cb_event(b, events[i]);
    return b;
}

static void test_descriptor_matching(void) {
    MACHINE(h, chart_descriptors(true), NULL);
    START(h, SC_OK, "enter:s", "s");
    static const struct { const char *event, *token; } cases[] = {
        { "error", "take:t_error" },
        { "error.send.failed", "take:t_error" },    /* "error" is a token prefix */
        { "errors", "take:t_any" },                 /* ...but not a string prefix */
        { "a", "take:t_ab" },                       /* descriptor lists */
        { "b", "take:t_ab" },
        { "a.c", "take:t_ab" },
        { "ab", "take:t_any" },
        { "x", "take:t_any" },                      /* x.y is longer than x */
        { "x.y", "take:t_xy" },
        { "x.y.z", "take:t_xy" },
        { "x.yz", "take:t_any" },
        { "q", "take:t_q" },                        /* "q.*" means "q" */
        { "q.r", "take:t_q" },
        { "qq", "take:t_any" },
        { "?", "take:t_any" },                      /* SC_EVENT_UNKNOWN matches "*" only */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        EXPECT_STATUS(send(h, cases[i].event), SC_OK);
        char what[64];
        snprintf(what, sizeof what, "trace for event %s", cases[i].event);
        EXPECT_STR(what, h->trace, cases[i].token);
        h->trace[0] = '\0';
    }
}

static void test_descriptor_unknown_without_star_is_unhandled(void) {
    MACHINE(h, chart_descriptors(false), NULL);
    START(h, SC_OK, "enter:s", "s");
    STEP(h, "?", SC_UNHANDLED, "", "s");
    STEP(h, "errors", SC_UNHANDLED, "", "s");
    STEP(h, "x", SC_UNHANDLED, "", "s");
    STEP(h, "error.send.failed", SC_OK, "take:t_error", "s");
    /* An id beyond the chart's events is treated like an unknown event, never read. */
    sc_event wild = { 4000000000u, 0, 0 };
    EXPECT_STATUS(sc_machine_dispatch(h->m, wild), SC_UNHANDLED);
}

/* More than 63 events: filter bits collide (id % 63), matching must still be exact. */
static void test_descriptor_mask_collisions(void) {
    cb_builder *b = new_chart();
    char name[16];
    for (int i = 0; i < 70; i++) {
        snprintf(name, sizeof name, "ev%d", i);
        cb_event(b, name);
    }
    cb_state(b, NULL, SC_ATOMIC, "s");
    cb_state(b, NULL, SC_ATOMIC, "t");
    cb_trans(b, "s", "ev65", "t", 0, NULL, "t65");
    MACHINE(h, b, NULL);
    REQUIRE(sc_event_bit(ev(h, "ev2").id) == sc_event_bit(ev(h, "ev65").id), "ev2 and ev65 should share a filter bit");
    START(h, SC_OK, "enter:s", "s");
    STEP(h, "ev2", SC_UNHANDLED, "", "s");
    STEP(h, "ev64", SC_UNHANDLED, "", "s");
    STEP(h, "ev65", SC_OK, "exit:s take:t65 enter:t", "t");
}

/* "*" never selects an eventless transition and eventless transitions ignore events. */
static void test_descriptor_star_is_not_eventless(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "s");
    cb_state(b, NULL, SC_ATOMIC, "t");
    cb_trans(b, "s", NULL, "t", 0, "never", "tel");
    cb_trans(b, "s", "*", NULL, 0, NULL, "tany");
    cb_event(b, "e");
    MACHINE(h, b, NULL);
    h->trace_guards = true;
    /* Eventless selection evaluates the guard (false); "*" is not eventless. */
    START(h, SC_OK, "enter:s guard:never", "s");
    /* Event selection skips the eventless transition without evaluating its guard. */
    STEP(h, "e", SC_OK, "take:tany guard:never", "s");
}

/* =========================================================================================
 * Initial states
 * ======================================================================================= */

/*  scxml
 *    P parallel
 *      C (<initial> c2, with content)
 *        c1
 *        c2
 *      D (no initial: first child state; the history is a pseudo-state)
 *        Dh shallow -> d2
 *        d1
 *        d2
 *      W (initial="x2 y2")
 *        w0
 *        wp parallel
 *          r1: x1, x2
 *          r2: y1, y2
 */
static void test_initial_kinds(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_PARALLEL, "P");
    cb_state(b, "P", SC_COMPOUND, "C");
    cb_state(b, "C", SC_ATOMIC, "c1");
    cb_state(b, "C", SC_ATOMIC, "c2");
    cb_state(b, "P", SC_COMPOUND, "D");
    cb_state(b, "D", SC_HISTORY_SHALLOW, "Dh");
    cb_state(b, "D", SC_ATOMIC, "d1");
    cb_state(b, "D", SC_ATOMIC, "d2");
    cb_state(b, "P", SC_COMPOUND, "W");
    cb_state(b, "W", SC_ATOMIC, "w0");
    cb_state(b, "W", SC_PARALLEL, "wp");
    cb_state(b, "wp", SC_COMPOUND, "r1");
    cb_state(b, "r1", SC_ATOMIC, "x1");
    cb_state(b, "r1", SC_ATOMIC, "x2");
    cb_state(b, "wp", SC_COMPOUND, "r2");
    cb_state(b, "r2", SC_ATOMIC, "y1");
    cb_state(b, "r2", SC_ATOMIC, "y2");
    cb_initial(b, "C", "c2", true);
    cb_initial(b, "Dh", "d2", false);
    cb_initial(b, "W", "x2 y2", false);
    MACHINE(h, b, NULL);
    /* C: statesForDefaultEntry, so its initial content runs right after its onentry and before
     * c2 is entered. D: first child state d1. W: addAncestorStatesToEnter(x2, W) and (y2, W) add
     * r1, r2 and wp; wp's regions both have a descendant in the set, so none is defaulted. */
    START(h, SC_OK,
          "enter:P enter:C init:C enter:c2 enter:D enter:d1 enter:W enter:wp enter:r1 enter:x2 enter:r2 enter:y2",
          "P C c2 D d1 W wp r1 x2 r2 y2");
}

static void test_initial_root_targets_listed_out_of_order(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "first");
    cb_state(b, NULL, SC_PARALLEL, "p");
    cb_state(b, "p", SC_COMPOUND, "ra");
    cb_state(b, "ra", SC_ATOMIC, "a1");
    cb_state(b, "ra", SC_ATOMIC, "a2");
    cb_state(b, "p", SC_COMPOUND, "rb");
    cb_state(b, "rb", SC_ATOMIC, "b1");
    cb_state(b, "rb", SC_ATOMIC, "b2");
    cb_initial(b, "scxml", "b2 a2", false);
    MACHINE(h, b, NULL);
    /* statesToEnter is sorted in entryOrder whatever the order of the targets. */
    START(h, SC_OK, "enter:p enter:ra enter:a2 enter:rb enter:b2", "p ra a2 rb b2");
}

/* =========================================================================================
 * Runaway loops
 * ======================================================================================= */

/* The configuration is legal iff a fresh machine accepts it in sc_machine_restore, and it is
 * exactly one of the listed single-state configurations here. */
static bool legal_single(const harness *h, const char *x, const char *y) {
    char cfg[256];
    config_text(h, cfg, sizeof cfg);
    return strcmp(cfg, x) == 0 || strcmp(cfg, y) == 0;
}

static int count_tokens(const char *trace, const char *prefix) {
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = trace; (p = strstr(p, prefix)) != NULL; p += len) n++;
    return n;
}

static void test_runaway_eventless_loop_on_start(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_trans(b, "a", NULL, "b", 0, NULL, "tab");
    cb_trans(b, "b", NULL, "a", 0, NULL, "tba");
    sc_options o = { 0, 0, 10 };
    MACHINE(h, b, &o);
    EXPECT_STATUS(sc_machine_start(h->m), SC_ERR_RUNAWAY);
    REQUIRE(strncmp(h->trace, "enter:a exit:a take:tab enter:b exit:b take:tba enter:a", 55) == 0,
            "unexpected start of trace: %s", h->trace);
    int taken = count_tokens(h->trace, "take:");
    REQUIRE(taken >= 1 && taken <= 10, "%d microsteps with max_steps 10", taken);
    REQUIRE(legal_single(h, "a", "b"), "configuration is not legal");
    /* Stopped between microsteps: the last state entered is the active one. */
    char cfg[64], last[80];
    config_text(h, cfg, sizeof cfg);
    snprintf(last, sizeof last, "enter:%s", cfg);
    size_t tl = strlen(h->trace), ll = strlen(last);
    REQUIRE(tl >= ll && strcmp(h->trace + tl - ll, last) == 0, "trace does not end with %s: %s", last, h->trace);
    REQUIRE(!sc_machine_is_busy(h->m) && sc_machine_is_started(h->m) && !sc_machine_is_halted(h->m), "state flags");
    /* The same configuration is accepted by sc_machine_restore (a legal configuration). */
    harness *h2 = machine_with(h->b, &o);
    REQUIRE(h2 != NULL, "second machine");
    sc_id ids[4];
    uint32_t n = sc_machine_active_states(h->m, false, ids, 4);
    EXPECT_STATUS(sc_machine_restore(h2->m, ids, n, false), SC_OK);
}

static void test_runaway_on_dispatch_machine_stays_usable(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "idle");
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_trans(b, "idle", "go", "a", 0, NULL, "tgo");
    cb_trans(b, "a", NULL, "b", 0, NULL, "tab");
    cb_trans(b, "b", NULL, "a", 0, NULL, "tba");
    cb_trans(b, "a", "stop", "idle", 0, NULL, "tsa");
    cb_trans(b, "b", "stop", "idle", 0, "never", "tsb");
    sc_options o = { 0, 0, 7 };
    MACHINE(h, b, &o);
    START(h, SC_OK, "enter:idle", "idle");
    EXPECT_STATUS(send(h, "go"), SC_ERR_RUNAWAY);
    REQUIRE(strncmp(h->trace, "exit:idle take:tgo enter:a exit:a take:tab enter:b", 50) == 0, "trace: %s", h->trace);
    REQUIRE(legal_single(h, "a", "b"), "configuration is not legal");
    REQUIRE(!sc_machine_is_busy(h->m), "busy after runaway");
    h->trace[0] = '\0';
    /* The next call is served (not SC_ERR_BUSY) and runs away again. */
    EXPECT_STATUS(send(h, "stop"), SC_ERR_RUNAWAY);
}

/* sc_machine_interrupt: the host's wall-clock bound. Set from an action (here after the third
 * transition, "tba"), it stops the loop before the next microstep, far below max_steps, in a
 * legal configuration; cleared, the machine works again. */
static void interrupt_after_tba(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tba") == 0) sc_machine_interrupt(h->m, true);
}

static void test_interrupt_stops_macrostep_between_microsteps(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "idle");
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_trans(b, "idle", "go", "a", 0, NULL, "tgo");
    cb_trans(b, "a", NULL, "b", 0, NULL, "tab");
    cb_trans(b, "b", NULL, "a", 0, NULL, "tba");
    cb_trans(b, "a", "stop", "idle", 0, NULL, "tsa");
    sc_options o = { 0, 0, 50 };
    MACHINE(h, b, &o);
    START(h, SC_OK, "enter:idle", "idle");
    h->hook = interrupt_after_tba;
    EXPECT_STATUS(send(h, "go"), SC_ERR_INTERRUPTED);
    REQUIRE(strcmp(h->trace, "exit:idle take:tgo enter:a exit:a take:tab enter:b exit:b take:tba enter:a") == 0,
            "trace: %s", h->trace);
    REQUIRE(legal_single(h, "a", "a"), "configuration is not legal");
    REQUIRE(!sc_machine_is_busy(h->m), "busy after an interrupt");
    /* A macrostep with no eventless work completes; the request stays set, so the next loop
     * stops before its first eventless microstep. */
    h->hook = NULL;
    h->trace[0] = '\0';
    EXPECT_STATUS(send(h, "stop"), SC_OK);
    EXPECT_STATUS(send(h, "go"), SC_ERR_INTERRUPTED);
    REQUIRE(strcmp(h->trace, "exit:a take:tsa enter:idle exit:idle take:tgo enter:a") == 0, "trace: %s", h->trace);
    /* Cleared: only max_steps stops the loop again. */
    sc_machine_interrupt(h->m, false);
    EXPECT_STATUS(send(h, "stop"), SC_OK);
    EXPECT_STATUS(send(h, "go"), SC_ERR_RUNAWAY);
}

/* idle --go--> s0 -> s1 -> s2 -> s3, eventless. */
static harness *chain_machine(uint32_t max_steps, bool start_in_chain) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "idle");
    cb_state(b, NULL, SC_ATOMIC, "s0");
    cb_state(b, NULL, SC_ATOMIC, "s1");
    cb_state(b, NULL, SC_ATOMIC, "s2");
    cb_state(b, NULL, SC_ATOMIC, "s3");
    if (start_in_chain) cb_initial(b, "scxml", "s0", false);
    cb_trans(b, "idle", "go", "s0", 0, NULL, "tgo");
    cb_trans(b, "s0", NULL, "s1", 0, NULL, "t01");
    cb_trans(b, "s1", NULL, "s2", 0, NULL, "t12");
    cb_trans(b, "s2", NULL, "s3", 0, NULL, "t23");
    sc_options o = { 0, 0, max_steps };
    return machine_with(b, &o);
}

/* max_steps bounds the microsteps (and internal events) of a macrostep: a macrostep of exactly
 * max_steps eventless microsteps completes; one more is a runaway. */
static void test_runaway_bound_is_exact(void) {
    harness *h = chain_machine(3, true);
    REQUIRE(h, "machine");
    START(h, SC_OK, "enter:s0 exit:s0 take:t01 enter:s1 exit:s1 take:t12 enter:s2 exit:s2 take:t23 enter:s3", "s3");
    h = chain_machine(2, true);
    REQUIRE(h, "machine");
    START(h, SC_ERR_RUNAWAY, "enter:s0 exit:s0 take:t01 enter:s1 exit:s1 take:t12 enter:s2", "s2");
    /* The external event's own microstep is not an eventless one. */
    h = chain_machine(3, false);
    REQUIRE(h, "machine");
    START(h, SC_OK, "enter:idle", "idle");
    STEP(h, "go", SC_OK, "exit:idle take:tgo enter:s0 exit:s0 take:t01 enter:s1 exit:s1 take:t12 enter:s2 exit:s2 take:t23 enter:s3", "s3");
    h = chain_machine(1, false);
    REQUIRE(h, "machine");
    START(h, SC_OK, "enter:idle", "idle");
    STEP(h, "go", SC_ERR_RUNAWAY, "exit:idle take:tgo enter:s0 exit:s0 take:t01 enter:s1", "s1");
}

static void hook_ping(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strncmp(token, "enter:", 6) == 0) sc_machine_raise(h->m, ev(h, "ping"));
}

static void test_runaway_internal_event_loop(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_trans(b, "a", "ping", "b", 0, NULL, "tab");
    cb_trans(b, "b", "ping", "a", 0, NULL, "tba");
    sc_options o = { 0, 0, 12 };
    MACHINE(h, b, &o);
    h->hook = hook_ping;
    EXPECT_STATUS(sc_machine_start(h->m), SC_ERR_RUNAWAY);
    REQUIRE(strncmp(h->trace, "enter:a exit:a take:tab enter:b exit:b take:tba enter:a", 55) == 0, "trace: %s", h->trace);
    REQUIRE(legal_single(h, "a", "b"), "configuration is not legal");
    int taken = count_tokens(h->trace, "take:");
    REQUIRE(taken >= 1 && taken <= 12, "%d microsteps with max_steps 12", taken);
}

/* =========================================================================================
 * Guards: document order within a state, then the ancestors
 * ======================================================================================= */

/*  scxml                 s: other[g4]->x (t_other), e[g1]->x (t1), e[g2]->y (t2)
 *    P                   P: e[g3]->z (t3)
 *      s
 *      x
 *      y
 *    z
 */
static harness *guard_machine(bool g1, bool g2, bool g3) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "P");
    cb_state(b, "P", SC_ATOMIC, "s");
    cb_state(b, "P", SC_ATOMIC, "x");
    cb_state(b, "P", SC_ATOMIC, "y");
    cb_state(b, NULL, SC_ATOMIC, "z");
    cb_trans(b, "s", "other", "x", 0, "g4", "t_other");
    cb_trans(b, "s", "e", "x", 0, "g1", "t1");
    cb_trans(b, "s", "e", "y", 0, "g2", "t2");
    cb_trans(b, "P", "e", "z", 0, "g3", "t3");
    harness *h = machine_with(b, NULL);
    if (!h) return NULL;
    set_guard(h, "g1", g1);
    set_guard(h, "g2", g2);
    set_guard(h, "g3", g3);
    set_guard(h, "g4", true);
    h->trace_guards = true;
    return h;
}

static void test_guards_false_skips_to_next_in_document_order(void) {
    harness *h = guard_machine(false, true, true);
    REQUIRE(h, "machine");
    START(h, SC_OK, "enter:P enter:s", "P s");
    /* t_other does not match the event: its guard is not evaluated. */
    STEP(h, "e", SC_OK, "guard:g1 guard:g2 exit:s take:t2 enter:y", "P y");
}

static void test_guards_first_true_stops_search(void) {
    harness *h = guard_machine(true, true, true);
    REQUIRE(h, "machine");
    START(h, SC_OK, "enter:P enter:s", "P s");
    STEP(h, "e", SC_OK, "guard:g1 exit:s take:t1 enter:x", "P x");
}

static void test_guards_then_ancestor(void) {
    harness *h = guard_machine(false, false, true);
    REQUIRE(h, "machine");
    START(h, SC_OK, "enter:P enter:s", "P s");
    STEP(h, "e", SC_OK, "guard:g1 guard:g2 guard:g3 exit:s exit:P take:t3 enter:z", "z");
}

static void test_guards_all_false_unhandled(void) {
    harness *h = guard_machine(false, false, false);
    REQUIRE(h, "machine");
    START(h, SC_OK, "enter:P enter:s", "P s");
    STEP(h, "e", SC_UNHANDLED, "guard:g1 guard:g2 guard:g3", "P s");
}

/* =========================================================================================
 * Queues
 * ======================================================================================= */

static void hook_raise_two(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tgo") != 0) return;
    sc_status s1 = sc_machine_raise(h->m, ev(h, "i1"));
    sc_status s2 = sc_machine_raise(h->m, ev(h, "i2"));
    uint32_t n = sc_machine_internal_count(h->m);
    trace_add(h, "raise=%d,%d queued=%u:%s,%s", (int)s1, (int)s2, (unsigned)n,
              event_name(h, &(sc_event){ sc_machine_internal_event(h->m, 0).id, 0, 0 }),
              event_name(h, &(sc_event){ sc_machine_internal_event(h->m, 1).id, 0, 0 }));
}

static void test_queue_raise_fifo_after_microstep(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_state(b, NULL, SC_ATOMIC, "c");
    cb_state(b, NULL, SC_ATOMIC, "d");
    cb_trans(b, "a", "go", "b", 0, NULL, "tgo");
    cb_trans(b, "b", "i2", "a", 0, NULL, "tbad");     /* taken if i2 came first (LIFO) */
    cb_trans(b, "b", "i1", "c", 0, NULL, "t1");
    cb_trans(b, "c", "i2", "d", 0, NULL, "t2");
    MACHINE(h, b, NULL);
    h->hook = hook_raise_two;
    START(h, SC_OK, "enter:a", "a");
    /* The raised events wait until the microstep is complete (b entered), then FIFO. */
    STEP(h, "go", SC_OK, "exit:a take:tgo raise=0,0 queued=2:i1,i2 enter:b exit:b take:t1 enter:c exit:c take:t2 enter:d", "d");
    EXPECT_EQ_U(sc_machine_internal_count(h->m), 0);
    /* Every event the core consumed was released: go, i1, i2. */
    EXPECT_EQ_U(h->releases, 3);
}

static void hook_dispatch_inside(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tgo") != 0) return;
    sc_status s = sc_machine_dispatch(h->m, ev(h, "ext"));
    trace_add(h, "dispatch=%d busy=%d", (int)s, (int)sc_machine_is_busy(h->m));
    trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "int")));
    /* Not allowed from a callback. */
    trace_add(h, "run=%d stop=%d start=%d restore=%d", (int)sc_machine_run(h->m), (int)sc_machine_stop(h->m),
              (int)sc_machine_start(h->m), (int)sc_machine_restore(h->m, NULL, 0, false));
}

static void test_queue_dispatch_inside_action_is_queued(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_state(b, NULL, SC_ATOMIC, "c");
    cb_state(b, NULL, SC_ATOMIC, "d");
    cb_state(b, NULL, SC_ATOMIC, "e");
    cb_trans(b, "a", "go", "b", 0, NULL, "tgo");
    cb_trans(b, "b", "ext", "e", 0, NULL, "tbe");     /* taken if ext overtook int */
    cb_trans(b, "b", "int", "c", 0, NULL, "tint");
    cb_trans(b, "c", "ext", "d", 0, NULL, "text");
    MACHINE(h, b, NULL);
    h->hook = hook_dispatch_inside;
    START(h, SC_OK, "enter:a", "a");
    /* ext goes to the external queue (SC_QUEUED); the raised int is part of this macrostep. */
    STEP(h, "go", SC_OK, "exit:a take:tgo dispatch=2 busy=1 raise=0 run=-7 stop=-7 start=-7 restore=-7 enter:b exit:b take:tint enter:c", "c");
    /* The outer dispatch does not process the external queue: sc_machine_run does. */
    EXPECT_STATUS(sc_machine_run(h->m), SC_OK);
    EXPECT_TRACE(h, "exit:c take:text enter:d");
    EXPECT_CONFIG(h, "d");
    EXPECT_STATUS(sc_machine_run(h->m), SC_OK);
    EXPECT_TRACE(h, "");
}

static void test_queue_post_outside_and_run_fifo(void) {
    MACHINE(h, chart_hierarchy(), NULL);
    EXPECT_STATUS(send(h, "go"), SC_ERR_NOT_STARTED);
    EXPECT_STATUS(sc_machine_run(h->m), SC_ERR_NOT_STARTED);
    START(h, SC_OK, "enter:a enter:a1 enter:a11", "a a1 a11");
    EXPECT_STATUS(sc_machine_start(h->m), SC_ERR_BAD_ARGUMENT);
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "go")), SC_OK);
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "side")), SC_OK);
    EXPECT_TRACE(h, "");
    EXPECT_STATUS(sc_machine_run(h->m), SC_OK);
    EXPECT_TRACE(h, "exit:a11 exit:a1 exit:a take:t1 enter:b enter:b1 enter:b12 exit:b12 exit:b1 take:t2 enter:b2");
    EXPECT_CONFIG(h, "b b2");
}

static void hook_raise_three(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tgo") != 0) return;
    for (int i = 0; i < 3; i++) trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "x")));
}

static void test_queue_run_stops_when_halted(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_FINAL, "f");
    cb_trans(b, "a", "go", "f", 0, NULL, "tgo");
    cb_trans(b, "a", "x", NULL, 0, NULL, "tx");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:a", "a");
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "x")), SC_OK);
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "go")), SC_OK);
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "x")), SC_OK);
    /* x, then go halts the machine; the last x is not processed but released. */
    EXPECT_STATUS(sc_machine_run(h->m), SC_HALTED);
    EXPECT_TRACE(h, "take:tx exit:a take:tgo enter:f exit:f");
    EXPECT_CONFIG(h, "f");
    EXPECT_EQ_U(h->releases, 3);
    EXPECT_STATUS(send(h, "x"), SC_HALTED);
    EXPECT_EQ_U(h->releases, 4);
}

static void test_queue_internal_overflow(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_trans(b, "a", "go", "b", 0, NULL, "tgo");
    cb_event(b, "x");
    sc_options o = { 2, 1, 0 };
    MACHINE(h, b, &o);
    h->hook = hook_raise_three;
    START(h, SC_OK, "enter:a", "a");
    STEP(h, "go", SC_OK, "exit:a take:tgo raise=0 raise=0 raise=-2 enter:b", "b");
    /* External queue of capacity 1. */
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "x")), SC_OK);
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "x")), SC_ERR_QUEUE_FULL);
    EXPECT_STATUS(sc_machine_run(h->m), SC_OK);
    EXPECT_EQ_U(sc_machine_dropped_events(h->m), 0);
}

static void hook_fill_queue(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tfin") == 0) trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "x")));
}

static void test_queue_done_event_dropped_when_full(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "c");
    cb_state(b, "c", SC_ATOMIC, "c1");
    cb_state(b, "c", SC_FINAL, "cf");
    cb_trans(b, "c1", "fin", "cf", 0, NULL, "tfin");
    cb_trans(b, "c", "done.state.c", NULL, 0, NULL, "td");
    cb_event(b, "x");
    sc_options o = { 1, 0, 0 };
    MACHINE(h, b, &o);
    h->hook = hook_fill_queue;
    START(h, SC_OK, "enter:c enter:c1", "c c1");
    /* The queue holds x; done.state.c cannot be queued: counted, not processed. */
    STEP(h, "fin", SC_OK, "exit:c1 take:tfin raise=0 enter:cf", "c cf");
    EXPECT_EQ_U(sc_machine_dropped_events(h->m), 1);
}

/* =========================================================================================
 * Static allocation
 * ======================================================================================= */

static void test_static_allocation(void) {
    cb_builder *b = chart_hierarchy();
    harness *h = new_harness(b);
    REQUIRE(h, "builder: %s", b->error);
    size_t size = sc_machine_size(&b->chart, NULL);
    REQUIRE(size > 0, "sc_machine_size is 0 for a valid chart");
    sc_options big = { 1000, 1000, 0 };
    REQUIRE(sc_machine_size(&b->chart, &big) > size, "bigger queues need more memory");

    enum { CANARY = 256 };
    unsigned char *block = owned_alloc(size + CANARY + 8);
    memset(block, 0xA5, size + CANARY + 8);
    sc_machine *m = (sc_machine *)1;
    EXPECT_STATUS(sc_machine_init(&m, block, size - 1, &b->chart, &h->host, NULL), SC_ERR_NO_MEMORY);
    REQUIRE(m == NULL, "*machine should be NULL after a failed init");
    EXPECT_STATUS(sc_machine_init(&m, block + 4, size, &b->chart, &h->host, NULL), SC_ERR_NO_MEMORY);
    for (size_t i = 0; i < size + CANARY; i++) REQUIRE(block[i] == 0xA5, "failed init wrote byte %zu", i);
    EXPECT_STATUS(sc_machine_init(&m, NULL, size, &b->chart, &h->host, NULL), SC_ERR_BAD_ARGUMENT);
    EXPECT_STATUS(sc_machine_init(&m, block, size, &b->chart, NULL, NULL), SC_ERR_BAD_ARGUMENT);

    EXPECT_STATUS(sc_machine_init(&m, block, size, &b->chart, &h->host, NULL), SC_OK);
    REQUIRE(m != NULL, "machine");
    h->m = m;
    own_machine(m);
    START(h, SC_OK, "enter:a enter:a1 enter:a11", "a a1 a11");
    STEP(h, "go", SC_OK, "exit:a11 exit:a1 exit:a take:t1 enter:b enter:b1 enter:b12", "b b1 b12");
    STEP(h, "back", SC_OK, "exit:b12 exit:b1 exit:b take:t3 enter:a enter:a1 enter:a12", "a a1 a12");
    for (size_t i = size; i < size + CANARY; i++) REQUIRE(block[i] == 0xA5, "machine wrote past its block at %zu", i);

    /* An invalid chart: size 0, init and create refuse it. */
    b->states[1].last_descendant = 99;
    EXPECT_EQ_U(sc_machine_size(&b->chart, NULL), 0);
    sc_machine *m2 = NULL;
    EXPECT_STATUS(sc_machine_init(&m2, block, size, &b->chart, &h->host, NULL), SC_ERR_BAD_CHART);
    REQUIRE(sc_machine_create(&b->chart, &h->host, NULL) == NULL, "create accepted a bad chart");
    b->states[1].last_descendant = 4;      /* restored: the machine above still reads it */
}

/* =========================================================================================
 * More than 64 states: every bit array spans several words
 * ======================================================================================= */

static void appendf(char *buf, size_t size, const char *format, ...) {
    size_t len = strlen(buf);
    if (len && len + 1 < size) buf[len++] = ' ';
    va_list args;
    va_start(args, format);
    vsnprintf(buf + len, size - len, format, args);
    va_end(args);
}

/*  scxml
 *    A                 a_i --next--> a_(i+1) (n<i>)     A --out--> Z (tout)
 *      Ah deep -> a0   Z --back--> Ah (tback)           Z --par--> x59 y58 (tpar)
 *      a0 .. a129      x59 --jump--> a65 (tj)           B --leave--> Z (tleave)
 *    B parallel
 *      r1: x0 .. x59
 *      r2: y0 .. y59
 *    Z
 * Indices: A 1, Ah 2, a_i 3+i, B 133, r1 134, x_i 135+i, r2 195, y_i 196+i, Z 256.
 */
static void test_large_chart_multiword_bit_arrays(void) {
    cb_builder *b = new_chart();
    char name[16], next[16], label[16];
    cb_state(b, NULL, SC_COMPOUND, "A");
    cb_state(b, "A", SC_HISTORY_DEEP, "Ah");
    for (int i = 0; i < 130; i++) {
        snprintf(name, sizeof name, "a%d", i);
        cb_state(b, "A", SC_ATOMIC, name);
    }
    cb_state(b, NULL, SC_PARALLEL, "B");
    cb_state(b, "B", SC_COMPOUND, "r1");
    for (int i = 0; i < 60; i++) {
        snprintf(name, sizeof name, "x%d", i);
        cb_state(b, "r1", SC_ATOMIC, name);
    }
    cb_state(b, "B", SC_COMPOUND, "r2");
    for (int i = 0; i < 60; i++) {
        snprintf(name, sizeof name, "y%d", i);
        cb_state(b, "r2", SC_ATOMIC, name);
    }
    cb_state(b, NULL, SC_ATOMIC, "Z");
    cb_initial(b, "Ah", "a0", false);
    for (int i = 0; i < 129; i++) {
        snprintf(name, sizeof name, "a%d", i);
        snprintf(next, sizeof next, "a%d", i + 1);
        snprintf(label, sizeof label, "n%d", i);
        cb_trans(b, name, "next", next, 0, NULL, label);
    }
    cb_trans(b, "A", "out", "Z", 0, NULL, "tout");
    cb_trans(b, "Z", "back", "Ah", 0, NULL, "tback");
    cb_trans(b, "Z", "par", "x59 y58", 0, NULL, "tpar");
    cb_trans(b, "x59", "jump", "a65", 0, NULL, "tj");
    cb_trans(b, "B", "leave", "Z", 0, NULL, "tleave");
    harness *h = new_harness(b);
    REQUIRE(h, "builder: %s", b->error);
    REQUIRE(st(h, "Z") == 256 && st(h, "y58") == 254 && st(h, "a65") == 68, "unexpected layout");
    /* Exactly-sized heap block: AddressSanitizer reports any access beyond it. */
    size_t size = sc_machine_size(&b->chart, NULL);
    void *block = malloc(size);
    REQUIRE(block, "malloc");
    owned_blocks[owned_block_count++] = block;
    sc_machine *m = NULL;
    EXPECT_STATUS(sc_machine_init(&m, block, size, &b->chart, &h->host, NULL), SC_OK);
    h->m = m;
    own_machine(m);
    EXPECT_EQ_U(sc_machine_configuration_words(m), 5);

    START(h, SC_OK, "enter:A enter:a0", "A a0");
    static char want[8192];
    want[0] = '\0';
    for (int i = 0; i < 70; i++) {             /* across the word boundaries at 64 */
        EXPECT_STATUS(send(h, "next"), SC_OK);
        appendf(want, sizeof want, "exit:a%d take:n%d enter:a%d", i, i, i + 1);
    }
    EXPECT_TRACE(h, want);
    EXPECT_CONFIG(h, "A a70");
    STEP(h, "out", SC_OK, "exit:a70 exit:A take:tout enter:Z", "Z");
    EXPECT_HISTORY(h, "Ah", "a70");
    STEP(h, "back", SC_OK, "exit:Z take:tback enter:A enter:a70", "A a70");
    STEP(h, "out", SC_OK, "exit:a70 exit:A take:tout enter:Z", "Z");
    STEP(h, "par", SC_OK, "exit:Z take:tpar enter:B enter:r1 enter:x59 enter:r2 enter:y58", "B r1 x59 r2 y58");
    /* Exit set spans words 2..3, entry set words 0..1. */
    STEP(h, "jump", SC_OK, "exit:y58 exit:r2 exit:x59 exit:r1 exit:B take:tj enter:A enter:a65", "A a65");
    sc_id ids[5] = { st(h, "y59"), st(h, "B"), st(h, "r1"), st(h, "x0"), st(h, "r2") };
    EXPECT_STATUS(sc_machine_restore(m, ids, 5, false), SC_OK);
    EXPECT_CONFIG(h, "B r1 x0 r2 y59");
    sc_id rec[1] = { st(h, "a129") };
    EXPECT_STATUS(sc_machine_restore_history(m, st(h, "Ah"), rec, 1), SC_OK);
    STEP(h, "leave", SC_OK, "exit:y59 exit:r2 exit:x0 exit:r1 exit:B take:tleave enter:Z", "Z");
    STEP(h, "back", SC_OK, "exit:Z take:tback enter:A enter:a129", "A a129");
    EXPECT_STATUS(sc_machine_stop(m), SC_OK);
    EXPECT_TRACE(h, "exit:a129 exit:A");
}

/* =========================================================================================
 * Chart validation: sc_chart_check
 * ======================================================================================= */

/*  scxml                   a1 --go--> a2 (t1, domain a)
 *    a                     a1 --out--> b (t2, domain scxml)
 *      a1
 *      a2
 *    b
 */
static cb_builder *chart_small(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "a");
    cb_state(b, "a", SC_ATOMIC, "a1");
    cb_state(b, "a", SC_ATOMIC, "a2");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_trans(b, "a1", "go", "a2", 0, NULL, "t1");
    cb_trans(b, "a1", "out", "b", 0, NULL, "t2");
    cb_finish(b);
    return b;
}

#define EXPECT_BAD_CHART(b, message_part, table_name)                                          \
    do {                                                                                       \
        sc_chart_error err_ = { NULL, NULL, 0 };                                               \
        EXPECT_STATUS(sc_chart_check(&(b)->chart, &err_), SC_ERR_BAD_CHART);                  \
        EXPECT_CONTAINS("error message", err_.message, message_part);                          \
        EXPECT_STR("error table", err_.table ? err_.table : "(null)", table_name);             \
        EXPECT_EQ_U(sc_machine_size(&(b)->chart, NULL), 0);                                    \
    } while (0)

static void test_chart_check_accepts_built_charts(void) {
    cb_builder *charts[] = { chart_small(), chart_hierarchy(), chart_parallel(), chart_history(),
                             chart_done(), chart_conflicts(), chart_descriptors(true) };
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        REQUIRE(cb_finish(charts[i]), "builder %zu: %s", i, charts[i]->error);
        sc_chart_error err = { NULL, NULL, 0 };
        sc_status s = sc_chart_check(&charts[i]->chart, &err);
        REQUIRE(s == SC_OK, "chart %zu rejected: %s (%s %u)", i, err.message, err.table, (unsigned)err.index);
    }
}

static void test_chart_check_rejects_parent_after_child(void) {
    /* a1 claims a2 (a later state) as its parent. In a table where every earlier state passed,
     * the state before a1's position already fails the nesting test: a's first follower must be
     * a's child. (The explicit "parent must precede" test in check_state guards the read.) */
    cb_builder *b = chart_small();
    b->states[2].parent = 3;
    EXPECT_BAD_CHART(b, "first state after a parent must be its child", "states");
    b = chart_small();
    b->states[4].parent = SC_NONE;         /* a second root */
    EXPECT_BAD_CHART(b, "sibling", "states");
}

static void test_chart_check_rejects_bad_last_descendant(void) {
    cb_builder *b = chart_small();
    b->states[1].last_descendant = 99;
    EXPECT_BAD_CHART(b, "last_descendant out of range", "states");
    b = chart_small();
    b->states[2].last_descendant = 3;      /* leaf a1 claims its sibling a2 */
    EXPECT_BAD_CHART(b, "first state after a parent must be its child", "states");
    b = chart_small();
    b->states[1].last_descendant = 2;      /* a2 falls outside a's range: t1's domain a no longer
                                            * holds its target (transitions are checked first) */
    EXPECT_BAD_CHART(b, "domain does not contain every target", "transitions");
    b->transitions[cb_find_transition(b, "t1")].target_count = 0;
    b->transitions[cb_find_transition(b, "t1")].domain = SC_NONE;
    EXPECT_BAD_CHART(b, "sibling", "states");
    b = chart_small();
    b->states[0].last_descendant = 3;      /* the root does not cover b */
    EXPECT_BAD_CHART(b, "domain does not contain every target", "transitions");  /* t2 -> b */
    b->transitions[cb_find_transition(b, "t2")].target_count = 0;
    b->transitions[cb_find_transition(b, "t2")].domain = SC_NONE;
    EXPECT_BAD_CHART(b, "root must contain every state", "states");
}

static void test_chart_check_rejects_target_out_of_range(void) {
    cb_builder *b = chart_small();
    sc_id t1 = cb_find_transition(b, "t1");
    b->targets[b->transitions[t1].targets_offset] = 99;
    EXPECT_BAD_CHART(b, "target id out of range", "transitions");
    b = chart_small();
    b->transitions[t1].targets_offset = 1000;
    EXPECT_BAD_CHART(b, "target pool range", "transitions");
}

static void test_chart_check_rejects_domain_without_target(void) {
    cb_builder *b = chart_small();
    sc_id t2 = cb_find_transition(b, "t2");
    EXPECT_EQ_U(b->transitions[t2].domain, 0);
    b->transitions[t2].domain = cb_find_state(b, "a");  /* contains a1 but not b */
    EXPECT_BAD_CHART(b, "domain does not contain every target", "transitions");
    b = chart_small();
    b->transitions[t2].domain = SC_NONE;
    EXPECT_BAD_CHART(b, "domain must be a compound state or the root", "transitions");
    b = chart_small();
    b->transitions[cb_find_transition(b, "t1")].domain = SC_NONE;
    EXPECT_BAD_CHART(b, "domain must be a compound state or the root", "transitions");
}

static void test_chart_check_rejects_missing_initial(void) {
    cb_builder *b = chart_small();
    b->states[1].initial = SC_NONE;
    EXPECT_BAD_CHART(b, "initial/default transition out of range", "states");
    b = chart_small();
    b->states[1].initial = cb_find_transition(b, "t2");  /* targets b, outside a */
    EXPECT_BAD_CHART(b, "initial/default target must be a descendant", "states");
}

static void test_chart_check_rejects_missing_masks(void) {
    cb_builder *b = chart_small();
    b->states[2].own_mask = 0;
    EXPECT_BAD_CHART(b, "own_mask lacks bits", "states");
    b = chart_small();
    b->states[2].path_mask = 0;
    EXPECT_BAD_CHART(b, "path_mask must include", "states");
    b = chart_small();
    b->events[cb_find_event(b, "go")].mask = 0;
    EXPECT_BAD_CHART(b, "mask lacks bits of its prefix chain", "events");
    /* Masks entirely missing (tables built by hand without sc_chart_fill_masks). */
    b = chart_small();
    for (uint32_t s = 0; s < b->chart.state_count; s++) b->states[s].own_mask = b->states[s].path_mask = 0;
    for (uint32_t e = 0; e < b->chart.event_count; e++) b->events[e].mask = 0;
    EXPECT_BAD_CHART(b, "mask", "events");
    sc_chart_fill_masks(&b->chart, b->states, b->events);
    EXPECT_STATUS(sc_chart_check(&b->chart, NULL), SC_OK);
}

static void test_chart_check_rejects_other_breaks(void) {
    cb_builder *b = chart_small();
    b->transitions[cb_find_transition(b, "t1")].source = cb_find_state(b, "b");
    EXPECT_BAD_CHART(b, "domain does not contain the source", "transitions");
    b = chart_small();
    b->transitions[cb_find_transition(b, "t1")].source = cb_find_state(b, "a2");
    EXPECT_BAD_CHART(b, "another source", "states");
    b = chart_small();
    b->transitions[cb_find_transition(b, "t1")].flags |= SC_TRANSITION_DYNAMIC_DOMAIN;
    EXPECT_BAD_CHART(b, "SC_TRANSITION_DYNAMIC_DOMAIN", "transitions");
    b = chart_small();
    b->descriptors[b->transitions[cb_find_transition(b, "t1")].events_offset] = 77;
    EXPECT_BAD_CHART(b, "descriptor is not an event id", "transitions");
    b = chart_small();
    b->states[3].kind = SC_COMPOUND;       /* a2 "compound" without children */
    EXPECT_BAD_CHART(b, "need children", "states");
    b = chart_small();
    b->states[1].flags |= SC_STATE_HAS_HISTORY;
    EXPECT_BAD_CHART(b, "SC_STATE_HAS_HISTORY", "states");
    b = chart_small();
    b->states[2].depth = 7;
    EXPECT_BAD_CHART(b, "depth", "states");
    b = chart_small();
    b->chart.state_count = 1;
    EXPECT_BAD_CHART(b, "at least one state", "states");
    sc_chart_error err = { NULL, NULL, 0 };
    EXPECT_STATUS(sc_chart_check(NULL, &err), SC_ERR_BAD_CHART);
    EXPECT_EQ_U(sc_machine_size(NULL, NULL), 0);
}

/* The root's own transitions (not SCXML, but representable) must pass the path filter too. */
static void test_chart_check_root_masks(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "s");
    cb_trans(b, "scxml", "e", NULL, 0, NULL, "troot");
    REQUIRE(cb_finish(b), "builder: %s", b->error);
    EXPECT_STATUS(sc_chart_check(&b->chart, NULL), SC_OK);
    b->states[0].path_mask = 0;
    b->states[1].path_mask = b->states[1].own_mask;
    EXPECT_BAD_CHART(b, "path_mask must include", "states");
}

/* =========================================================================================
 * Snapshots: sc_machine_history / sc_machine_restore / sc_machine_restore_history
 * ======================================================================================= */

static void test_snapshot_restore_continues_identically(void) {
    MACHINE(a, chart_history(), NULL);
    START(a, SC_OK, "enter:O", "O");
    STEP(a, "s", SC_OK, "exit:O take:ts enter:S enter:S1 enter:S1a", "S S1 S1a");
    STEP(a, "n", SC_OK, "exit:S1a take:tn enter:S1b", "S S1 S1b");
    STEP(a, "out", SC_OK, "exit:S1b exit:S1 exit:S take:tout enter:O", "O");

    /* Snapshot: configuration plus every history record. */
    sc_id config[CB_MAX_STATES], sh[CB_MAX_STATES], sd[CB_MAX_STATES];
    uint32_t nc = sc_machine_active_states(a->m, false, config, CB_MAX_STATES);
    uint32_t nsh = sc_machine_history(a->m, st(a, "Sh"), sh, CB_MAX_STATES);
    uint32_t nsd = sc_machine_history(a->m, st(a, "Sd"), sd, CB_MAX_STATES);
    EXPECT_EQ_U(nc, 1);
    EXPECT_EQ_U(nsh, 1);
    EXPECT_EQ_U(nsd, 1);

    harness *b = machine_with(a->b, NULL);
    REQUIRE(b, "second machine");
    EXPECT_STATUS(sc_machine_restore(b->m, config, nc, false), SC_OK);
    EXPECT_STATUS(sc_machine_restore_history(b->m, st(b, "Sh"), sh, nsh), SC_OK);
    EXPECT_STATUS(sc_machine_restore_history(b->m, st(b, "Sd"), sd, nsd), SC_OK);
    EXPECT_TRACE(b, "");                 /* restoring runs no action */
    EXPECT_CONFIG(b, "O");
    REQUIRE(sc_machine_is_started(b->m) && !sc_machine_is_halted(b->m), "restored machine flags");
    EXPECT_HISTORY(b, "Sd", "S1b");

    /* Both machines continue identically; the restored deep record is used. */
    static const struct { const char *event, *trace, *config; } steps[] = {
        { "sd", "exit:O take:tsd enter:S enter:S1 enter:S1b", "S S1 S1b" },
        { "two", "exit:S1b exit:S1 take:t2 enter:S2", "S S2" },
        { "out", "exit:S2 exit:S take:tout enter:O", "O" },
        { "sh", "exit:O take:tsh enter:S enter:S2", "S S2" },
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        STEP(a, steps[i].event, SC_OK, steps[i].trace, steps[i].config);
        STEP(b, steps[i].event, SC_OK, steps[i].trace, steps[i].config);
    }
}

static void test_snapshot_illegal_configurations_rejected(void) {
    MACHINE(h, chart_history(), NULL);
    sc_id ids[8];
    /* A machine never started stays unstarted after a rejected restore. */
    ids[0] = st(h, "S1a");
    EXPECT_STATUS(sc_machine_restore(h->m, ids, 1, false), SC_ERR_BAD_ARGUMENT);
    REQUIRE(!sc_machine_is_started(h->m), "rejected restore started the machine");
    EXPECT_STATUS(send(h, "s"), SC_ERR_NOT_STARTED);

    START(h, SC_OK, "enter:O", "O");
    static const struct { const char *why; const char *states[5]; } bad[] = {
        { "missing parents", { "S1a" } },
        { "two children of a compound state", { "S", "S1", "S1a", "S2" } },
        { "compound state without an active child", { "S", "S1" } },
        { "two children of the root", { "O", "S", "S2" } },
        { "history state listed", { "S", "Sh", "S2" } },
        { "root listed", { "scxml", "O" } },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t n = 0;
        for (; n < 5 && bad[i].states[n]; n++) ids[n] = st(h, bad[i].states[n]);
        sc_status s = sc_machine_restore(h->m, ids, n, false);
        REQUIRE(s == SC_ERR_BAD_ARGUMENT, "%s: restore returned %d", bad[i].why, (int)s);
        char cfg[256];
        config_text(h, cfg, sizeof cfg);
        REQUIRE(strcmp(cfg, "O") == 0, "%s: configuration changed to \"%s\"", bad[i].why, cfg);
    }
    ids[0] = 999;
    EXPECT_STATUS(sc_machine_restore(h->m, ids, 1, false), SC_ERR_BAD_ARGUMENT);
    EXPECT_STATUS(sc_machine_restore(h->m, ids, 0, false), SC_ERR_BAD_ARGUMENT);   /* empty */
    EXPECT_STATUS(sc_machine_restore(h->m, NULL, 2, false), SC_ERR_BAD_ARGUMENT);
    EXPECT_CONFIG(h, "O");
    EXPECT_TRACE(h, "");
    /* The machine still works. */
    STEP(h, "s", SC_OK, "exit:O take:ts enter:S enter:S1 enter:S1a", "S S1 S1a");
}

static void test_snapshot_parallel_needs_every_region(void) {
    MACHINE(h, chart_parallel(), NULL);
    START(h, SC_OK, "enter:p enter:r1 enter:x1 enter:r2 enter:y1", "p r1 x1 r2 y1");
    sc_id ids[6] = { st(h, "p"), st(h, "r1"), st(h, "x1") };
    EXPECT_STATUS(sc_machine_restore(h->m, ids, 3, false), SC_ERR_BAD_ARGUMENT);
    EXPECT_CONFIG(h, "p r1 x1 r2 y1");
    /* Any order is accepted. */
    sc_id ok[5] = { st(h, "y2"), st(h, "r1"), st(h, "p"), st(h, "r2"), st(h, "x2") };
    EXPECT_STATUS(sc_machine_restore(h->m, ok, 5, false), SC_OK);
    EXPECT_CONFIG(h, "p r1 x2 r2 y2");
    EXPECT_TRACE(h, "");
    STEP(h, "leave", SC_OK, "exit:y2 exit:r2 exit:x2 exit:r1 exit:p take:tl enter:out", "out");
}

static void test_snapshot_restore_history_validation(void) {
    MACHINE(h, chart_history(), NULL);
    START(h, SC_OK, "enter:O", "O");
    sc_id one[1];
    one[0] = st(h, "S1");
    EXPECT_STATUS(sc_machine_restore_history(h->m, st(h, "Sh"), one, 1), SC_OK);
    EXPECT_HISTORY(h, "Sh", "S1");
    one[0] = st(h, "S1a");                 /* shallow records children only */
    EXPECT_STATUS(sc_machine_restore_history(h->m, st(h, "Sh"), one, 1), SC_ERR_BAD_ARGUMENT);
    one[0] = st(h, "S1");                  /* deep records atomic states only */
    EXPECT_STATUS(sc_machine_restore_history(h->m, st(h, "Sd"), one, 1), SC_ERR_BAD_ARGUMENT);
    one[0] = st(h, "Sd");
    EXPECT_STATUS(sc_machine_restore_history(h->m, st(h, "Sh"), one, 1), SC_ERR_BAD_ARGUMENT);
    one[0] = st(h, "O");                   /* not below the history's parent */
    EXPECT_STATUS(sc_machine_restore_history(h->m, st(h, "Sd"), one, 1), SC_ERR_BAD_ARGUMENT);
    one[0] = st(h, "S2");
    EXPECT_STATUS(sc_machine_restore_history(h->m, st(h, "S"), one, 1), SC_ERR_BAD_ARGUMENT);
    EXPECT_STATUS(sc_machine_restore_history(h->m, 999, one, 1), SC_ERR_BAD_ARGUMENT);
    EXPECT_HISTORY(h, "Sh", "S1");         /* unchanged by the rejected calls */
    EXPECT_HISTORY(h, "Sd", "");
    /* An empty record means "not recorded": the default transition is used. */
    EXPECT_STATUS(sc_machine_restore_history(h->m, st(h, "Sh"), NULL, 0), SC_OK);
    STEP(h, "sh", SC_OK, "exit:O take:tsh enter:S hist:Sh enter:S2", "S S2");
}

static void test_snapshot_restore_clears_queues_and_can_halt(void) {
    MACHINE(h, chart_history(), NULL);
    START(h, SC_OK, "enter:O", "O");
    EXPECT_STATUS(sc_machine_raise(h->m, ev(h, "s")), SC_OK);
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "s")), SC_OK);
    sc_id ids[3] = { st(h, "S"), st(h, "S2") };
    EXPECT_STATUS(sc_machine_restore(h->m, ids, 2, false), SC_OK);
    EXPECT_EQ_U(sc_machine_internal_count(h->m), 0);
    EXPECT_EQ_U(h->releases, 2);           /* both queued events were released */
    EXPECT_STATUS(sc_machine_run(h->m), SC_OK);
    EXPECT_TRACE(h, "");
    EXPECT_STATUS(sc_machine_restore(h->m, ids, 2, true), SC_OK);
    REQUIRE(sc_machine_is_halted(h->m), "restored as halted");
    STEP(h, "out", SC_HALTED, "", "S S2");
}

/* =========================================================================================
 * Invocations: started at the end of the macrostep, cancelled on exit
 * ======================================================================================= */

/*  scxml (every state has SC_STATE_HAS_INVOKE)
 *    a        a --go--> b (tgo)      b --> c eventless (tbc)
 *    b        c --tod--> d (ttod)    c --ready--> e (tready)
 *    c
 *    d
 *      d1
 *    e
 */
static cb_builder *chart_invoke(void) {
    cb_builder *b = new_chart();
    const char *names[] = { "a", "b", "c", "d", "d1", "e" };
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_state(b, NULL, SC_ATOMIC, "c");
    cb_state(b, NULL, SC_COMPOUND, "d");
    cb_state(b, "d", SC_ATOMIC, "d1");
    cb_state(b, NULL, SC_ATOMIC, "e");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) cb_flags(b, names[i], SC_STATE_HAS_INVOKE);
    cb_trans(b, "a", "go", "b", 0, NULL, "tgo");
    cb_trans(b, "b", NULL, "c", 0, NULL, "tbc");
    cb_trans(b, "c", "tod", "d", 0, NULL, "ttod");
    cb_trans(b, "c", "ready", "e", 0, NULL, "tready");
    return b;
}

static void test_invoke_start_at_macrostep_end_cancel_on_exit(void) {
    MACHINE(h, chart_invoke(), NULL);
    /* statesToInvoke is processed once the macrostep is complete. */
    START(h, SC_OK, "enter:a invoke:a", "a");
    /* b is entered and exited within the macrostep: it is removed from statesToInvoke, never
     * invoked, so there is nothing of b's to cancel; c is invoked at the end. */
    STEP(h, "go", SC_OK, "exit:a cancel:a take:tgo enter:b exit:b take:tbc enter:c invoke:c", "c");
    /* Invocations start in entryOrder. */
    STEP(h, "tod", SC_OK, "exit:c cancel:c take:ttod enter:d enter:d1 invoke:d invoke:d1", "d d1");
    /* exitInterpreter: onexit then cancel, per state, in exitOrder. */
    EXPECT_STATUS(sc_machine_stop(h->m), SC_OK);
    EXPECT_TRACE(h, "exit:d1 cancel:d1 exit:d cancel:d");
}

static void hook_ready_on_invoke(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "invoke:c") == 0) sc_machine_raise(h->m, ev(h, "ready"));
}

static void test_invoke_raising_continues_macrostep(void) {
    MACHINE(h, chart_invoke(), NULL);
    h->hook = hook_ready_on_invoke;
    START(h, SC_OK, "enter:a invoke:a", "a");
    /* An event raised by an invocation is handled before the macrostep ends (mainEventLoop:
     * "if not internalQueue.isEmpty(): continue"), and e is then invoked. */
    STEP(h, "go", SC_OK, "exit:a cancel:a take:tgo enter:b exit:b take:tbc enter:c invoke:c exit:c cancel:c take:tready enter:e invoke:e", "e");
}

static void test_invoke_not_started_when_halting(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_state(b, NULL, SC_FINAL, "f");
    cb_flags(b, "a", SC_STATE_HAS_INVOKE);
    cb_flags(b, "b", SC_STATE_HAS_INVOKE);
    cb_trans(b, "a", "go", "b", 0, NULL, "tgo");
    cb_trans(b, "b", NULL, "f", 0, NULL, "tbf");
    MACHINE(h, b, NULL);
    START(h, SC_OK, "enter:a invoke:a", "a");
    STEP(h, "go", SC_OK, "exit:a cancel:a take:tgo enter:b exit:b take:tbf enter:f exit:f", "f");
}

/* =========================================================================================
 * The event passed to callbacks
 * ======================================================================================= */

static void hook_raise_i_on_enter_c(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "enter:c") == 0) sc_machine_raise(h->m, ev(h, "i"));
}

static void test_callbacks_receive_triggering_event(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_state(b, NULL, SC_ATOMIC, "c");
    cb_state(b, NULL, SC_ATOMIC, "d");
    cb_trans(b, "a", "go", "b", 0, NULL, "tgo");
    cb_trans(b, "b", NULL, "c", 0, NULL, "tbc");
    cb_trans(b, "c", "i", "d", 0, NULL, "tcd");
    MACHINE(h, b, NULL);
    h->trace_events = true;
    h->hook = hook_raise_i_on_enter_c;
    START(h, SC_OK, "enter:a@-", "a");
    STEP(h, "go", SC_OK, "exit:a@go take:tgo@go enter:b@go exit:b@- take:tbc@- enter:c@- exit:c@i take:tcd@i enter:d@i", "d");
}

static void test_status_texts(void) {
    const sc_status all[] = { SC_OK, SC_UNHANDLED, SC_QUEUED, SC_HALTED, SC_ERR_RUNAWAY, SC_ERR_QUEUE_FULL,
                              SC_ERR_BAD_CHART, SC_ERR_NO_MEMORY, SC_ERR_BAD_ARGUMENT, SC_ERR_NOT_STARTED, SC_ERR_BUSY };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const char *t = sc_status_text(all[i]);
        REQUIRE(t && *t && strcmp(t, "unknown status") != 0, "status %d has no text", (int)all[i]);
    }
    EXPECT_STR("text", sc_status_text((sc_status)42), "unknown status");
}

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

static void gen_children(cb_builder *b, sc_id parent, int depth) {
    const char *pname = b->state_name[parent];
    uint8_t pkind = b->states[parent].kind;
    uint32_t kids = 1 + rnd(3);
    bool has_state = false;
    int histories = 0;
    for (uint32_t i = 0; i < kids && b->state_count < 36; i++) {
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
    gen_children(b, 0, 0);
    const sc_id n = b->state_count;
    for (sc_id s = 0; s < n; s++) {
        if (b->states[s].kind == SC_COMPOUND && s != 0 && rnd(3) == 0)
            cb_initial(b, b->state_name[s], b->state_name[random_descendant(b, s)], rnd(2));
        if (raw_history(b, s))
            cb_initial(b, b->state_name[s], b->state_name[random_descendant(b, b->states[s].parent)], rnd(2));
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
    sc_options o = { REF_QUEUE, 0, RANDOM_MAX_STEPS };
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

/* sc_machine_set_host: observers installed after quiet microsteps were cached see every
 * replayed entry and exit; removed again, the machine still moves. */
static void test_set_host_observers_see_cached_microsteps(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "s");
    cb_state(b, "s", SC_ATOMIC, "s1");
    cb_state(b, NULL, SC_ATOMIC, "t");
    cb_trans(b, "s1", "go", "t", 0, NULL, NULL);
    cb_trans(b, "t", "back", "s1", 0, NULL, NULL);
    MACHINE(h, b, NULL);
    for (sc_id s = 0; s < b->chart.state_count; s++) b->states[s].on_entry = b->states[s].on_exit = SC_NONE;
    sc_host observing = h->host, quiet = { .context = h };
    EXPECT_EQ_U(sc_machine_set_host(h->m, &quiet), SC_OK);
    START(h, SC_OK, "", "s s1");
    for (int i = 0; i < 3; i++) {
        STEP(h, "go", SC_OK, "", "t");
        STEP(h, "back", SC_OK, "", "s s1");
    }
    h->trace_observers = true;
    EXPECT_EQ_U(sc_machine_set_host(h->m, &observing), SC_OK);
    STEP(h, "go", SC_OK, "exited:s1 exited:s taken: entered:t", "t");
    STEP(h, "back", SC_OK, "exited:t taken: entered:s entered:s1", "s s1");
    STEP(h, "go", SC_OK, "exited:s1 exited:s taken: entered:t", "t");
    EXPECT_EQ_U(sc_machine_set_host(h->m, &quiet), SC_OK);
    STEP(h, "back", SC_OK, "", "s s1");
    STEP(h, "go", SC_OK, "", "t");
    EXPECT_EQ_U(sc_machine_set_host(NULL, &quiet), SC_ERR_BAD_ARGUMENT);
    EXPECT_EQ_U(sc_machine_set_host(h->m, NULL), SC_ERR_BAD_ARGUMENT);
}

/* An exit action that changes the observers while a cached microstep is being replayed (which
 * clears the cache under it): the replay still completes as recorded. */
static void hook_drop_taken_on_exit(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "exit:s1") != 0) return;
    sc_host host = h->host;
    host.taken = NULL;
    sc_machine_set_host(h->m, &host);
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

static bool run_plan_case(uint32_t seed, bool quiet, harness *h, ref_machine *r, char *why, size_t size) {
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
    sc_options o = { REF_QUEUE, 0, RANDOM_MAX_STEPS };
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
    for (int step = 0; ok && core >= 0 && !sc_machine_is_halted(m) && step < 64; step++) {
        h->trace[0] = r->trace[0] = '\0';
        sc_id event = rnd(4);                 /* a, b, c, a.x */
        core = sc_machine_dispatch(m, (sc_event){ event, 0, 0 });
        model = ref_dispatch(r, event);
        ok = quiet ? same_configuration(m, b, r, core, model, why, size) : same_state(h, r, core, model, why, size);
        if (!ok) {
            size_t len = strlen(why);
            snprintf(why + len, size - len, "\n      seed %u (%s), at event %d (%s)", (unsigned)seed,
                     quiet ? "quiet" : "observed", step, b->event_name[event]);
            dump_chart(b);
        }
    }
done:
    sc_machine_destroy(m);
    cb_free(b);
    return ok;
}

static void test_plans_replay_like_the_reference_model(void) {
    harness *h = owned_alloc(sizeof *h);
    ref_machine *r = owned_alloc(sizeof *r);
    char why[1536];
    for (uint32_t seed = 1; seed <= RANDOM_CHARTS; seed++) {
        for (int quiet = 0; quiet < 2; quiet++) {
            if (!run_plan_case(seed, quiet, h, r, why, sizeof why)) {
                test_fail(__LINE__, "%s", why);
                return;
            }
        }
    }
}

/* =========================================================================================
 * Runner
 * ======================================================================================= */

typedef struct test_case {
    const char *name;
    void (*run)(void);
} test_case;

#define TEST(fn) { #fn + 5, fn }

static const test_case tests[] = {
    TEST(test_hierarchy_exit_entry_order_and_lcca),
    TEST(test_hierarchy_observers_wrap_actions),
    TEST(test_hierarchy_active_states_accessors),
    TEST(test_parallel_regions_in_document_order),
    TEST(test_parallel_two_regions_one_microstep),
    TEST(test_parallel_deep_target_fills_other_regions),
    TEST(test_history_shallow_default_content),
    TEST(test_history_deep_default_content),
    TEST(test_history_record_and_restore),
    TEST(test_history_self_target_uses_value_recorded_on_exit),
    TEST(test_history_internal_default_without_parent_entry),
    TEST(test_history_shallow_in_parallel),
    TEST(test_history_default_content_runs_only_in_its_microstep),
    TEST(test_history_deep_across_parallel_regions),
    TEST(test_history_recorded_only_for_exited_states),
    TEST(test_history_internal_to_ancestor_history_keeps_domain),
    TEST(test_history_default_below_domain_leaves_parallel_alone),
    TEST(test_history_shallow_value_entered_by_default),
    TEST(test_done_events_compound_parallel_and_halt),
    TEST(test_done_event_carries_donedata),
    TEST(test_done_event_after_final_onentry_events),
    TEST(test_done_no_event_no_donedata),
    TEST(test_done_top_level_final_on_start),
    TEST(test_done_stop_runs_exit_interpreter),
    TEST(test_done_nested_parallel_grandparent_only),
    TEST(test_eventless_before_internal_events),
    TEST(test_eventless_chain_on_start_and_guards_reevaluated),
    TEST(test_internal_vs_external_transitions),
    TEST(test_conflict_descendant_preempts_ancestor),
    TEST(test_conflict_earlier_selected_descendant_keeps_ancestor_out),
    TEST(test_conflict_document_order_wins_between_regions),
    TEST(test_conflict_targetless_never_conflicts),
    TEST(test_conflict_shared_and_parallel_targetless),
    TEST(test_descriptor_matching),
    TEST(test_descriptor_unknown_without_star_is_unhandled),
    TEST(test_descriptor_mask_collisions),
    TEST(test_descriptor_star_is_not_eventless),
    TEST(test_initial_kinds),
    TEST(test_initial_root_targets_listed_out_of_order),
    TEST(test_runaway_eventless_loop_on_start),
    TEST(test_runaway_on_dispatch_machine_stays_usable),
    TEST(test_interrupt_stops_macrostep_between_microsteps),
    TEST(test_runaway_internal_event_loop),
    TEST(test_runaway_bound_is_exact),
    TEST(test_guards_false_skips_to_next_in_document_order),
    TEST(test_guards_first_true_stops_search),
    TEST(test_guards_then_ancestor),
    TEST(test_guards_all_false_unhandled),
    TEST(test_queue_raise_fifo_after_microstep),
    TEST(test_queue_dispatch_inside_action_is_queued),
    TEST(test_queue_post_outside_and_run_fifo),
    TEST(test_queue_run_stops_when_halted),
    TEST(test_queue_internal_overflow),
    TEST(test_queue_done_event_dropped_when_full),
    TEST(test_static_allocation),
    TEST(test_large_chart_multiword_bit_arrays),
    TEST(test_chart_check_accepts_built_charts),
    TEST(test_chart_check_rejects_parent_after_child),
    TEST(test_chart_check_rejects_bad_last_descendant),
    TEST(test_chart_check_rejects_target_out_of_range),
    TEST(test_chart_check_rejects_domain_without_target),
    TEST(test_chart_check_rejects_missing_initial),
    TEST(test_chart_check_rejects_missing_masks),
    TEST(test_chart_check_rejects_other_breaks),
    TEST(test_chart_check_root_masks),
    TEST(test_snapshot_restore_continues_identically),
    TEST(test_snapshot_illegal_configurations_rejected),
    TEST(test_snapshot_parallel_needs_every_region),
    TEST(test_snapshot_restore_history_validation),
    TEST(test_snapshot_restore_clears_queues_and_can_halt),
    TEST(test_invoke_start_at_macrostep_end_cancel_on_exit),
    TEST(test_invoke_raising_continues_macrostep),
    TEST(test_invoke_not_started_when_halting),
    TEST(test_callbacks_receive_triggering_event),
    TEST(test_status_texts),
    TEST(test_differential_random_charts_vs_reference_model),
    TEST(test_plans_replay_like_the_reference_model),
    TEST(test_set_host_observers_see_cached_microsteps),
    TEST(test_set_host_inside_a_replayed_microstep),
};

int main(int argc, char **argv) {
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;   /* optional name filter */
        test_failed = false;
        test_message[0] = '\0';
        tests[i].run();
        release_all();
        if (test_failed) {
            printf("FAIL - %s: %s\n", tests[i].name, test_message);
            failed++;
        } else {
            printf("ok - %s\n", tests[i].name);
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
