/*
 * test_switches.c - one program per core build switch (Makefile: test-switches): built with a
 * SC_CONFIG_NO_* switch (or SC_CONFIG_ID_BITS below 32), the core refuses a chart that needs the feature with SC_ERR_UNSUPPORTED
 * (sc_chart_check naming the table and index, sc_machine_create returning NULL), and still runs
 * a chart that does not.
 *
 * The charts: two states, a --go--> b; "needs" adds what the switch leaves out, and
 * REFUSED_TABLE, REFUSED_INDEX are where sc_chart_check must find it.
 */
#include "sc_core.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            failures++;                                                        \
            printf("FAIL line %d: ", __LINE__);                                \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
        }                                                                      \
    } while (0)

/* root 0 (initial -> a), a 1, b 2; event go 0. Transition 0: a --go--> b; 1: the root's initial. */
static sc_state states[3];
static sc_transition transitions[2];
static const sc_id targets[] = { 2, 1 };
static const sc_id descriptors[] = { 0 };
/* With narrow ids (SC_CONFIG_ID_BITS), the chart that needs more has as many events as the ids
 * reserve at their top: one more than the build can number. */
#if SC_CONFIG_ID_BITS < 32
#define EVENT_SLOTS ((uint32_t)SC_EVENT_UNKNOWN)
#else
#define EVENT_SLOTS 1u
#endif
static sc_event_info events[EVENT_SLOTS];

static sc_chart make_chart(bool needs_feature) {
    uint32_t chart_flags = 0, event_count = 1;
    for (uint32_t e = 0; e < EVENT_SLOTS; e++) events[e] = (sc_event_info){ .prefix = SC_NONE, .mask = sc_event_bit((sc_id)e) };
    memset(states, 0, sizeof states);
    memset(transitions, 0, sizeof transitions);
    states[0] = (sc_state){ .parent = SC_NONE, .last_descendant = 2, .kind = SC_COMPOUND, .initial = 1,
                            .first_transition = 2, .on_entry = SC_NONE, .on_exit = SC_NONE, .done_event = SC_NONE };
    for (sc_id s = 1; s <= 2; s++)
        states[s] = (sc_state){ .parent = 0, .last_descendant = s, .kind = SC_ATOMIC, .initial = SC_NONE,
                                .first_transition = s == 1 ? 0 : 2, .transition_count = s == 1 ? 1 : 0, .depth = 1,
                                .on_entry = SC_NONE, .on_exit = SC_NONE, .done_event = SC_NONE };
    transitions[0] = (sc_transition){ .source = 1, .domain = 0, .targets_offset = 0, .target_count = 1,
                                      .events_offset = 0, .event_count = 1, .guard = SC_NONE, .action = SC_NONE };
    transitions[1] = (sc_transition){ .source = 0, .domain = 0, .targets_offset = 1, .target_count = 1,
                                      .guard = SC_NONE, .action = SC_NONE };
    if (needs_feature) {
#if SC_CONFIG_NO_GUARDS
        transitions[0].guard = 0;           /* a guarded go */
#define REFUSED_TABLE "transitions"
#define REFUSED_INDEX 0
#elif SC_CONFIG_NO_PARALLEL
        states[2].kind = SC_PARALLEL;       /* b: a parallel state (of no regions) */
#define REFUSED_TABLE "states"
#define REFUSED_INDEX 2
#elif SC_CONFIG_NO_HISTORY
        states[2].kind = SC_HISTORY_DEEP;   /* b: a history state */
#define REFUSED_TABLE "states"
#define REFUSED_INDEX 2
#elif SC_CONFIG_NO_EVENTLESS
        transitions[0].event_count = 0;     /* a --> b without an event */
#define REFUSED_TABLE "transitions"
#define REFUSED_INDEX 0
#elif SC_CONFIG_NO_CONTENT
        states[1].on_entry = 0;             /* a runs an action on entry */
#define REFUSED_TABLE "states"
#define REFUSED_INDEX 1
#elif SC_CONFIG_NO_INVOKE
        states[2].flags = SC_STATE_HAS_INVOKE;  /* b starts an invocation */
#define REFUSED_TABLE "states"
#define REFUSED_INDEX 2
#elif SC_CONFIG_NO_FINAL
        states[2].kind = SC_FINAL;          /* b: a top-level final state */
#define REFUSED_TABLE "states"
#define REFUSED_INDEX 2
#elif SC_CONFIG_NO_DELAYED
        chart_flags = SC_CHART_DELAYED_SENDS;   /* its content starts timers */
#define REFUSED_TABLE "chart"
#define REFUSED_INDEX 0
#elif SC_CONFIG_ID_BITS < 32
        event_count = EVENT_SLOTS;          /* more events than the ids can number */
#define REFUSED_TABLE "events"
#define REFUSED_INDEX 0
#else
#define NOTHING_REFUSED 1           /* SC_CONFIG_NO_QUEUE alone: no table needs the external queue */
#define REFUSED_TABLE "(a switch)"
#define REFUSED_INDEX 0
#endif
    }
    sc_chart c = { .states = states, .state_count = 3, .transitions = transitions, .transition_count = 2,
                   .events = events, .event_count = event_count, .targets = targets, .target_pool_count = 2,
                   .descriptors = descriptors, .descriptor_pool_count = 1, .flags = chart_flags };
    sc_chart_fill_masks(&c, states, events);
    return c;
}

static void noop_action(void *context, sc_machine *m, sc_id action, const sc_event *event) {
    (void)context, (void)m, (void)action, (void)event;
}

