/*
 * test_limits.c - C-level tests of CStateCore: bounds and memory: runaway loops, queues, static allocation, charts over 64 states.
 * The conventions (hand-derived traces, the harness) are in test_harness.h.
 */
#include "test_harness.h"
#if SC_PLAN_STATS   /* builds that count replays (Makefile: test-plan, test-sanitize) */
#include "sc_plan.h"
#endif

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
    sc_options o = { 0, 0, 10, 0 };
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
    sc_options o = { 0, 0, 7, 0 };
    MACHINE(h, b, &o);
    START(h, SC_OK, "enter:idle", "idle");
    EXPECT_STATUS(send_event(h, "go"), SC_ERR_RUNAWAY);
    REQUIRE(strncmp(h->trace, "exit:idle take:tgo enter:a exit:a take:tab enter:b", 50) == 0, "trace: %s", h->trace);
    REQUIRE(legal_single(h, "a", "b"), "configuration is not legal");
    REQUIRE(!sc_machine_is_busy(h->m), "busy after runaway");
    h->trace[0] = '\0';
    /* The next call is served (not SC_ERR_BUSY) and runs away again. */
    EXPECT_STATUS(send_event(h, "stop"), SC_ERR_RUNAWAY);
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
    sc_options o = { 0, 0, max_steps, 0 };
    return machine_with(b, &o);
}

/* max_steps bounds the microsteps (and internal events) of a macrostep: a macrostep of exactly
 * max_steps eventless microsteps completes; one more is a runaway. */
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
    sc_options o = { 0, 0, 50, 0 };
    MACHINE(h, b, &o);
    START(h, SC_OK, "enter:idle", "idle");
    h->hook = interrupt_after_tba;
    EXPECT_STATUS(send_event(h, "go"), SC_ERR_INTERRUPTED);
    REQUIRE(strcmp(h->trace, "exit:idle take:tgo enter:a exit:a take:tab enter:b exit:b take:tba enter:a") == 0,
            "trace: %s", h->trace);
    REQUIRE(legal_single(h, "a", "a"), "configuration is not legal");
    REQUIRE(!sc_machine_is_busy(h->m), "busy after an interrupt");
    /* A macrostep with no eventless work completes; the request stays set, so the next loop
     * stops before its first eventless microstep. */
    h->hook = NULL;
    h->trace[0] = '\0';
    EXPECT_STATUS(send_event(h, "stop"), SC_OK);
    EXPECT_STATUS(send_event(h, "go"), SC_ERR_INTERRUPTED);
    REQUIRE(strcmp(h->trace, "exit:a take:tsa enter:idle exit:idle take:tgo enter:a") == 0, "trace: %s", h->trace);
    /* Cleared: only max_steps stops the loop again. */
    sc_machine_interrupt(h->m, false);
    EXPECT_STATUS(send_event(h, "stop"), SC_OK);
    EXPECT_STATUS(send_event(h, "go"), SC_ERR_RUNAWAY);
}

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
    sc_options o = { 0, 0, 12, 0 };
    MACHINE(h, b, &o);
    h->hook = hook_ping;
    EXPECT_STATUS(sc_machine_start(h->m), SC_ERR_RUNAWAY);
    REQUIRE(strncmp(h->trace, "enter:a exit:a take:tab enter:b exit:b take:tba enter:a", 55) == 0, "trace: %s", h->trace);
    REQUIRE(legal_single(h, "a", "b"), "configuration is not legal");
    int taken = count_tokens(h->trace, "take:");
    REQUIRE(taken >= 1 && taken <= 12, "%d microsteps with max_steps 12", taken);
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

/* a -go-> b; in b, the event raised during go's microstep (int) must come before the one sent
 * (ext): b -int-> c -ext-> d; ext first would take b -ext-> e. */
static cb_builder *chart_raise_before_send(void) {
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
    return b;
}

static void test_queue_dispatch_inside_action_is_queued(void) {
    cb_builder *b = chart_raise_before_send();
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
    EXPECT_STATUS(send_event(h, "go"), SC_ERR_NOT_STARTED);
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
    EXPECT_STATUS(send_event(h, "x"), SC_HALTED);
    EXPECT_EQ_U(h->releases, 4);
}

