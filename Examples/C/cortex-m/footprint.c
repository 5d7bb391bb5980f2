/*
 * footprint.c - the smallest complete firmware around one generated chart, for measuring what
 * the core and the chart take on a Cortex-M3 (scripts/footprint.sh). It builds the machine in a
 * static block of NAME_MACHINE_SIZE bytes with NAME_options, starts it, dispatches the chart's
 * benchmark events, and reports through semihosting:
 *
 *     machine 1234 default 456 small 2048 header 12 states 9 transitions 312 stack
 *
 * machine sizes (sc_machine_size on the target) for NAME_options and for 4 + 4 queue slots, the
 * header's constant, the chart's size, and the most stack the run used (painted and scanned).
 *
 * Compiled with -DFOOTPRINT_HEADER='"turnstile.h"' -DFOOTPRINT_NAME=turnstile and the events as
 * script.inc (one string literal per line), as the Makefile does for firmware.c. The hooks the
 * chart's header declares (log, timers) come as no-ops from a file scripts/footprint.sh writes.
 * Exits with status 1 (QEMU's) when the machine cannot be built or an event gives an error.
 */
#include FOOTPRINT_HEADER
#include "semihosting.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JOIN2(a, b) a##b
#define JOIN(a, b) JOIN2(a, b)
#define CHART JOIN(FOOTPRINT_NAME, _chart)

static const char *const script[] = {
#include "script.inc"
    NULL
};

static const sc_options small_queues = { .internal_queue_capacity = 4, .external_queue_capacity = 4 };

static uint64_t memory[(JOIN(FOOTPRINT_NAME, _MACHINE_SIZE) + 7u) / 8u];

/* Linker script symbol (mps2-an385.ld): the stack grows down from the top of RAM. */
extern uint32_t stack_top;
#define STACK_PAINT UINT32_C(0xDEADBEEF)
#define STACK_SCANNED (64u * 1024u)   /* far more than the run needs; painting all 4 MiB is slow */

/* Paints the free stack below the caller's frame, so stack_used() can find the deepest write. */
static void paint_stack(void) {
    uint32_t *limit = (uint32_t *)(void *)((uintptr_t)&stack_top - STACK_SCANNED);
    uint32_t *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (uint32_t *p = limit; p < sp - 16; p++) *p = STACK_PAINT;   /* 64 bytes of margin */
}

static size_t stack_used(void) {
    uint32_t *p = (uint32_t *)(void *)((uintptr_t)&stack_top - STACK_SCANNED);
    while (*p == STACK_PAINT) p++;
    return (size_t)((uintptr_t)&stack_top - (uintptr_t)p);
}

static void put(const char *text) { semihosting_write_stdout(text, strlen(text)); }

static void put_number(size_t value, const char *unit) {
    char digits[24];
    size_t n = sizeof digits;
    do { digits[--n] = (char)('0' + value % 10u); value /= 10u; } while (value);
    semihosting_write_stdout(digits + n, sizeof digits - n);
    put(unit);
}

static sc_id event_id(const char *name) {
    for (sc_id e = 0; e < CHART.event_count; e++)
        if (strcmp(CHART.event_names[e], name) == 0) return e;
    return SC_EVENT_UNKNOWN;
}

/* Kept out of line so its frame is below main's painted area. */
__attribute__((noinline)) static int run(void) {
    static const sc_host host = { .guard = JOIN(FOOTPRINT_NAME, _guard), .action = JOIN(FOOTPRINT_NAME, _action) };
    sc_machine *machine;
    if (sc_machine_init(&machine, memory, sizeof memory, &CHART, &host, &JOIN(FOOTPRINT_NAME, _options)) != SC_OK)
        return 1;
    if (sc_machine_start(machine) < 0 || sc_machine_run(machine) < 0) return 1;
    for (const char *const *line = script; *line; line++) {
        if (**line == '\0') continue;
        if (sc_machine_dispatch(machine, (sc_event){ .id = event_id(*line) }) < 0) return 1;
        if (sc_machine_run(machine) < 0) return 1;
    }
    return 0;
}

int main(void) {
    paint_stack();
    int status = run();
    size_t stack = stack_used();
    put("machine ");
    put_number(sc_machine_size(&CHART, &JOIN(FOOTPRINT_NAME, _options)), " default ");
    put_number(sc_machine_size(&CHART, &small_queues), " small ");
    put_number(JOIN(FOOTPRINT_NAME, _MACHINE_SIZE), " header ");
    put_number(CHART.state_count, " states ");
    put_number(CHART.transition_count, " transitions ");
    put_number(stack, " stack\n");
    return status;
}
