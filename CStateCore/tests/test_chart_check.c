/*
 * test_chart_check.c - C-level tests of CStateCore: table validation (sc_chart_check).
 * The conventions (hand-derived traces, the harness) are in test_harness.h.
 */
#include "test_harness.h"

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

const test_case chart_check_tests[] = {
    TEST(test_chart_check_accepts_built_charts),
    TEST(test_chart_check_rejects_parent_after_child),
    TEST(test_chart_check_rejects_bad_last_descendant),
    TEST(test_chart_check_rejects_target_out_of_range),
    TEST(test_chart_check_rejects_domain_without_target),
    TEST(test_chart_check_rejects_missing_initial),
    TEST(test_chart_check_rejects_missing_masks),
    TEST(test_chart_check_rejects_other_breaks),
    TEST(test_chart_check_root_masks),
};
const size_t chart_check_test_count = sizeof chart_check_tests / sizeof chart_check_tests[0];
