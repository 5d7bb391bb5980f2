/*
 * test_options.c - C-level tests of CStateCore: sc_options.flags (SC_MACHINE_TRUSTED_CHART,
 * unknown bits), and queues the host supplies (SC_QUEUE_NONE, sc_shared_queue). SC_MACHINE_NO_PLANS is tested against planned machines in test_differential.c.
 * The conventions (hand-derived traces, the harness) are in test_harness.h.
 */
#include "test_harness.h"

/* A flag the core does not know is refused by every call that takes options, so a host built
 * against a newer header never gets a machine that silently ignores what it asked for. */
static void test_options_unknown_flags_are_refused(void) {
    cb_builder *b = chart_hierarchy();
    harness *h = new_harness(b);
    REQUIRE(h, "builder: %s", b->error);
    static const uint32_t unknown[] = { 0x4u, 0x80000000u, SC_MACHINE_TRUSTED_CHART | 0x100u };
    size_t size = sc_machine_size(&b->chart, NULL);
    REQUIRE(size > 0, "sc_machine_size is 0 for a valid chart");
    void *block = owned_alloc(size);
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        sc_options o = { .flags = unknown[i] };
        EXPECT_EQ_U(sc_machine_size(&b->chart, &o), 0);
        sc_machine *m = (sc_machine *)1;
        EXPECT_STATUS(sc_machine_init(&m, block, size, &b->chart, &h->host, &o), SC_ERR_BAD_ARGUMENT);
        REQUIRE(m == NULL, "*machine should be NULL after a refused init");
        REQUIRE(sc_machine_create(&b->chart, &h->host, &o) == NULL, "flags 0x%x: a machine was made", (unsigned)unknown[i]);
    }
}

/* A trusted machine of a valid chart is the same size and makes the same calls as an untrusted
 * one: test_hierarchy_exit_entry_order_and_lcca's steps, traces worked out there. */
static void test_options_trusted_chart_behaves_the_same(void) {
    sc_options trusted = { .flags = SC_MACHINE_TRUSTED_CHART }, both = { .flags = SC_MACHINE_TRUSTED_CHART | SC_MACHINE_NO_PLANS };
    MACHINE(h, chart_hierarchy(), &trusted);
    EXPECT_EQ_U(sc_machine_size(&h->b->chart, &trusted), sc_machine_size(&h->b->chart, NULL));
    EXPECT_EQ_U(sc_machine_size(&h->b->chart, &both), sc_machine_size(&h->b->chart, &(sc_options){ .flags = SC_MACHINE_NO_PLANS }));
    START(h, SC_OK, "enter:a enter:a1 enter:a11", "a a1 a11");
    for (int round = 0; round < 3; round++) {       /* later rounds replay plans */
        STEP(h, "go", SC_OK, "exit:a11 exit:a1 exit:a take:t1 enter:b enter:b1 enter:b12", "b b1 b12");
        STEP(h, "side", SC_OK, "exit:b12 exit:b1 take:t2 enter:b2", "b b2");
        STEP(h, "back", SC_OK, "exit:b2 exit:b take:t3 enter:a enter:a1 enter:a12", "a a1 a12");
        STEP(h, "sib", SC_OK, "exit:a12 exit:a1 take:t4 enter:a2", "a a2");
        STEP(h, "go", SC_UNHANDLED, "", "a a2");
        EXPECT_STATUS(sc_machine_restore(h->m, (sc_id[]){ st(h, "a"), st(h, "a1"), st(h, "a11") }, 3, false), SC_OK);
    }
}

/* The flag really skips sc_chart_check: tables that fail it (a11's own_mask lacks the bit of its
 * "go" descriptor) are refused without the flag, and laid out with it. (Running such a machine
 * is undefined: the caller broke the contract; only the layout, which does not read the masks,
 * is looked at.) */