/* ---- a full queue is reported, never a silent drop ---------------------------------------
 * A raise or post from a callback that the queue cannot take (the harness has no queue_full to
 * grow it) fails at the call, and since generated content ignores that status, the machine
 * also tells the caller of the entry point running the macrostep: the macrostep goes on with the
 * events that fit, in order, and start, dispatch or run returns SC_ERR_QUEUE_FULL when it is
 * over; the next call is normal. The chart: s with targetless transitions on go, e1, e2, e3. */
static const char *raise_trigger = "";     /* the token whose callback raises or posts */

static void hook_raise_e1_e2_e3(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, raise_trigger) != 0) return;
    trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "e1")));
    trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "e2")));
    trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "e3")));
}

static void hook_post_e1_dispatch_e2(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, raise_trigger) != 0) return;
    trace_add(h, "post=%d", (int)sc_machine_post(h->m, ev(h, "e1")));
    trace_add(h, "dispatch=%d", (int)sc_machine_dispatch(h->m, ev(h, "e2")));
}

static cb_builder *chart_go_e1_e2_e3(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "s");
    cb_trans(b, "s", "go", NULL, 0, NULL, "tgo");
    cb_trans(b, "s", "e1", NULL, 0, NULL, "t1");
    cb_trans(b, "s", "e2", NULL, 0, NULL, "t2");
    cb_trans(b, "s", "e3", NULL, 0, NULL, "t3");
    return b;
}

/* Plans replayed so far (test builds with the plan cache count them; elsewhere 0). */
static uint64_t plan_replays(void) {
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
    uint64_t n = 0;
    for (int mode = 0; mode <= SC_PLAN_COMPUTE; mode++) n += sc_plan_counters.replays[mode];
    return n;
#else
    return 0;
#endif
}

static void test_queue_internal_overflow_is_reported_by_dispatch(void) {
    sc_options two = { 2, 1, 0, 0 };
    MACHINE(h, chart_go_e1_e2_e3(), &two);
    raise_trigger = "take:tgo";
    h->hook = hook_raise_e1_e2_e3;
    START(h, SC_OK, "enter:s", "s");
    /* e1 and e2 fill the two slots, e3 is refused (-2); after go's microstep e1 then e2 run. */
    STEP(h, "go", SC_ERR_QUEUE_FULL, "take:tgo raise=0 raise=0 raise=-2 take:t1 take:t2", "s");
    EXPECT_EQ_U(sc_machine_internal_count(h->m), 0);
    STEP(h, "e3", SC_OK, "take:t3", "s");
    /* Without a release callback the fast path is open: go's plan is replayed, same report. */
    h->host.release = NULL;
    EXPECT_STATUS(sc_machine_set_host(h->m, &h->host), SC_OK);
    uint64_t replays = plan_replays();
    STEP(h, "go", SC_ERR_QUEUE_FULL, "take:tgo raise=0 raise=0 raise=-2 take:t1 take:t2", "s");
#if !SC_CONFIG_NO_PLAN_CACHE && SC_PLAN_STATS
    REQUIRE(plan_replays() > replays, "go's second dispatch replays its plan");
#else
    (void)replays;
#endif
    STEP(h, "e3", SC_OK, "take:t3", "s");
    EXPECT_EQ_U(sc_machine_dropped_events(h->m), 0);
}

static void test_queue_internal_overflow_is_reported_by_start_and_run(void) {
    sc_options two = { 2, 2, 0, 0 };
    MACHINE(h, chart_go_e1_e2_e3(), &two);
    h->hook = hook_raise_e1_e2_e3;
    raise_trigger = "enter:s";      /* s's entry action, in start's macrostep */
    START(h, SC_ERR_QUEUE_FULL, "enter:s raise=0 raise=0 raise=-2 take:t1 take:t2", "s");
    raise_trigger = "take:tgo";
    /* run goes on past go's macrostep to the next queued event, then reports. */
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "go")), SC_OK);
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "e3")), SC_OK);
    EXPECT_STATUS(sc_machine_run(h->m), SC_ERR_QUEUE_FULL);
    EXPECT_TRACE(h, "take:tgo raise=0 raise=0 raise=-2 take:t1 take:t2 take:t3");
    EXPECT_STATUS(sc_machine_run(h->m), SC_OK);
    EXPECT_TRACE(h, "");
    STEP(h, "e3", SC_OK, "take:t3", "s");
}

