/*
 * fuzz_support.h - what the CStateCore libFuzzer harnesses share: a reader that turns the
 * fuzzer's bytes into bounded choices, and an oracle for the legality of a configuration.
 *
 * The oracle is deliberately written apart from the core's own is_legal_configuration()
 * (sc_machine.c): a harness that asked the code under test whether it is right could not
 * find a case where it is wrong. It walks the tree with parent pointers and the children
 * hop of a checked chart, and follows the W3C definition (SCXML 3.11, "legal state
 * configuration"): the root is active (implicitly: the core never sets its bit); an active state's parent is active; an active compound
 * state has exactly one active child; an active parallel state has all its children active;
 * history pseudo-states are never active.
 */
#ifndef FUZZ_SUPPORT_H
#define FUZZ_SUPPORT_H

#include "sc_core.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fuzzer's input consumed front to back; past its end every read yields 0, so any
 * input, however short, describes one complete case. */
typedef struct fuzz_input {
    const uint8_t *data;
    size_t size, at;
} fuzz_input;

static inline uint8_t fuzz_byte(fuzz_input *in) { return in->at < in->size ? in->data[in->at++] : 0; }

/* A choice in [0, n), n >= 1; one byte while n <= 256, two beyond. */
static inline uint32_t fuzz_choose(fuzz_input *in, uint32_t n) {
    uint32_t v = fuzz_byte(in);
    if (n > 256) v = v << 8 | fuzz_byte(in);
    return v % n;
}

static inline uint32_t fuzz_u32(fuzz_input *in) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v = v << 8 | fuzz_byte(in);
    return v;
}

static inline bool fuzz_exhausted(const fuzz_input *in) { return in->at >= in->size; }

/*
 * Checks the configuration of `m` (whose chart passed sc_chart_check) against the W3C rules
 * above, and that sc_machine_active_states agrees with sc_machine_is_active and that no bit
 * past the last state is set. Returns NULL when legal, else a static description, with the
 * offending state in *state.
 */
const char *fuzz_illegal_configuration(const sc_machine *m, sc_id *state);

/* Reports a finding and aborts, so libFuzzer records the input as a crash. */
_Noreturn void fuzz_fail(const char *harness, const char *format, ...);

#endif /* FUZZ_SUPPORT_H */