static void test_options_trusted_chart_skips_the_check(void) {
    cb_builder *b = chart_hierarchy();
    harness *h = new_harness(b);
    REQUIRE(h, "builder: %s", b->error);
    size_t size = sc_machine_size(&b->chart, NULL);
    b->states[st(h, "a11")].own_mask = 0;
    sc_chart_error error = { NULL, NULL, 0 };
    EXPECT_STATUS(sc_chart_check(&b->chart, &error), SC_ERR_BAD_CHART);
    EXPECT_STR("error", error.message, "own_mask lacks bits of its descriptors (use sc_chart_fill_masks)");
    void *block = owned_alloc(size);
    sc_machine *m = NULL;
    EXPECT_EQ_U(sc_machine_size(&b->chart, NULL), 0);
    EXPECT_STATUS(sc_machine_init(&m, block, size, &b->chart, &h->host, NULL), SC_ERR_BAD_CHART);
    REQUIRE(sc_machine_create(&b->chart, &h->host, NULL) == NULL, "an unchecked chart was accepted");
    sc_options trusted = { .flags = SC_MACHINE_TRUSTED_CHART };
    EXPECT_EQ_U(sc_machine_size(&b->chart, &trusted), size);
    EXPECT_STATUS(sc_machine_init(&m, block, size, &b->chart, &h->host, &trusted), SC_OK);
    REQUIRE(m == block, "the machine should sit at the start of the block");
    sc_machine_destroy(m);
}

/* =========================================================================================
 * A shared internal queue (sc_shared_queue)
 * ======================================================================================= */

/* a --go/tgo--> b, b --int/tint--> c; tgo's content raises "int" (a hook). */
static cb_builder *chart_raising(void) {
    cb_builder *b = new_chart();
    cb_state(b, NULL, SC_ATOMIC, "a");
    cb_state(b, NULL, SC_ATOMIC, "b");
    cb_state(b, NULL, SC_ATOMIC, "c");
    cb_trans(b, "a", "go", "b", 0, NULL, "tgo");
    cb_trans(b, "b", "int", "c", 0, NULL, "tint");
    return b;
}

static harness *other_machine;      /* what hook_raise_then_dispatch_other dispatches to */

static void hook_raise_int(harness *h, const char *token, const sc_event *event) {
    (void)event;
    if (strcmp(token, "take:tgo") == 0) trace_add(h, "raise=%d", (int)sc_machine_raise(h->m, ev(h, "int")));
}

/* Raises into the shared slots, then dispatches to another machine sharing them. */
static void hook_raise_then_dispatch_other(harness *h, const char *token, const sc_event *event) {
    hook_raise_int(h, token, event);
    if (strcmp(token, "take:tgo") == 0)
        trace_add(h, "other=%d", (int)sc_machine_dispatch(other_machine->m, ev(other_machine, "go")));
}

/* With internal_queue_capacity = SC_QUEUE_NONE the block has no internal slots; two machines
 * sharing one queue's slots each run a macrostep that raises, one after the other, and give the
 * slots back when their queue is empty. */
static void test_shared_internal_queue_machines_take_turns(void) {
    cb_builder *b = chart_raising();
    sc_options none = { .internal_queue_capacity = SC_QUEUE_NONE };
    sc_options eight = { .internal_queue_capacity = 8 };
    REQUIRE(cb_finish(b), "builder: %s", b->error);
    EXPECT_EQ_U(sc_machine_size(&b->chart, &eight) - sc_machine_size(&b->chart, &none), 8 * sizeof(sc_event));
    MACHINE(h1, b, &none);
    MACHINE(h2, b, &none);
    static sc_event slots[2];
    static sc_shared_queue shared;      /* outlives the machines (released after the test) */
    shared = (sc_shared_queue){ .slots = slots, .capacity = 2 };
    /* Before sharing, the machine has no slots: a raise is refused. */
    EXPECT_STATUS(sc_machine_raise(h1->m, ev(h1, "int")), SC_ERR_QUEUE_FULL);
    EXPECT_STATUS(sc_machine_share_internal_queue(h1->m, &shared), SC_OK);
    EXPECT_STATUS(sc_machine_share_internal_queue(h2->m, &shared), SC_OK);
    h1->hook = hook_raise_int;
    h2->hook = hook_raise_int;
    START(h1, SC_OK, "enter:a", "a");
    START(h2, SC_OK, "enter:a", "a");
    STEP(h1, "go", SC_OK, "exit:a take:tgo raise=0 enter:b exit:b take:tint enter:c", "c");
    REQUIRE(shared.holder == NULL, "h1's queue is empty: the slots are given back");
    STEP(h2, "go", SC_OK, "exit:a take:tgo raise=0 enter:b exit:b take:tint enter:c", "c");
    REQUIRE(shared.holder == NULL, "h2's queue is empty: the slots are given back");
}

