/*
 * test_structure.c - C-level tests of CStateCore: the tree: hierarchy, parallel states, initial states, internal and external transitions.
 * The conventions (hand-derived traces, the harness) are in test_harness.h.
 */
#include "test_harness.h"

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
cb_builder *chart_hierarchy(void) {
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
    EXPECT_EQ_U(sc_machine_configuration_words(h->m), SC_BIT_WORDS(h->b->chart.state_count));
    /* Bit s of word s / SC_CONFIG_WORD_BITS: exactly a, a1 and a11. */
    const sc_word *words = sc_machine_configuration(h->m);
    for (sc_id s = 0; s < h->b->chart.state_count; s++) {
        bool set = (words[s / SC_CONFIG_WORD_BITS] >> (s % SC_CONFIG_WORD_BITS)) & 1u;
        EXPECT_EQ_U(set, s == st(h, "a") || s == st(h, "a1") || s == st(h, "a11"));
    }
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
cb_builder *chart_parallel(void) {
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

const test_case structure_tests[] = {
    TEST(test_hierarchy_exit_entry_order_and_lcca),
    TEST(test_hierarchy_observers_wrap_actions),
    TEST(test_hierarchy_active_states_accessors),
    TEST(test_parallel_regions_in_document_order),
    TEST(test_parallel_two_regions_one_microstep),
    TEST(test_parallel_deep_target_fills_other_regions),
    TEST(test_internal_vs_external_transitions),
    TEST(test_initial_kinds),
    TEST(test_initial_root_targets_listed_out_of_order),
};
const size_t structure_test_count = sizeof structure_tests / sizeof structure_tests[0];
