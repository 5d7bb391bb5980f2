/*
 * test_history.c - C-level tests of CStateCore: history states.
 * The conventions (hand-derived traces, the harness) are in test_harness.h.
 */
#include "test_harness.h"

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
cb_builder *chart_history(void) {
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
void history_text(const harness *h, const char *history, char *buf, size_t size) {
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

/* Issue 12, defect 1, at run time: a recorded history value next to other targets.
 *
 *  scxml               o --in--> p,  o --back--> h a1 a2 (tback),  o --home--> h (thome)
 *    o                 aK --flip--> bK (tflipK),  p --out--> o (tout)
 *    p (parallel)      b1 --jump--> h a2 (tjump)
 *      h deep, default a1 a2 a3 (so the chart passes sc_chart_check)
 *      r1: a1 b1   r2: a2 b2   r3: a3 b3
 *
 * With b1 b2 b3 recorded, "h a1 a2" resolves to b1 b2 b3 a1 a2: a1 and b1 are both children of
 * the compound r1, an illegal configuration (and 5 active atomic states where 3 fit the
 * machine's scratch list). The transition is not taken: sc_host.error reports it, nothing is
 * exited or entered, the machine goes on. */
static cb_builder *chart_history_conflict(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "o");
    cb_state(b, NULL, SC_PARALLEL, "p");
    cb_state(b, "p", SC_HISTORY_DEEP, "h");
    const char *regions[] = { "r1", "r2", "r3" }, *as[] = { "a1", "a2", "a3" }, *bs[] = { "b1", "b2", "b3" };
    const char *flips[] = { "tflip1", "tflip2", "tflip3" };
    for (int k = 0; k < 3; k++) {
        cb_state(b, "p", SC_COMPOUND, regions[k]);
        cb_state(b, regions[k], SC_ATOMIC, as[k]);
        cb_state(b, regions[k], SC_ATOMIC, bs[k]);
        cb_trans(b, as[k], "flip", bs[k], 0, NULL, flips[k]);
    }
    cb_initial(b, "h", "a1 a2 a3", false);
    cb_trans(b, "o", "in", "p", 0, NULL, "tin");
    cb_trans(b, "o", "back", "h a1 a2", 0, NULL, "tback");
    cb_trans(b, "o", "home", "h", 0, NULL, "thome");
    cb_trans(b, "p", "out", "o", 0, NULL, "tout");
    cb_trans(b, "b1", "jump", "h a2", 0, NULL, "tjump");
    return b;
}

static void test_history_value_that_cannot_join_other_targets_is_not_taken(void) {
    MACHINE(h, chart_history_conflict(), NULL);
    START(h, SC_OK, "enter:o", "o");
    STEP(h, "in", SC_OK, "exit:o take:tin enter:p enter:r1 enter:a1 enter:r2 enter:a2 enter:r3 enter:a3",
         "p r1 a1 r2 a2 r3 a3");
    /* One microstep, three transitions: exitOrder (reverse document order), then each
     * transition's content in document order, then entryOrder. */
    STEP(h, "flip", SC_OK,
         "exit:a3 exit:a2 exit:a1 take:tflip1 take:tflip2 take:tflip3 enter:b1 enter:b2 enter:b3",
         "p r1 b1 r2 b2 r3 b3");
    STEP(h, "out", SC_OK, "exit:b3 exit:r3 exit:b2 exit:r2 exit:b1 exit:r1 exit:p take:tout enter:o", "o");
    EXPECT_HISTORY(h, "h", "b1 b2 b3");
    /* h resolves to b1 b2 b3; with a1 a2: not taken, reported, the configuration unchanged. */
    STEP(h, "back", SC_OK, "error:tback", "o");
    EXPECT_HISTORY(h, "h", "b1 b2 b3");
    /* h alone is legal: its recorded value. */
    STEP(h, "home", SC_OK,
         "exit:o take:thome enter:p enter:r1 enter:b1 enter:r2 enter:b2 enter:r3 enter:b3", "p r1 b1 r2 b2 r3 b3");
}

/* The value checked is the one this microstep's exit is about to record, not the old record:
 * recorded a1 a2 a3 ("h a2" would then be legal), but jumping from b1 exits p, which records
 * b1 b2 b3 first, and b2 cannot join a2. */
static void test_history_target_check_uses_the_record_about_to_be_made(void) {
    MACHINE(h, chart_history_conflict(), NULL);
    START(h, SC_OK, "enter:o", "o");
    STEP(h, "in", SC_OK, "exit:o take:tin enter:p enter:r1 enter:a1 enter:r2 enter:a2 enter:r3 enter:a3",
         "p r1 a1 r2 a2 r3 a3");
    STEP(h, "out", SC_OK, "exit:a3 exit:r3 exit:a2 exit:r2 exit:a1 exit:r1 exit:p take:tout enter:o", "o");
    EXPECT_HISTORY(h, "h", "a1 a2 a3");
    STEP(h, "in", SC_OK, "exit:o take:tin enter:p enter:r1 enter:a1 enter:r2 enter:a2 enter:r3 enter:a3",
         "p r1 a1 r2 a2 r3 a3");
    STEP(h, "flip", SC_OK,
         "exit:a3 exit:a2 exit:a1 take:tflip1 take:tflip2 take:tflip3 enter:b1 enter:b2 enter:b3",
         "p r1 b1 r2 b2 r3 b3");
    STEP(h, "jump", SC_OK, "error:tjump", "p r1 b1 r2 b2 r3 b3");
    EXPECT_HISTORY(h, "h", "a1 a2 a3");
}

const test_case history_tests[] = {
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
    TEST(test_history_value_that_cannot_join_other_targets_is_not_taken),
    TEST(test_history_target_check_uses_the_record_about_to_be_made),
};
const size_t history_test_count = sizeof history_tests / sizeof history_tests[0];
