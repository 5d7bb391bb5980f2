/*
 * test_options.c - C-level tests of CStateCore: sc_options.flags (SC_MACHINE_TRUSTED_CHART,
 * unknown bits). SC_MACHINE_NO_PLANS is tested against planned machines in test_differential.c.
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

const test_case options_tests[] = {
    TEST(test_options_unknown_flags_are_refused),
    TEST(test_options_trusted_chart_behaves_the_same),
    TEST(test_options_trusted_chart_skips_the_check),
};
const size_t options_test_count = sizeof options_tests / sizeof options_tests[0];