static void test_queue_external_overflow_is_reported_by_dispatch(void) {
    sc_options one = { 8, 1, 0, 0 };
    MACHINE(h, chart_go_e1_e2_e3(), &one);
    raise_trigger = "take:tgo";
    h->hook = hook_post_e1_dispatch_e2;
    START(h, SC_OK, "enter:s", "s");
    /* e1 takes the one slot (SC_QUEUED); e2, dispatched from the callback, is refused. */
    STEP(h, "go", SC_ERR_QUEUE_FULL, "take:tgo post=2 dispatch=-2", "s");
    EXPECT_STATUS(sc_machine_run(h->m), SC_OK);
    EXPECT_TRACE(h, "take:t1");
    STEP(h, "e3", SC_OK, "take:t3", "s");
    /* Outside a callback the caller hears of it from the call alone: nothing to report later. */
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "e1")), SC_OK);
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "e2")), SC_ERR_QUEUE_FULL);
    EXPECT_STATUS(sc_machine_run(h->m), SC_OK);
    EXPECT_TRACE(h, "take:t1");
}

/* sc_machine_can_handle runs guards with the machine busy, so a guard's raise (guards should
 * have none) is queued like any callback's, for the next macrostep, and one the queue refuses is
 * reported by the next entry point, the one that processes the raises that fit. */
static bool guard_raising_e1_twice(void *context, sc_machine *m, sc_id guard, const sc_event *event) {
    harness *h = context;
    (void)guard;
    (void)event;
    trace_add(h, "raise=%d", (int)sc_machine_raise(m, ev(h, "e1")));
    trace_add(h, "raise=%d", (int)sc_machine_raise(m, ev(h, "e1")));
    return true;
}

static void test_queue_overflow_in_can_handle_is_reported_by_the_next_dispatch(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "s");
    cb_trans(b, "s", "go", NULL, 0, "g", "tgo");
    cb_trans(b, "s", "e1", NULL, 0, NULL, "t1");
    cb_trans(b, "s", "e3", NULL, 0, NULL, "t3");
    sc_options one = { 1, 1, 0, 0 };
    MACHINE(h, b, &one);
    h->host.guard = guard_raising_e1_twice;
    EXPECT_STATUS(sc_machine_set_host(h->m, &h->host), SC_OK);
    START(h, SC_OK, "enter:s", "s");
    /* The first e1 takes the one internal slot, the second is refused (-2). */
    REQUIRE(sc_machine_can_handle(h->m, ev(h, "go"), true), "go's guard says yes");
    EXPECT_TRACE(h, "raise=0 raise=-2");
    EXPECT_EQ_U(sc_machine_internal_count(h->m), 1);
    /* e3's macrostep takes the queued e1 after e3's microstep, then reports the refused one. */
    STEP(h, "e3", SC_ERR_QUEUE_FULL, "take:t3 take:t1", "s");
    STEP(h, "e3", SC_OK, "take:t3", "s");
}

/* SC_QUEUE_NONE: a host that queues its callbacks' events itself gets no external queue; a post
 * or a dispatch from a callback is refused, not lost silently, and the block is smaller. */
static void test_queue_none_refuses_posts(void) {
    cb_builder *b = chart_raise_before_send();
    sc_options none = { 0, SC_QUEUE_NONE, 0, 0 }, one = { 0, 1, 0, 0 };
    MACHINE(h, b, &none);
    /* One slot of 16 bytes (12 on 32-bit targets), rounded up to 8, is all that is saved. */
    EXPECT_EQ_U(sc_machine_size(&h->b->chart, &one) - sc_machine_size(&h->b->chart, &none),
                (sizeof(sc_event) + 7u) & ~(size_t)7u);
    h->hook = hook_dispatch_inside;
    START(h, SC_OK, "enter:a", "a");
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "ext")), SC_ERR_QUEUE_FULL);
    /* The dispatch inside the action is refused (-2); the raised int still runs. */
    STEP(h, "go", SC_OK, "exit:a take:tgo dispatch=-2 busy=1 raise=0 run=-7 stop=-7 start=-7 restore=-7 enter:b exit:b take:tint enter:c", "c");
    EXPECT_STATUS(sc_machine_run(h->m), SC_OK);
    EXPECT_TRACE(h, "");
    STEP(h, "ext", SC_OK, "exit:c take:text enter:d", "d");
}