/* While one machine's events are in the shared slots, the others do nothing (SC_ERR_BUSY): a
 * host's raise before a dispatch, and a dispatch from inside the holder's macrostep. */
static void test_shared_internal_queue_holder_excludes_the_others(void) {
    cb_builder *b = chart_raising();
    sc_options none = { .internal_queue_capacity = SC_QUEUE_NONE };
    MACHINE(h1, b, &none);
    MACHINE(h2, b, &none);
    static sc_event slots[4];
    static sc_shared_queue shared;
    shared = (sc_shared_queue){ .slots = slots, .capacity = 4 };
    EXPECT_STATUS(sc_machine_share_internal_queue(h1->m, &shared), SC_OK);
    EXPECT_STATUS(sc_machine_share_internal_queue(h2->m, &shared), SC_OK);
    START(h1, SC_OK, "enter:a", "a");
    START(h2, SC_OK, "enter:a", "a");
    /* h1's host raises "int" before dispatching: h1 holds the slots until its queue is empty. */
    EXPECT_STATUS(sc_machine_raise(h1->m, ev(h1, "int")), SC_OK);
    REQUIRE(shared.holder == h1->m, "the raising machine holds the slots");
    EXPECT_STATUS(sc_machine_raise(h2->m, ev(h2, "int")), SC_ERR_BUSY);
    STEP(h2, "go", SC_ERR_BUSY, "", "a");
    EXPECT_STATUS(sc_machine_run(h2->m), SC_ERR_BUSY);
    EXPECT_STATUS(sc_machine_stop(h2->m), SC_ERR_BUSY);
    EXPECT_EQ_U(sc_machine_internal_count(h2->m), 0);
    /* h1's macrostep: go, then the raised events in order (the host's "int" in b, tgo's in c,
     * where nothing takes it); its queue empty, the slots go back. */
    h1->hook = hook_raise_then_dispatch_other;
    other_machine = h2;
    STEP(h1, "go", SC_OK, "exit:a take:tgo raise=0 other=-7 enter:b exit:b take:tint enter:c", "c");
    REQUIRE(shared.holder == NULL, "the slots are given back");
    EXPECT_CONFIG(h2, "a");
    EXPECT_TRACE(h2, "");
    STEP(h2, "go", SC_OK, "exit:a take:tgo enter:b", "b");
    /* Storage of its own ends the sharing: h2's events move there, the slots are free. */
    static sc_event own[4];
    EXPECT_STATUS(sc_machine_raise(h2->m, ev(h2, "int")), SC_OK);
    REQUIRE(shared.holder == h2->m, "h2 holds the slots");
    EXPECT_STATUS(sc_machine_set_internal_queue(h2->m, own, 4), SC_OK);
    REQUIRE(shared.holder == NULL, "moved out: the slots are free");
    EXPECT_EQ_U(sc_machine_internal_count(h2->m), 1);
    EXPECT_STATUS(sc_machine_raise(h1->m, ev(h1, "int")), SC_OK);
    EXPECT_STATUS(sc_machine_run(h2->m), SC_OK);
    /* A machine with events queued cannot start sharing (they would have no slots). */
    EXPECT_STATUS(sc_machine_share_internal_queue(h2->m, &shared), SC_ERR_BAD_ARGUMENT);
    sc_shared_queue empty = { .slots = NULL, .capacity = 4 };
    EXPECT_STATUS(sc_machine_share_internal_queue(h1->m, &empty), SC_ERR_BAD_ARGUMENT);
}

const test_case options_tests[] = {
    TEST(test_options_unknown_flags_are_refused),
    TEST(test_options_trusted_chart_behaves_the_same),
    TEST(test_options_trusted_chart_skips_the_check),
    TEST(test_shared_internal_queue_machines_take_turns),
    TEST(test_shared_internal_queue_holder_excludes_the_others),
};
const size_t options_test_count = sizeof options_tests / sizeof options_tests[0];
