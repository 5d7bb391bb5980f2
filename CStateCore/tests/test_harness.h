/*
 * test_harness.h - what every C test file of CStateCore shares: a tiny test framework and the
 * harness (a machine over a chart built with chart_builder, with tracing host callbacks).
 *
 * Every test builds a small chart with chart_builder, runs a machine whose host callbacks
 * append tokens to a trace ("enter:s1", "exit:s1", "take:t3", "init:s", "hist:h", "invoke:s",
 * "cancel:s", "error:t" (sc_host.error: transition t not taken), and with the optional switches
 * "guard:g", "entered:s", "exited:s", "taken:t"),
 * and compares the trace and the configuration with values derived BY HAND from the W3C
 * algorithm (Appendix D of SCXML 1.0; text in Tests/W3C/algorithm.txt). The
 * comment above each expectation names the steps of the algorithm that produce it.
 *
 * Each test file ends with a table of its tests (NAME_tests, NAME_test_count) that
 * test_main.c runs.
 */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include "chart_builder.h"
#include "reference_model.h"
#include "sc_core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the framework ------------------------------------------------------------------------ */

typedef struct test_case {
    const char *name;
    void (*run)(void);
} test_case;

/* The runner prints the name without its "test_" prefix. */
#define TEST(fn) { #fn, fn }

extern bool test_failed;
extern char test_message[2048];

/* Records the first failure of the running test (later ones are ignored). */
void test_fail(int line, const char *format, ...);

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

/* ---- the harness ------------------------------------------------------------------------- */

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

/* Everything a test allocates is released after it (release_all), even when it returns early. */
void *owned_alloc(size_t size);
/* Frees `block` (from malloc) with the rest. */
void own_block(void *block);
void own_machine(sc_machine *m);
void release_all(void);
cb_builder *new_chart(void);

void trace_add(harness *h, const char *format, ...);
const char *event_name(const harness *h, const sc_event *e);
/* Appends the names of the active states (document order) to buf. */
void config_text(const harness *h, char *buf, size_t size);

/* Binds h to chart b with a host that has every callback. */
void harness_bind(harness *h, cb_builder *b);
/* A harness whose host has every callback, without a machine. NULL if the chart is bad. */
harness *new_harness(cb_builder *b);
/* A harness with a machine made by sc_machine_create, not started. NULL on failure. */
harness *machine_with(cb_builder *b, const sc_options *options);

/* The event, state, guard of that name (the program exits on a name the chart lacks). */
sc_event ev(const harness *h, const char *name);
sc_id st(const harness *h, const char *name);
void set_guard(harness *h, const char *name, bool value);

static inline sc_status send_event(harness *h, const char *name) { return sc_machine_dispatch(h->m, ev(h, name)); }

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
        EXPECT_STATUS(send_event(h, event), status);                                                 \
        EXPECT_TRACE(h, trace);                                                                \
        EXPECT_CONFIG(h, config);                                                              \
    } while (0)

#define MACHINE(h, b, options)                                                                 \
    harness *h = machine_with(b, options);                                                     \
    REQUIRE(h != NULL, "could not build the machine: %s", (b)->error[0] ? (b)->error : "sc_machine_create failed")

/* Charts used by several test files; each is defined in the file of its topic. */
cb_builder *chart_hierarchy(void);                  /* test_structure.c */
cb_builder *chart_parallel(void);                   /* test_structure.c */
cb_builder *chart_history(void);                    /* test_history.c */
cb_builder *chart_done(void);                       /* test_completion.c */
cb_builder *chart_conflicts(void);                  /* test_selection.c */
cb_builder *chart_descriptors(bool with_star);      /* test_selection.c */

/* The recorded value of a history state as state names (test_history.c). */
void history_text(const harness *h, const char *history, char *buf, size_t size);
#define EXPECT_HISTORY(h, history, want)                                                       \
    do { char hb_[256]; history_text(h, history, hb_, sizeof hb_); EXPECT_STR("history " history, hb_, want); } while (0)

#endif /* TEST_HARNESS_H */