static void hook_fill_queue(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tfin") == 0) trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "x")));
}

/* c1 -fin-> cf makes done.state.c while the action of tfin has filled a one-slot internal queue. */
static harness *machine_done_into_full_queue(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_COMPOUND, "c");
    cb_state(b, "c", SC_ATOMIC, "c1");
    cb_state(b, "c", SC_FINAL, "cf");
    cb_trans(b, "c1", "fin", "cf", 0, NULL, "tfin");
    cb_trans(b, "c", "done.state.c", NULL, 0, NULL, "td");
    cb_event(b, "x");
    sc_options o = { 1, 0, 0, 0 };
    harness *h = machine_with(b, &o);
    if (h) h->hook = hook_fill_queue;
    return h;
}

static void test_queue_done_event_that_does_not_fit_ends_the_macrostep(void) {
    harness *h = machine_done_into_full_queue();
    REQUIRE(h, "machine");
    START(h, SC_OK, "enter:c enter:c1", "c c1");
    /* The queue holds x; done.state.c cannot be queued (no queue_full callback to grow it): the
     * microstep completes (legal configuration), then the macrostep ends with the error, x still
     * queued. Nothing is dropped silently; the deprecated counter stays 0. */
    STEP(h, "fin", SC_ERR_QUEUE_FULL, "exit:c1 take:tfin raise=0 enter:cf", "c cf");
    EXPECT_EQ_U(sc_machine_internal_count(h->m), 1);
    EXPECT_EQ_U(sc_machine_internal_event(h->m, 0).id, ev(h, "x").id);
    EXPECT_EQ_U(sc_machine_dropped_events(h->m), 0);
}

/* A silent chart (no executable content, done events, invocations or history) queues nothing by
 * itself: by default its machine has no internal slot and one external one, for an event the host
 * posts; one action anywhere gives the 8 + 8 defaults. Sizes compared with explicit capacities,
 * so the difference is the slots alone. */
static void grow_silent_internal_queue(void *context, sc_machine *m) {
    harness *h = context;
    sc_event *storage = owned_alloc(2 * sizeof *storage);
    trace_add(h, "grow=%d", (int)sc_machine_set_internal_queue(m, storage, 2));
}

