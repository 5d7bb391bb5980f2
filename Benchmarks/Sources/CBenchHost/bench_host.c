/*
 * bench_host.c - see bench_host.h.
 */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 199309L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include "bench_host.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static bool count_guard(void *context, sc_machine *machine, sc_id guard, const sc_event *event) {
    (void)event;
    bench_core *core = context;
    core->guard_calls++;
    if (core->guard_log && core->guard_log_count < core->guard_log_capacity)
        core->guard_log[core->guard_log_count++] = guard;
    return guard < core->guard_count && sc_machine_is_active(machine, core->guard_states[guard]);
}

static void count_action(void *context, sc_machine *machine, sc_id action, const sc_event *event) {
    (void)machine;
    (void)action;
    (void)event;
    bench_core *core = context;
    core->action_calls++;
}

sc_status bench_core_open(bench_core *core, const sc_chart *chart, const sc_id *guard_states,
                          uint32_t guard_count) {
    memset(core, 0, sizeof *core);
    core->guard_states = guard_states;
    core->guard_count = guard_count;
    core->host = (sc_host){ .context = core, .guard = count_guard, .action = count_action };
    core->machine = sc_machine_create(chart, &core->host, NULL);
    if (!core->machine) return SC_ERR_BAD_CHART;
    sc_status status = sc_machine_start(core->machine);
    if (status < 0) {
        bench_core_close(core);
        return status;
    }
    return SC_OK;
}

void bench_core_close(bench_core *core) {
    sc_machine_destroy(core->machine);
    core->machine = NULL;
}

uint64_t bench_core_run(bench_core *core, const sc_id *events, uint32_t length, uint64_t count) {
    sc_machine *machine = core->machine;
    uint64_t unhandled = 0;
    uint32_t j = core->position < length ? core->position : 0;
    for (uint64_t i = 0; i < count; i++) {
        sc_event event = { events[j], 0, 0 };
        if (++j == length) j = 0;
        unhandled += sc_machine_dispatch(machine, event) != SC_OK;
    }
    core->position = j;
    return unhandled;
}

/* The baseline's guard: In(guard_states[g]) in table configuration c, counted like count_guard. */
static bool table_guard(bench_table *t, uint32_t c, sc_id guard) {
    t->guard_calls++;
    if (guard >= t->guard_count) return false;
    sc_id s = t->guard_states[guard];
    return (t->bits[(size_t)c * t->words + (s >> 6)] >> (s & 63u)) & 1u;
}

/* The baseline's action: counted like count_action. */
static void table_action(bench_table *t, sc_id action) {
    (void)action;
    t->action_calls++;
}

uint32_t bench_table_find(const bench_table *t, const sc_machine *machine) {
    const uint64_t *bits = sc_machine_configuration(machine);
    for (uint32_t c = 0; c < t->configurations; c++)
        if (memcmp(t->bits + (size_t)c * t->words, bits, t->words * sizeof(uint64_t)) == 0) return c;
    return UINT32_MAX;
}

/* Puts the machine into configuration c (a legal one: it was reached by dispatching). */
static sc_status restore(bench_table *t, sc_machine *machine, uint32_t c, sc_id *scratch) {
    const uint64_t *bits = t->bits + (size_t)c * t->words;
    uint32_t n = 0;
    for (uint32_t w = 0; w < t->words; w++)
        for (uint64_t word = bits[w]; word; word &= word - 1)
            scratch[n++] = (sc_id)(w * 64u + (uint32_t)__builtin_ctzll(word));
    return sc_machine_restore(machine, scratch, n, false);
}