int main(void) {
    sc_host host = { .action = noop_action };
    sc_chart plain = make_chart(false);
    CHECK(sc_chart_check(&plain, NULL) == SC_OK, "a chart without the feature is accepted");
    sc_machine *m = sc_machine_create(&plain, &host, NULL);
    CHECK(m != NULL, "a machine of the chart without the feature is made");
    if (m) {
        CHECK(sc_machine_start(m) == SC_OK && sc_machine_is_active(m, 1), "it starts in a");
        CHECK(sc_machine_dispatch(m, (sc_event){ 0, 0, 0 }) == SC_OK && sc_machine_is_active(m, 2), "go takes it to b");
        /* Every build halts a machine by sc_machine_stop (SC_CONFIG_NO_FINAL: the only way): the
         * configuration stays readable, events are refused. */
        CHECK(sc_machine_stop(m) == SC_OK && sc_machine_is_halted(m) && sc_machine_is_active(m, 2), "stop halts it in b");
        CHECK(sc_machine_dispatch(m, (sc_event){ 0, 0, 0 }) == SC_HALTED, "a halted machine takes no event");
#if SC_CONFIG_NO_CONTENT
        /* No internal queue in this build: a raise is refused, and nothing is queued. */
        CHECK(sc_machine_raise(m, (sc_event){ 0, 0, 0 }) == SC_ERR_UNSUPPORTED && sc_machine_internal_count(m) == 0,
              "sc_machine_raise is refused with SC_ERR_UNSUPPORTED");
#endif
#if SC_CONFIG_ID_BITS < 32 && !SC_CONFIG_NO_CONTENT
        /* 16-bit queue positions: more slots than they count are refused, nothing changed. */
        static sc_event storage[70000];
        CHECK(sc_machine_set_internal_queue(m, storage, 70000) == SC_ERR_BAD_ARGUMENT,
              "an internal queue of 70,000 slots is refused with narrow ids");
        CHECK(sc_machine_set_internal_queue(m, storage, 65535) == SC_OK, "one of 65,535 slots is taken");
#endif
        sc_machine_destroy(m);
    }
#if SC_CONFIG_ID_BITS < 32 && !SC_CONFIG_NO_QUEUE
    sc_options many = { .external_queue_capacity = 70000 };
    CHECK(sc_machine_size(&plain, &many) == 0, "an external queue of 70,000 slots is refused with narrow ids");
    many.external_queue_capacity = 60000;   /* the slots may reach past 64 KiB: none is addressed by offset */
    CHECK(sc_machine_size(&plain, &many) > 60000u * sizeof(sc_event), "one of 60,000 slots is laid out");
#endif
#if SC_CONFIG_NO_QUEUE
    /* No external queue: posting and running are refused (nothing is queued), dispatching works;
     * a build where nothing loops keeps no interrupt request (sc_machine_interrupt does nothing). */
    m = sc_machine_create(&plain, &host, NULL);
    CHECK(m != NULL, "a machine is made without an external queue");
    if (m) {
        CHECK(sc_machine_start(m) == SC_OK, "it starts");
        CHECK(sc_machine_post(m, (sc_event){ 0, 0, 0 }) == SC_ERR_UNSUPPORTED, "sc_machine_post is refused");
        CHECK(sc_machine_run(m) == SC_ERR_UNSUPPORTED, "sc_machine_run is refused");
        sc_machine_interrupt(m, true);
        CHECK(sc_machine_dispatch(m, (sc_event){ 0, 0, 0 }) == SC_OK && sc_machine_is_active(m, 2),
              "go takes it to b%s", SC_KEEPS_STEPS_ ? "" : " (an interrupt request has nothing to stop)");
        sc_machine_destroy(m);
    }
    sc_options none = { .external_queue_capacity = SC_QUEUE_NONE };
    CHECK(sc_machine_size(&plain, NULL) == sc_machine_size(&plain, &none), "no block keeps external slots");
#endif
#ifndef NOTHING_REFUSED
    sc_chart needing = make_chart(true);
    sc_chart_error error = { 0 };
    sc_status status = sc_chart_check(&needing, &error);
    CHECK(status == SC_ERR_UNSUPPORTED, "a chart that needs the feature is refused: status %d", (int)status);
    CHECK(error.table && strcmp(error.table, REFUSED_TABLE) == 0 && error.index == REFUSED_INDEX,
          "the refusal names %s %u: %s %u", REFUSED_TABLE, (unsigned)REFUSED_INDEX,
          error.table ? error.table : "(none)", (unsigned)error.index);
    CHECK(error.message && strstr(error.message, "SC_CONFIG_"), "the message names the switch: %s",
          error.message ? error.message : "(none)");
#if !SC_CONFIG_NO_TABLE_CHECK
    /* With SC_CONFIG_NO_TABLE_CHECK a machine trusts its tables (generated NAME.c refuses such a
     * build at compile time, scripts/suites/60-generated-c.sh); sc_chart_check still
     * answers, above. */
    CHECK(sc_machine_create(&needing, &host, NULL) == NULL, "no machine is made of it");
#endif
#else
    sc_chart_error error = { 0 };
    sc_status status;
#endif
    /* A broken invariant (the transition's domain is a leaf, not its source's ancestor): the full
     * check refuses it; with SC_CONFIG_NO_TABLE_CHECK only features are checked, so it passes. */
    sc_chart broken = make_chart(false);
    transitions[0].domain = 2;
    status = sc_chart_check(&broken, &error);
    CHECK(status == (SC_CONFIG_NO_TABLE_CHECK ? SC_OK : SC_ERR_BAD_CHART),
          "a broken invariant: status %d with SC_CONFIG_NO_TABLE_CHECK=%d", (int)status, SC_CONFIG_NO_TABLE_CHECK);
    printf("%s: %d failed\n", SWITCH_NAME, failures);
    return failures ? 1 : 0;
}