static void test_queue_defaults_of_a_silent_chart(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "locked");
    cb_state(b, NULL, SC_ATOMIC, "unlocked");
    cb_trans(b, "locked", "coin", "unlocked", 0, NULL, NULL);
    cb_trans(b, "unlocked", "push", "locked", 0, NULL, NULL);
    harness *h = new_harness(b);
    REQUIRE(h, "builder: %s", b->error);
    /* cb_finish gives every state entry and exit actions (the trace): take them away. */
    for (sc_id s = 0; s < b->chart.state_count; s++) b->states[s].on_entry = b->states[s].on_exit = SC_NONE;
    sc_options one = { 1, 1, 0, 0 }, eight = { 8, 8, 0, 0 };
    const size_t slot = (sizeof(sc_event) + 7u) & ~(size_t)7u;     /* one slot, as the block rounds it */
    EXPECT_EQ_U(sc_machine_size(&b->chart, &one) - sc_machine_size(&b->chart, NULL), slot);
    REQUIRE(sc_machine_size(&b->chart, &eight) > sc_machine_size(&b->chart, &one), "8 + 8 slots take more");
    sc_machine *m = sc_machine_create(&b->chart, &h->host, NULL);
    REQUIRE(m, "sc_machine_create");
    own_machine(m);
    h->m = m;
    EXPECT_STATUS(sc_machine_start(m), SC_OK);
    for (int round = 0; round < 3; round++) {     /* later rounds replay plans (the fast path) */
        EXPECT_STATUS(send_event(h, "coin"), SC_OK);
        EXPECT_STATUS(send_event(h, "push"), SC_OK);
        EXPECT_CONFIG(h, "locked");
    }
    /* No internal slot: the host's raise is refused at once (no queue_full to grow it), nothing
     * queued; one external slot: the first post is queued, the second refused. */
    h->host.queue_full = NULL;
    EXPECT_STATUS(sc_machine_set_host(m, &h->host), SC_OK);
    EXPECT_STATUS(sc_machine_raise(m, ev(h, "push")), SC_ERR_QUEUE_FULL);
    EXPECT_EQ_U(sc_machine_internal_count(m), 0);
    EXPECT_STATUS(sc_machine_post(m, ev(h, "coin")), SC_OK);
    EXPECT_STATUS(sc_machine_post(m, ev(h, "coin")), SC_ERR_QUEUE_FULL);
    EXPECT_CONFIG(h, "locked");
    /* The posted coin waits in the external queue until run. */
    EXPECT_STATUS(sc_machine_run(m), SC_OK);
    EXPECT_CONFIG(h, "unlocked");
    /* A host that grows the queue from queue_full gets its raise queued (from no slot to two):
     * the macrostep of push (unlocked -> locked) goes on with the raised coin (-> unlocked). */
    h->host.queue_full = grow_silent_internal_queue;
    EXPECT_STATUS(sc_machine_set_host(m, &h->host), SC_OK);
    EXPECT_STATUS(sc_machine_raise(m, ev(h, "coin")), SC_OK);
    EXPECT_TRACE(h, "grow=0");
    EXPECT_EQ_U(sc_machine_internal_count(m), 1);
    EXPECT_STATUS(send_event(h, "push"), SC_OK);
    EXPECT_CONFIG(h, "unlocked");
    EXPECT_EQ_U(sc_machine_internal_count(m), 0);
    /* Any action makes the chart not silent. */
    b->states[st(h, "locked")].on_entry = 0;
    EXPECT_EQ_U(sc_machine_size(&b->chart, NULL), sc_machine_size(&b->chart, &eight));
}

/* SC_CHART_QUIET_CONTENT: a chart whose tables vouch that its content queues nothing gets the
 * silent defaults, no internal slot and one external one, actions or not. Content that raises
 * anyway meets a full queue, told by the status of each raise and of the dispatch (no queue_full
 * to grow it), never a lost event. */
static void hook_raise_twice(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tgo") != 0) return;
    trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "e")));
    trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "e")));
}

