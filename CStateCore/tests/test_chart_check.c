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
    b->states[1].last_descendant = 2;      /* a2 falls outside a's range; the tree's shape is
                                            * checked before any transition (t1's domain a no
                                            * longer holds its target a2) */
    EXPECT_BAD_CHART(b, "state after this subtree must be a sibling", "states");
    b->transitions[cb_find_transition(b, "t1")].target_count = 0;
    b->transitions[cb_find_transition(b, "t1")].domain = SC_NONE;
    EXPECT_BAD_CHART(b, "sibling", "states");
    b = chart_small();
    b->states[0].last_descendant = 3;      /* the root does not cover b (shape first, so not
                                            * "t2's domain does not contain b") */
    EXPECT_BAD_CHART(b, "root must contain every state", "states");
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

/* Issue 12, defect 1: target sets that cannot be active together are refused when the chart is
 * checked. A root whose initial transition targets two of its children would enter both (two
 * active children of a compound state: an illegal configuration, and more active atomic states
 * than the machine's scratch arrays are sized for). */
static void test_chart_check_rejects_targets_not_enterable_together(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_state(b, NULL, SC_ATOMIC, "c");
    cb_initial(b, "scxml", "a b c", false);
    REQUIRE(cb_finish(b), "builder: %s", b->error);
    EXPECT_BAD_CHART(b, "targets cannot be active together", "transitions");
    /* Two children of one compound state (not the root). */
    cb_builder *two = new_chart();
    cb_state(two, NULL, SC_COMPOUND, "a");
    cb_state(two, "a", SC_ATOMIC, "a1");
    cb_state(two, "a", SC_ATOMIC, "a2");
    cb_state(two, NULL, SC_ATOMIC, "b");
    cb_trans(two, "b", "go", "a1 a2", 0, NULL, "tboth");
    REQUIRE(cb_finish(two), "builder: %s", two->error);
    EXPECT_BAD_CHART(two, "targets cannot be active together", "transitions");
    /* Regions of a parallel state, and a state with its own descendant, can be entered together. */
    cb_builder *ok = chart_parallel();
    cb_trans(ok, "out", "both", "x2 y2", 0, NULL, "tboth");
    cb_trans(ok, "out", "nested", "r1 x2", 0, NULL, "tnested");
    REQUIRE(cb_finish(ok), "builder: %s", ok->error);
    EXPECT_STATUS(sc_chart_check(&ok->chart, NULL), SC_OK);
}

/* A history target counts by its default targets: "h a1" where h's default is b1 (a1 and b1
 * children of one compound region) is refused; the same chart with default a1 is accepted. */
static void test_chart_check_counts_history_by_its_default(void) {
    for (int legal = 0; legal < 2; legal++) {
        cb_builder *b = new_chart();
        cb_state(b, NULL, SC_ATOMIC, "o");
        cb_state(b, NULL, SC_PARALLEL, "p");
        cb_state(b, "p", SC_HISTORY_DEEP, "h");
        cb_state(b, "p", SC_COMPOUND, "r1");
        cb_state(b, "r1", SC_ATOMIC, "a1");
        cb_state(b, "r1", SC_ATOMIC, "b1");
        cb_state(b, "p", SC_COMPOUND, "r2");
        cb_state(b, "r2", SC_ATOMIC, "a2");
        cb_initial(b, "h", legal ? "a1" : "b1", false);
        cb_trans(b, "o", "back", "h a1", 0, NULL, "tback");
        REQUIRE(cb_finish(b), "builder: %s", b->error);
        if (legal) EXPECT_STATUS(sc_chart_check(&b->chart, NULL), SC_OK);
        else EXPECT_BAD_CHART(b, "targets cannot be active together", "transitions");
    }
}

/* An initial transition that targets a history state besides other states is refused: the
 * history's recorded value is only known at run time. */
static void test_chart_check_rejects_initial_history_with_other_targets(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_PARALLEL, "p");
    cb_state(b, "p", SC_HISTORY_SHALLOW, "h");
    cb_state(b, "p", SC_COMPOUND, "r1");
    cb_state(b, "r1", SC_ATOMIC, "a1");
    cb_state(b, "p", SC_COMPOUND, "r2");
    cb_state(b, "r2", SC_ATOMIC, "a2");
    cb_initial(b, "h", "a1", false);
    cb_initial(b, "scxml", "h a2", false);
    REQUIRE(cb_finish(b), "builder: %s", b->error);
    EXPECT_BAD_CHART(b, "an initial transition that targets a history state must have no other target", "states");
}

/* Issue 12, defect 2: a child walk that follows an unchecked last_descendant never ended.
 * Two states, the second (a leaf of the root) claiming last_descendant 0: refused, in bounded
 * time, before any walk. */
