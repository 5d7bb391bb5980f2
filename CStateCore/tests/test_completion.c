/*
 * test_completion.c - C-level tests of CStateCore: done events, eventless transitions, invocations and the events callbacks receive.
 * The conventions (hand-derived traces, the harness) are in test_harness.h.
 */
#include "test_harness.h"

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
cb_builder *chart_done(void) {
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

const test_case completion_tests[] = {
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
    TEST(test_invoke_start_at_macrostep_end_cancel_on_exit),
    TEST(test_invoke_raising_continues_macrostep),
    TEST(test_invoke_not_started_when_halting),
    TEST(test_callbacks_receive_triggering_event),
    TEST(test_status_texts),
};
const size_t completion_test_count = sizeof completion_tests / sizeof completion_tests[0];