static void test_queue_defaults_of_quiet_content(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "s");
    cb_trans(b, "s", "go", NULL, 0, NULL, "tgo");
    cb_trans(b, "s", "e", NULL, 0, NULL, "te");
    REQUIRE(cb_finish(b), "builder: %s", b->error);
    sc_options one = { 1, 1, 0, 0 }, eight = { 8, 8, 0, 0 };
    const size_t slot = (sizeof(sc_event) + 7u) & ~(size_t)7u;
    EXPECT_EQ_U(sc_machine_size(&b->chart, NULL), sc_machine_size(&b->chart, &eight));
    b->chart.flags = SC_CHART_QUIET_CONTENT;
    EXPECT_EQ_U(sc_machine_size(&b->chart, &one) - sc_machine_size(&b->chart, NULL), slot);
    /* 8 + 8 slots against none + 1 (16-byte slots on a 64-bit target: 15 x 16 = 240 B). */
    EXPECT_EQ_U(sc_machine_size(&b->chart, &eight) - sc_machine_size(&b->chart, NULL),
                2 * ((8 * sizeof(sc_event) + 7u) & ~(size_t)7u) - slot);
    MACHINE(h, b, NULL);
    h->host.queue_full = NULL;
    EXPECT_STATUS(sc_machine_set_host(h->m, &h->host), SC_OK);
    h->hook = hook_raise_twice;
    START(h, SC_OK, "enter:s", "s");
    STEP(h, "go", SC_ERR_QUEUE_FULL, "take:tgo raise=-2 raise=-2", "s");
    EXPECT_EQ_U(sc_machine_internal_count(h->m), 0);
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
    sc_options big = { 1000, 1000, 0, 0 };
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
    own_block(block);
    sc_machine *m = NULL;
    EXPECT_STATUS(sc_machine_init(&m, block, size, &b->chart, &h->host, NULL), SC_OK);
    h->m = m;
    own_machine(m);
    EXPECT_EQ_U(sc_machine_configuration_words(m), SC_BIT_WORDS(b->chart.state_count));   /* 5 of 64 bits */

    START(h, SC_OK, "enter:A enter:a0", "A a0");
    static char want[8192];
    want[0] = '\0';
    for (int i = 0; i < 70; i++) {             /* across the word boundaries at 64 */
        EXPECT_STATUS(send_event(h, "next"), SC_OK);
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

/* Issue 12, defect 3: a full queue is never a silent drop. A host that grows the internal queue
 * from sc_host.queue_full (sc_machine_set_internal_queue, storage doubling) gets every one of
 * 10,000 events raised in one macrostep, in order, from a queue that starts with 4 slots. */
typedef struct growing_host {
    const cb_builder *b;
    sc_id event;                /* the raised event's id */
    uint32_t raised, refused, next, out_of_order;
    sc_event *storage;          /* the host's queue storage, NULL while the block's is used */
    uint32_t capacity, grows;
} growing_host;

static void growing_queue_full(void *context, sc_machine *m) {
    growing_host *g = context;
    uint32_t capacity = g->capacity * 2;
    sc_event *bigger = malloc(capacity * sizeof *bigger);
    if (!bigger) return;
    if (sc_machine_set_internal_queue(m, bigger, capacity) != SC_OK) {
        free(bigger);
        return;
    }
    free(g->storage);           /* the core copied the events out of it */
    g->storage = bigger;
    g->capacity = capacity;
    g->grows++;
}

static void growing_action(void *context, sc_machine *m, sc_id action, const sc_event *event) {
    growing_host *g = context;
    const char *name = g->b->action_name[action];
    if (strcmp(name, "take:tgo") == 0) {
        for (uint32_t i = 1; i <= 10000; i++) {
            sc_event e = { g->event, 0, i };
            if (sc_machine_raise(m, e) == SC_OK) g->raised++;
            else g->refused++;
        }
    } else if (strcmp(name, "take:te") == 0) {
        if (!event || event->data != g->next + 1) g->out_of_order++;
        g->next++;
    }
}

static void test_queue_grows_from_the_queue_full_callback(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "s");
    cb_trans(b, "s", "go", NULL, 0, NULL, "tgo");
    cb_trans(b, "s", "e", NULL, 0, NULL, "te");
    REQUIRE(cb_finish(b), "builder: %s", b->error);
    growing_host g = { b, cb_find_event(b, "e"), 0, 0, 0, 0, NULL, 4, 0 };
    sc_host *host = owned_alloc(sizeof *host);     /* kept by the machine: freed after it */
    *host = (sc_host){ .context = &g, .action = growing_action, .queue_full = growing_queue_full };
    sc_options o = { 4, 0, 0, 0 };
    sc_machine *m = sc_machine_create(&b->chart, host, &o);
    REQUIRE(m, "sc_machine_create");
    own_machine(m);
    EXPECT_STATUS(sc_machine_start(m), SC_OK);
    EXPECT_STATUS(sc_machine_dispatch(m, (sc_event){ cb_find_event(b, "go"), 0, 0 }), SC_OK);
    own_block(g.storage);       /* freed after the machine */
    EXPECT_EQ_U(g.raised, 10000);
    EXPECT_EQ_U(g.refused, 0);
    EXPECT_EQ_U(g.next, 10000);
    EXPECT_EQ_U(g.out_of_order, 0);
    EXPECT_EQ_U(g.grows, 12);   /* 4 -> 8 -> ... -> 16384, the first power of two times 4 >= 10000 */
    EXPECT_EQ_U(g.capacity, 16384);
    EXPECT_EQ_U(sc_machine_internal_count(m), 0);
}

/* A done event that finds the queue full is queued once the host has grown it. */
static void queue_full_grow_harness(void *context, sc_machine *m) {
    harness *h = context;
    sc_event *bigger = owned_alloc(8 * sizeof *bigger);
    trace_add(h, "grow=%d", (int)sc_machine_set_internal_queue(m, bigger, 8));
}

