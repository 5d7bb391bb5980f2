/*
 * bench_host.h - what the benchmarks of CStateCore run: a machine with counting host
 * callbacks, its dispatch loop, and the baseline it is compared with, a loop over a
 * precomputed next[configuration][event] table of the same chart.
 *
 * Shared by the plain C benchmark (Benchmarks/C, built with cc -O2 like firmware) and the
 * Swift comparison tool, so both time exactly the same loops.
 *
 * Guards of the benchmark charts are In('state') conditions: guard g holds while state
 * guard_states[g] is active. Every guard and action call is counted, so runners can check
 * that they did the same work.
 */
#ifndef BENCH_HOST_H
#define BENCH_HOST_H

#include "sc_core.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A started machine whose callbacks count guard and action calls. Must not move once open. */
typedef struct bench_core {
    sc_machine *machine;
    sc_host host;               /* the machine's callbacks: the core keeps them by reference, so
                                   the struct stays where bench_core_open made it */
    const sc_id *guard_states;  /* guard g is In(guard_states[g]) */
    uint32_t guard_count;
    uint64_t guard_calls;
    uint64_t action_calls;
    uint32_t position;          /* next event of the cycle bench_core_run sends */
    sc_id *guard_log;           /* when set: the guard ids called, in order (bench_table_build) */
    uint32_t guard_log_count, guard_log_capacity;
} bench_core;

/** Creates (malloc) and starts a machine for `chart`. Returns SC_OK or the failing status. */
sc_status bench_core_open(bench_core *core, const sc_chart *chart, const sc_id *guard_states,
                          uint32_t guard_count);
void bench_core_close(bench_core *core);

/**
 * Dispatches `count` events of the cycle events[0 .. length), starting where the previous call
 * stopped (core->position). Returns how many were not handled (status other than SC_OK).
 */
uint64_t bench_core_run(bench_core *core, const sc_id *events, uint32_t length, uint64_t count);

typedef struct bench_table bench_table;

/**
 * The flattened chart: every configuration reachable from the initial one with the given
 * events (columns), numbered in discovery order (0 is the initial configuration), and for each
 * configuration and column the next configuration, the number of actions that step runs and
 * the guards it evaluates (in the core's order), so the baseline can make the same calls.
 */
struct bench_table {
    uint32_t configurations;
    uint32_t columns;
    uint32_t words;             /* 64-bit words per configuration */
    uint32_t *next;             /* next[c * columns + e] */
    uint32_t *actions;          /* action calls of that step */
    uint32_t *guards_first;     /* that step's guard calls: guard_ids[guards_first[cell] ..    */
    uint32_t *guards_count;     /*                                      + guards_count[cell]) */
    sc_id *guard_ids;
    uint64_t *bits;             /* configuration c: bits[c * words .. + words) */
    const sc_id *guard_states;  /* guard g is In(guard_states[g]) */
    uint32_t guard_count;
    uint64_t guard_calls;       /* counted by the baseline's guard and action functions */
    uint64_t action_calls;
    /* Called by bench_table_run_calling like the core calls its host: through pointers. */
    bool (*guard)(bench_table *table, uint32_t configuration, sc_id guard);
    void (*action)(bench_table *table, sc_id action);
};

/**
 * Builds the table by exploring with the core itself (sc_machine_restore + dispatch), so it
 * encodes exactly the core's semantics. Fails with SC_ERR_NO_MEMORY past `max_configurations`.
 */
sc_status bench_table_build(bench_table *table, const sc_chart *chart, const sc_id *guard_states,
                            uint32_t guard_count, const sc_id *column_events, uint32_t columns,
                            uint32_t max_configurations);
void bench_table_free(bench_table *table);

/** The configuration number of the core's current configuration, or UINT32_MAX. */
uint32_t bench_table_find(const bench_table *table, const sc_machine *machine);

/** The baseline loop: `state = next[state][column]` over `count` events; returns the state. */
uint32_t bench_table_run(const bench_table *table, const uint32_t *columns, uint32_t length,
                         uint64_t count, uint32_t start);

/**
 * The same for charts with guards or actions: each step also calls table->guard for each guard
 * the core evaluates there (In(): a bit test on the configuration's bits) and table->action for
 * each action it runs, through function pointers, as the core calls its host's (same calls, same
 * number). Returns the state; the calls are counted in table->guard_calls and action_calls.
 */
uint32_t bench_table_run_calling(bench_table *table, const uint32_t *columns, uint32_t length,
                                 uint64_t count, uint32_t start);

/** Monotonic clock in nanoseconds. */
uint64_t bench_now_ns(void);

/** This thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID): time the scheduler gives to
 *  other processes on a shared machine is not counted against the loop being timed. */
uint64_t bench_thread_cpu_ns(void);

/** The clock runs are timed with: bench_thread_cpu_ns, or bench_now_ns after
 *  bench_use_wall_clock(true) (the tools' `--wall` option). */
uint64_t bench_run_clock_ns(void);
void bench_use_wall_clock(bool wall);

#ifdef __cplusplus
}
#endif
#endif /* BENCH_HOST_H */