sc_status bench_table_build(bench_table *t, const sc_chart *chart, const sc_id *guard_states,
                            uint32_t guard_count, const sc_id *column_events, uint32_t columns,
                            uint32_t max_configurations) {
    memset(t, 0, sizeof *t);
    bench_core core;
    sc_status status = bench_core_open(&core, chart, guard_states, guard_count);
    if (status != SC_OK) return status;
    t->columns = columns;
    t->words = sc_machine_configuration_words(core.machine);
    t->guard_states = guard_states;
    t->guard_count = guard_count;
    t->guard = table_guard;
    t->action = table_action;
    t->next = calloc((size_t)max_configurations * columns, sizeof *t->next);
    t->actions = calloc((size_t)max_configurations * columns, sizeof *t->actions);
    t->guards_first = calloc((size_t)max_configurations * columns, sizeof *t->guards_first);
    t->guards_count = calloc((size_t)max_configurations * columns, sizeof *t->guards_count);
    t->bits = calloc((size_t)max_configurations * t->words, sizeof *t->bits);
    sc_id *scratch = calloc(chart->state_count, sizeof *scratch);
    uint32_t log_capacity = 1024, log_used = 0;
    t->guard_ids = malloc(log_capacity * sizeof *t->guard_ids);
    if (!t->next || !t->actions || !t->guards_first || !t->guards_count || !t->bits || !scratch || !t->guard_ids) {
        status = SC_ERR_NO_MEMORY;
        goto done;
    }
    memcpy(t->bits, sc_machine_configuration(core.machine), t->words * sizeof(uint64_t));
    t->configurations = 1;
    for (uint32_t c = 0; c < t->configurations; c++) {
        for (uint32_t e = 0; e < columns; e++) {
            if ((status = restore(t, core.machine, c, scratch)) != SC_OK) goto done;
            core.action_calls = 0;
            if (log_capacity - log_used < 256) {
                sc_id *grown = realloc(t->guard_ids, 2 * log_capacity * sizeof *grown);
                if (!grown) {
                    status = SC_ERR_NO_MEMORY;
                    goto done;
                }
                t->guard_ids = grown;
                log_capacity *= 2;
            }
            core.guard_log = t->guard_ids + log_used;
            core.guard_log_count = 0;
            core.guard_log_capacity = log_capacity - log_used;
            sc_event event = { column_events[e], 0, 0 };
            status = sc_machine_dispatch(core.machine, event);
            core.guard_log = NULL;
            if (status < 0) goto done;
            if (core.guard_log_count == core.guard_log_capacity) {
                status = SC_ERR_NO_MEMORY;      /* more guard calls in one step than the log holds */
                goto done;
            }
            t->guards_first[(size_t)c * columns + e] = log_used;
            t->guards_count[(size_t)c * columns + e] = core.guard_log_count;
            log_used += core.guard_log_count;
            uint32_t found = bench_table_find(t, core.machine);
            if (found == UINT32_MAX) {
                if (t->configurations == max_configurations) {
                    status = SC_ERR_NO_MEMORY;
                    goto done;
                }
                found = t->configurations++;
                memcpy(t->bits + (size_t)found * t->words, sc_machine_configuration(core.machine),
                       t->words * sizeof(uint64_t));
            }
            t->next[(size_t)c * columns + e] = found;
            t->actions[(size_t)c * columns + e] = (uint32_t)core.action_calls;
        }
    }
    status = SC_OK;
done:
    free(scratch);
    bench_core_close(&core);
    if (status != SC_OK) bench_table_free(t);
    return status;
}

void bench_table_free(bench_table *t) {
    free(t->next);
    free(t->actions);
    free(t->guards_first);
    free(t->guards_count);
    free(t->guard_ids);
    free(t->bits);
    memset(t, 0, sizeof *t);
}

uint32_t bench_table_run(const bench_table *t, const uint32_t *columns, uint32_t length,
                         uint64_t count, uint32_t start) {
    const uint32_t *next = t->next;
    const uint32_t width = t->columns;
    uint32_t state = start, j = 0;
    for (uint64_t i = 0; i < count; i++) {
        state = next[state * width + columns[j]];
        if (++j == length) j = 0;
    }
    return state;
}

uint32_t bench_table_run_calling(bench_table *t, const uint32_t *columns, uint32_t length,
                                 uint64_t count, uint32_t start) {
    const uint32_t *next = t->next;
    const uint32_t *actions = t->actions;
    const uint32_t width = t->columns;
    uint32_t state = start, j = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint32_t cell = state * width + columns[j];
        const sc_id *guard = t->guard_ids + t->guards_first[cell];
        for (uint32_t g = t->guards_count[cell]; g > 0; g--) t->guard(t, state, *guard++);
        for (uint32_t a = actions[cell]; a > 0; a--) t->action(t, 0);
        state = next[cell];
        if (++j == length) j = 0;
    }
    return state;
}

uint64_t bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bench_thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Set once from the command line before any run, read by the timing loops of one thread. */
static bool use_wall_clock;

void bench_use_wall_clock(bool wall) { use_wall_clock = wall; }

uint64_t bench_run_clock_ns(void) { return use_wall_clock ? bench_now_ns() : bench_thread_cpu_ns(); }