static void test_queue_done_event_queued_after_growing(void) {
    harness *h = machine_done_into_full_queue();
    REQUIRE(h, "machine");
    h->host.queue_full = queue_full_grow_harness;
    EXPECT_STATUS(sc_machine_set_host(h->m, &h->host), SC_OK);
    START(h, SC_OK, "enter:c enter:c1", "c c1");
    /* x fills the one slot; done.state.c makes the core call queue_full, which moves x into 8
     * slots; done.state.c follows x: x enables nothing, done.state.c takes td. */
    STEP(h, "fin", SC_OK, "exit:c1 take:tfin raise=0 enter:cf grow=0 take:td", "c cf");
}

/* sc_machine_set_internal_queue keeps what is queued, in order, or refuses and changes nothing. */
static void test_queue_set_internal_queue_arguments(void) {
    MACHINE(h, chart_hierarchy(), NULL);
    START(h, SC_OK, "enter:a enter:a1 enter:a11", "a a1 a11");
    sc_event e1 = { 0, 1, 11 }, e2 = { 0, 2, 22 };
    EXPECT_STATUS(sc_machine_raise(h->m, e1), SC_OK);
    EXPECT_STATUS(sc_machine_raise(h->m, e2), SC_OK);
    sc_event *one = owned_alloc(sizeof *one), *three = owned_alloc(3 * sizeof *three);
    EXPECT_STATUS(sc_machine_set_internal_queue(h->m, one, 1), SC_ERR_BAD_ARGUMENT);   /* 2 queued */
    EXPECT_STATUS(sc_machine_set_internal_queue(h->m, NULL, 3), SC_ERR_BAD_ARGUMENT);
    EXPECT_STATUS(sc_machine_set_internal_queue(NULL, three, 3), SC_ERR_BAD_ARGUMENT);
    EXPECT_STATUS(sc_machine_set_internal_queue(h->m, three, 3), SC_OK);
    EXPECT_STATUS(sc_machine_set_internal_queue(h->m, three + 1, 2), SC_ERR_BAD_ARGUMENT);  /* overlaps */
    EXPECT_EQ_U(sc_machine_internal_count(h->m), 2);
    EXPECT_EQ_U(sc_machine_internal_event(h->m, 0).data, 11);
    EXPECT_EQ_U(sc_machine_internal_event(h->m, 1).data, 22);
    EXPECT_STATUS(sc_machine_raise(h->m, e1), SC_OK);
    EXPECT_STATUS(sc_machine_raise(h->m, e1), SC_ERR_QUEUE_FULL);   /* 3 slots, no queue_full */
    EXPECT_EQ_U(three[2].data, 11);
}

/* sc_machine_run is bounded too: a chart whose every macrostep posts the next event would keep
 * the external queue from ever emptying. With max_steps 5 a call processes 5 events, then
 * returns SC_ERR_RUNAWAY with the next one still queued; the machine goes on. */
static void hook_post_ping(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tping") == 0) sc_machine_post(h->m, ev(h, "ping"));
}

static void test_run_stops_a_chart_that_keeps_posting_to_itself(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "s");
    cb_trans(b, "s", "ping", NULL, 0, NULL, "tping");
    sc_options o = { 0, 0, 5, 0 };
    MACHINE(h, b, &o);
    h->hook = hook_post_ping;
    START(h, SC_OK, "enter:s", "s");
    EXPECT_STATUS(sc_machine_post(h->m, ev(h, "ping")), SC_OK);
    EXPECT_STATUS(sc_machine_run(h->m), SC_ERR_RUNAWAY);
    EXPECT_TRACE(h, "take:tping take:tping take:tping take:tping take:tping");
    EXPECT_STATUS(sc_machine_run(h->m), SC_ERR_RUNAWAY);      /* the sixth was still queued */
    EXPECT_TRACE(h, "take:tping take:tping take:tping take:tping take:tping");
    EXPECT_CONFIG(h, "s");
}

/* A chart whose history records add up to just past 2^32 words (524,288 history states under one
 * parent, 8,193 words each: 2^32 + 524,288): no block that size exists, so sc_machine_size is 0
 * and sc_machine_init refuses (SC_ERR_NO_MEMORY), rather than a count wrapped around to 524,288
 * words sizing a 4 MiB block too small for the records. */