static void test_chart_check_terminates_on_a_backward_last_descendant(void) {
    static const sc_state states[] = {
        { .parent = SC_NONE, .last_descendant = 1, .initial = 0, .on_entry = SC_NONE, .on_exit = SC_NONE,
          .done_event = SC_NONE, .kind = SC_COMPOUND },
        { .parent = 0, .last_descendant = 0, .on_entry = SC_NONE, .on_exit = SC_NONE,
          .done_event = SC_NONE, .kind = SC_ATOMIC, .depth = 1 },
    };
    static const sc_id targets[] = { 1 };
    static const sc_transition transitions[] = {
        { .source = 0, .domain = 0, .targets_offset = 0, .target_count = 1, .guard = SC_NONE, .action = SC_NONE },
    };
    sc_chart chart = { .state_count = 2, .transition_count = 1, .target_pool_count = 1,
                       .states = states, .transitions = transitions, .targets = targets };
    sc_chart_error err = { NULL, NULL, 0 };
    EXPECT_STATUS(sc_chart_check(&chart, &err), SC_ERR_BAD_CHART);
    EXPECT_STR("error message", err.message, "last_descendant out of range");
    EXPECT_EQ_U(err.index, 1);
    EXPECT_EQ_U(sc_machine_size(&chart, NULL), 0);
}

/* Issue 12, defect 2: sc_chart_fill_masks read the transitions a state claims without checking
 * them against transition_count. The tables live in blocks of exactly their size, so under
 * AddressSanitizer (make test-sanitize) a read past them is reported; now the tables are checked
 * first and nothing is written. */
static void test_fill_masks_checks_the_tables_first(void) {
    sc_state *states = owned_alloc(2 * sizeof *states);
    sc_transition *transitions = owned_alloc(1 * sizeof *transitions);
    sc_id *targets = owned_alloc(sizeof *targets);
    states[0] = (sc_state){ .parent = SC_NONE, .last_descendant = 1, .first_transition = 0, .transition_count = 0,
                            .initial = 0, .on_entry = SC_NONE, .on_exit = SC_NONE, .done_event = SC_NONE,
                            .kind = SC_COMPOUND };
    states[1] = (sc_state){ .parent = 0, .last_descendant = 1, .first_transition = 0, .transition_count = 5,
                            .initial = SC_NONE, .on_entry = SC_NONE, .on_exit = SC_NONE, .done_event = SC_NONE,
                            .kind = SC_ATOMIC, .depth = 1 };
    transitions[0] = (sc_transition){ .source = 0, .domain = 0, .targets_offset = 0, .target_count = 1,
                                      .guard = SC_NONE, .action = SC_NONE };
    targets[0] = 1;
    sc_chart chart = { .state_count = 2, .transition_count = 1, .target_pool_count = 1,
                       .states = states, .transitions = transitions, .targets = targets };
    EXPECT_STATUS(sc_chart_fill_masks(&chart, states, NULL), SC_ERR_BAD_CHART);
    EXPECT_EQ_U(states[1].own_mask, 0);
    /* The same state with its one transition range right: filled. */
    states[1].transition_count = 0;
    EXPECT_STATUS(sc_chart_fill_masks(&chart, states, NULL), SC_OK);
    EXPECT_STATUS(sc_chart_check(&chart, NULL), SC_OK);
}

/* sc_chart_can_be_active_together, on chart_parallel: p (r1: x1 x2, r2: y1 y2), out. */
static void test_chart_can_be_active_together(void) {
    cb_builder *b = chart_parallel();
    REQUIRE(cb_finish(b), "builder: %s", b->error);
    const sc_chart *c = &b->chart;
    sc_id x1 = cb_find_state(b, "x1"), x2 = cb_find_state(b, "x2"), y2 = cb_find_state(b, "y2");
    sc_id r1 = cb_find_state(b, "r1"), p = cb_find_state(b, "p"), out = cb_find_state(b, "out");
    EXPECT_EQ_U(sc_chart_can_be_active_together(c, x1, y2), true);     /* regions of p */
    EXPECT_EQ_U(sc_chart_can_be_active_together(c, r1, x1), true);     /* ancestor */
    EXPECT_EQ_U(sc_chart_can_be_active_together(c, x2, x2), true);
    EXPECT_EQ_U(sc_chart_can_be_active_together(c, x1, x2), false);    /* children of r1 */
    EXPECT_EQ_U(sc_chart_can_be_active_together(c, y2, out), false);   /* under the root */
    EXPECT_EQ_U(sc_chart_can_be_active_together(c, p, out), false);
    EXPECT_EQ_U(sc_chart_can_be_active_together(c, x1, c->state_count), false);
    EXPECT_EQ_U(sc_chart_can_be_active_together(NULL, x1, x2), false);
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
    TEST(test_chart_check_rejects_targets_not_enterable_together),
    TEST(test_chart_check_counts_history_by_its_default),
    TEST(test_chart_check_rejects_initial_history_with_other_targets),
    TEST(test_chart_check_terminates_on_a_backward_last_descendant),
    TEST(test_fill_masks_checks_the_tables_first),
    TEST(test_chart_can_be_active_together),
};
const size_t chart_check_test_count = sizeof chart_check_tests / sizeof chart_check_tests[0];
