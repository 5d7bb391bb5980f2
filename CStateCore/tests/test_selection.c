/*
 * test_selection.c - C-level tests of CStateCore: transition selection: conflicts, event descriptors, guards.
 * The conventions (hand-derived traces, the harness) are in test_harness.h.
 */
#include "test_harness.h"

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
cb_builder *chart_conflicts(void) {
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

cb_builder *chart_descriptors(bool with_star) {
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
        EXPECT_STATUS(send_event(h, cases[i].event), SC_OK);
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
 * sc_machine_can_handle: selectTransitions as a question
 * ======================================================================================= */

/* The answer follows the same walk as a dispatch (guards in document order, then the
 * ancestors), and nothing changes: no action, no configuration change. */
static void test_can_handle_asks_without_taking(void) {
    harness *h = guard_machine(false, false, false);
    REQUIRE(h, "machine");
    REQUIRE(!sc_machine_can_handle(h->m, ev(h, "e"), true), "not started: nothing is handled");
    EXPECT_TRACE(h, "");
    START(h, SC_OK, "enter:P enter:s", "P s");
    REQUIRE(!sc_machine_can_handle(h->m, ev(h, "e"), true), "every guard false");
    EXPECT_TRACE(h, "guard:g1 guard:g2 guard:g3");
    REQUIRE(sc_machine_can_handle(h->m, ev(h, "e"), false), "names match when guards are not asked");
    EXPECT_TRACE(h, "");
    set_guard(h, "g3", true);               /* the ancestor's transition */
    REQUIRE(sc_machine_can_handle(h->m, ev(h, "e"), true), "P's transition is enabled");
    EXPECT_TRACE(h, "guard:g1 guard:g2 guard:g3");
    set_guard(h, "g1", true);               /* the first true guard stops the walk */
    REQUIRE(sc_machine_can_handle(h->m, ev(h, "e"), true), "s's first transition is enabled");
    EXPECT_TRACE(h, "guard:g1");
    REQUIRE(sc_machine_can_handle(h->m, ev(h, "other"), true), "other (guard g4 true)");
    EXPECT_TRACE(h, "guard:g4");
    EXPECT_CONFIG(h, "P s");
    REQUIRE(!sc_machine_can_handle(NULL, ev(h, "e"), true), "NULL machine");
}

/* Name matching is the dispatch's: token prefixes, "*", unknown ids. */
static void test_can_handle_matches_names_as_dispatch(void) {
    MACHINE(h, chart_descriptors(false), NULL);
    START(h, SC_OK, "enter:s", "s");
    static const struct { const char *event; bool handled; } cases[] = {
        { "error", true }, { "error.send.failed", true }, { "errors", false },
        { "a.c", true }, { "ab", false }, { "x", false }, { "x.y.z", true }, { "x.yz", false },
        { "q", true }, { "qq", false }, { "?", false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        REQUIRE(sc_machine_can_handle(h->m, ev(h, cases[i].event), true) == cases[i].handled,
                "can_handle(%s) should be %s", cases[i].event, cases[i].handled ? "true" : "false");
    sc_event wild = { 4000000000u, 0, 0 };
    REQUIRE(!sc_machine_can_handle(h->m, wild, true), "an id beyond the chart's events");
    EXPECT_TRACE(h, "");
    MACHINE(star, chart_descriptors(true), NULL);
    START(star, SC_OK, "enter:s", "s");
    REQUIRE(sc_machine_can_handle(star->m, ev(star, "?"), true), "\"*\" matches an unknown event");
    REQUIRE(sc_machine_can_handle(star->m, wild, true), "\"*\" matches an id beyond the chart's events");
}

/* Every active atomic state is asked (a parallel state's second region too); a halted machine
 * handles nothing. */
static void test_can_handle_parallel_regions_and_halted(void) {
    MACHINE(h, chart_conflicts(), NULL);
    START(h, SC_OK, CONFLICT_START, "p r1 x1 r2 y1");
    REQUIRE(sc_machine_can_handle(h->m, ev(h, "f"), true), "f: y1 in the second region");
    REQUIRE(sc_machine_can_handle(h->m, ev(h, "k"), true), "k: the parallel ancestor");
    STEP(h, "e", SC_OK, "exit:x1 take:tx_e enter:x2", "p r1 x2 r2 y1");
    REQUIRE(sc_machine_can_handle(h->m, ev(h, "m"), false), "m: x2 has none, y1 (second region) has one");
    STEP(h, "f", SC_OK, "exit:y1 take:ty_f enter:y2", "p r1 x2 r2 y2");
    REQUIRE(!sc_machine_can_handle(h->m, ev(h, "m"), false), "m: neither x2, y2 nor an ancestor has one");
    EXPECT_STATUS(sc_machine_stop(h->m), SC_OK);
    REQUIRE(!sc_machine_can_handle(h->m, ev(h, "f"), true), "halted");
}

const test_case selection_tests[] = {
    TEST(test_conflict_descendant_preempts_ancestor),
    TEST(test_conflict_earlier_selected_descendant_keeps_ancestor_out),
    TEST(test_conflict_document_order_wins_between_regions),
    TEST(test_conflict_targetless_never_conflicts),
    TEST(test_conflict_shared_and_parallel_targetless),
    TEST(test_descriptor_matching),
    TEST(test_descriptor_unknown_without_star_is_unhandled),
    TEST(test_descriptor_mask_collisions),
    TEST(test_descriptor_star_is_not_eventless),
    TEST(test_guards_false_skips_to_next_in_document_order),
    TEST(test_guards_first_true_stops_search),
    TEST(test_guards_then_ancestor),
    TEST(test_guards_all_false_unhandled),
    TEST(test_can_handle_asks_without_taking),
    TEST(test_can_handle_matches_names_as_dispatch),
    TEST(test_can_handle_parallel_regions_and_halted),
};
const size_t selection_test_count = sizeof selection_tests / sizeof selection_tests[0];