static void test_history_records_past_32_bits_are_refused(void) {
    enum { N = 524291 };            /* root, P, a, then N - 3 history states in P */
    sc_state *states = owned_alloc(N * sizeof *states);
    sc_transition *transitions = owned_alloc(N * sizeof *transitions);
    sc_id *targets = owned_alloc(2 * sizeof *targets);
    REQUIRE(states && transitions && targets, "malloc");
    memset(states, 0, N * sizeof *states);
    memset(transitions, 0, N * sizeof *transitions);
    targets[0] = 1;     /* the root's initial: P */
    targets[1] = 2;     /* P's initial and every history's default: a */
    for (sc_id s = 0; s < N; s++) {
        states[s] = (sc_state){ .parent = s == 0 ? SC_NONE : s == 1 ? 0 : 1, .last_descendant = s <= 1 ? N - 1 : s,
                                .kind = s <= 1 ? SC_COMPOUND : s == 2 ? SC_ATOMIC : SC_HISTORY_SHALLOW,
                                .flags = s == 1 ? SC_STATE_HAS_HISTORY : 0, .depth = s == 0 ? 0 : s == 1 ? 1 : 2,
                                .initial = s == 2 ? SC_NONE : s, .on_entry = SC_NONE, .on_exit = SC_NONE,
                                .done_event = SC_NONE, .first_transition = N, .transition_count = 0 };
        if (s == 2) continue;
        transitions[s] = (sc_transition){ .source = s, .domain = s == 0 ? 0 : 1, .targets_offset = s == 0 ? 0 : 1,
                                          .target_count = 1, .guard = SC_NONE, .action = SC_NONE };
    }
    transitions[2] = (sc_transition){ .source = 2, .domain = SC_NONE, .guard = SC_NONE, .action = SC_NONE };
    sc_chart chart = { .state_count = N, .transition_count = N, .states = states, .transitions = transitions,
                       .targets = targets, .target_pool_count = 2 };
    sc_chart_error error = { 0 };
    EXPECT_STATUS(sc_chart_check(&chart, &error), SC_OK);
    EXPECT_EQ_U(sc_machine_size(&chart, NULL), 0);
    static uint64_t block[64];
    sc_machine *m = NULL;
    sc_host host = { 0 };
    EXPECT_STATUS(sc_machine_init(&m, block, sizeof block, &chart, &host, NULL), SC_ERR_NO_MEMORY);
}

const test_case limits_tests[] = {
    TEST(test_history_records_past_32_bits_are_refused),
    TEST(test_queue_defaults_of_a_silent_chart),
    TEST(test_queue_defaults_of_quiet_content),
    TEST(test_runaway_eventless_loop_on_start),
    TEST(test_runaway_on_dispatch_machine_stays_usable),
    TEST(test_runaway_internal_event_loop),
    TEST(test_runaway_bound_is_exact),
    TEST(test_interrupt_stops_macrostep_between_microsteps),
    TEST(test_queue_raise_fifo_after_microstep),
    TEST(test_queue_dispatch_inside_action_is_queued),
    TEST(test_queue_post_outside_and_run_fifo),
    TEST(test_queue_run_stops_when_halted),
    TEST(test_queue_internal_overflow_is_reported_by_dispatch),
    TEST(test_queue_internal_overflow_is_reported_by_start_and_run),
    TEST(test_queue_overflow_in_can_handle_is_reported_by_the_next_dispatch),
    TEST(test_queue_external_overflow_is_reported_by_dispatch),
    TEST(test_queue_none_refuses_posts),
    TEST(test_queue_done_event_that_does_not_fit_ends_the_macrostep),
    TEST(test_static_allocation),
    TEST(test_large_chart_multiword_bit_arrays),
    TEST(test_queue_grows_from_the_queue_full_callback),
    TEST(test_queue_done_event_queued_after_growing),
    TEST(test_queue_set_internal_queue_arguments),
    TEST(test_run_stops_a_chart_that_keeps_posting_to_itself),
};
const size_t limits_test_count = sizeof limits_tests / sizeof limits_tests[0];
