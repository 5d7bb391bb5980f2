/*
 * test_snapshot.c - C-level tests of CStateCore: snapshots: reading and restoring the dynamic state.
 * The conventions (hand-derived traces, the harness) are in test_harness.h.
 */
#include "test_harness.h"

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
    EXPECT_STATUS(send_event(h, "s"), SC_ERR_NOT_STARTED);

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

/* A restored history record must be a value exitStates could make: a shallow record of two
 * children of a compound state is refused (it would enter both). */
static void test_snapshot_restore_history_refuses_states_not_active_together(void) {
    MACHINE(h, chart_history(), NULL);
    START(h, SC_OK, "enter:O", "O");
    sc_id two[] = { st(h, "S1"), st(h, "S2") };
    EXPECT_STATUS(sc_machine_restore_history(h->m, st(h, "Sh"), two, 2), SC_ERR_BAD_ARGUMENT);
    EXPECT_EQ_U(sc_machine_history(h->m, st(h, "Sh"), NULL, 0), 0);
    EXPECT_STATUS(sc_machine_restore_history(h->m, st(h, "Sh"), two + 1, 1), SC_OK);
    EXPECT_HISTORY(h, "Sh", "S2");
}

/* The checks are the restores' rules as questions: the same verdicts, and nothing changes (a
 * host checks a whole snapshot before restoring any of it). */
static void test_snapshot_checks_judge_as_restore_does(void) {
    MACHINE(h, chart_history(), NULL);
    START(h, SC_OK, "enter:O", "O");
    sc_id legal[] = { st(h, "S2"), st(h, "S") };            /* any order */
    sc_id twice[] = { st(h, "S"), st(h, "S2"), st(h, "S") };  /* repeats allowed */
    sc_id illegal[] = { st(h, "S"), st(h, "S1") };          /* S1 without an active child */
    sc_id history_listed[] = { st(h, "S"), st(h, "Sh"), st(h, "S2") };
    sc_id out_of_range[] = { 999 };
    EXPECT_STATUS(sc_machine_check_configuration(h->m, legal, 2), SC_OK);
    EXPECT_STATUS(sc_machine_check_configuration(h->m, twice, 3), SC_OK);
    EXPECT_STATUS(sc_machine_check_configuration(h->m, illegal, 2), SC_ERR_BAD_ARGUMENT);
    EXPECT_STATUS(sc_machine_check_configuration(h->m, history_listed, 3), SC_ERR_BAD_ARGUMENT);
    EXPECT_STATUS(sc_machine_check_configuration(h->m, out_of_range, 1), SC_ERR_BAD_ARGUMENT);
    EXPECT_STATUS(sc_machine_check_configuration(h->m, NULL, 0), SC_ERR_BAD_ARGUMENT);   /* empty */
    EXPECT_STATUS(sc_machine_check_configuration(NULL, legal, 2), SC_ERR_BAD_ARGUMENT);
    EXPECT_CONFIG(h, "O");                  /* a check restores nothing */

    sc_id s1[] = { st(h, "S1") }, s1a[] = { st(h, "S1a") }, two[] = { st(h, "S1"), st(h, "S2") };
    EXPECT_STATUS(sc_machine_check_history(h->m, st(h, "Sh"), s1, 1), SC_OK);
    EXPECT_STATUS(sc_machine_check_history(h->m, st(h, "Sh"), s1a, 1), SC_ERR_BAD_ARGUMENT);  /* not a child */
    EXPECT_STATUS(sc_machine_check_history(h->m, st(h, "Sd"), s1a, 1), SC_OK);
    EXPECT_STATUS(sc_machine_check_history(h->m, st(h, "Sd"), s1, 1), SC_ERR_BAD_ARGUMENT);   /* not atomic */
    EXPECT_STATUS(sc_machine_check_history(h->m, st(h, "Sh"), two, 2), SC_ERR_BAD_ARGUMENT);  /* not together */
    EXPECT_STATUS(sc_machine_check_history(h->m, st(h, "S"), s1, 1), SC_ERR_BAD_ARGUMENT);    /* not a history */
    EXPECT_STATUS(sc_machine_check_history(h->m, st(h, "Sh"), NULL, 0), SC_OK);               /* no record */
    EXPECT_HISTORY(h, "Sh", "");
    EXPECT_HISTORY(h, "Sd", "");
    EXPECT_TRACE(h, "");

    /* What the check accepted, restore accepts. */
    EXPECT_STATUS(sc_machine_restore(h->m, legal, 2, false), SC_OK);
    EXPECT_CONFIG(h, "S S2");
}

const test_case snapshot_tests[] = {
    TEST(test_snapshot_restore_continues_identically),
    TEST(test_snapshot_illegal_configurations_rejected),
    TEST(test_snapshot_parallel_needs_every_region),
    TEST(test_snapshot_restore_history_validation),
    TEST(test_snapshot_restore_clears_queues_and_can_halt),
    TEST(test_snapshot_restore_history_refuses_states_not_active_together),
    TEST(test_snapshot_checks_judge_as_restore_does),
};
const size_t snapshot_test_count = sizeof snapshot_tests / sizeof snapshot_tests[0];
