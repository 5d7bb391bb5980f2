/*
 * bench_main.c - the plain C benchmark of CStateCore, built like firmware (cc -std=c11 -O2,
 * no Swift): for each chart of scxml/bench, the core's dispatch against a loop over the
 * chart's flattened next[configuration][event] table, timed in the same process.
 *
 *   bench_core [--charts DIR] [--rounds N] [--millis M] [--wall] [--tsv FILE] [CHART ...]
 *   bench_core --profile CHART core|table EVENTS     one untimed loop, for callgrind
 *
 * Method: both loops read the event cycle from memory (the .events file, read at run time),
 * run a multiple of its period so the machine ends where it started, and the configuration
 * is read back after every run and checked against the table's, so no compiler can fold the
 * work away. Each round times the table and the core once, alternating which goes first;
 * the median of the rounds is reported. Runs are timed in this thread's CPU time (--wall: the
 * monotonic clock), so other processes on a shared machine do not count against either loop.
 */
#define _POSIX_C_SOURCE 200809L
#include "allocation_counter.h"
#include "bench_charts.h"
#include "bench_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_EVENTS 256
#define MAX_CONFIGURATIONS 4096

typedef struct options {
    const char *charts;
    const char *tsv;
    unsigned rounds;
    double millis;
} options;

typedef struct cycle {
    sc_id ids[MAX_EVENTS];          /* event ids, for the core */
    uint32_t columns[MAX_EVENTS];   /* column numbers, for the table */
    sc_id column_ids[MAX_EVENTS];   /* event id of each column */
    uint32_t length, column_count;
} cycle;

static void fail(const char *message, const char *detail) {
    fprintf(stderr, "bench_core: %s%s%s\n", message, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static const bench_chart *find_chart(const char *name) {
    for (uint32_t i = 0; i < bench_chart_count; i++)
        if (strcmp(bench_charts[i].name, name) == 0) return &bench_charts[i];
    return NULL;
}

static sc_id event_id(const sc_chart *chart, const char *name) {
    for (sc_id e = 0; e < chart->event_count; e++)
        if (strcmp(chart->event_names[e], name) == 0) return e;
    return SC_NONE;
}

/* Reads <dir>/<chart>.events; false when the chart has no event cycle. */
static bool read_cycle(const char *dir, const bench_chart *chart, cycle *out) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.events", dir, chart->name);
    FILE *file = fopen(path, "r");
    if (!file) return false;
    memset(out, 0, sizeof *out);
    char line[256];
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, " \r\n")] = '\0';
        if (!line[0]) continue;
        if (out->length == MAX_EVENTS) fail("event cycle too long", path);
        sc_id id = event_id(chart->chart, line);
        if (id == SC_NONE) fail("the chart does not know the event", line);
        uint32_t column = 0;
        while (column < out->column_count && out->column_ids[column] != id) column++;
        if (column == out->column_count) out->column_ids[out->column_count++] = id;
        out->ids[out->length] = id;
        out->columns[out->length] = column;
        out->length++;
    }
    fclose(file);
    if (!out->length) fail("no events in", path);
    return true;
}

/* The clock the runs are timed with: this thread's CPU time, so time the scheduler gives to other
 * processes (the machine is shared: several builds may run at once on its 2 vCPUs) is not counted
 * against whichever loop was running; both loops are timed the same way. `--wall` times them with
 * the monotonic clock instead (bench_now_ns); the Swift comparison tool uses the same clocks. */
static bool wall_clock;

static uint64_t run_clock_ns(void) { return wall_clock ? bench_now_ns() : bench_thread_cpu_ns(); }

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, unsigned n) {
    qsort(values, n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* Whether the table's steps call guards or actions (the baseline then makes the same calls). */
static bool has_calls(const bench_table *table) {
    for (size_t i = 0; i < (size_t)table->configurations * table->columns; i++)
        if (table->actions[i] || table->guards_count[i]) return true;
    return false;
}

static uint32_t run_table(bench_table *table, const cycle *cy, uint64_t count, bool calling) {
    if (calling) return bench_table_run_calling(table, cy->columns, cy->length, count, 0);
    return bench_table_run(table, cy->columns, cy->length, count, 0);
}

/* Events per run: about `millis` of core dispatch, a multiple of the period. */
static uint64_t calibrate(bench_core *core, const cycle *cy, uint64_t period, double millis) {
    uint64_t count = period;
    for (;;) {
        uint64_t start = run_clock_ns();
        bench_core_run(core, cy->ids, cy->length, count);
        double elapsed = (double)(run_clock_ns() - start);
        if (elapsed > millis * 1e6 / 10 || count >= (UINT64_C(1) << 32)) {
            uint64_t wanted = (uint64_t)((double)count * millis * 1e6 / (elapsed > 1 ? elapsed : 1));
            wanted = wanted / period * period;
            return wanted ? wanted : period;
        }
        count *= 4;
    }
}

static void print_machine(FILE *tsv) {
    char cpu[256] = "unknown";
    FILE *info = fopen("/proc/cpuinfo", "r");
    if (info) {
        char line[512];
        while (fgets(line, sizeof line, info)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *colon = strchr(line, ':');
                if (colon) {
                    snprintf(cpu, sizeof cpu, "%s", colon + 2);
                    cpu[strcspn(cpu, "\n")] = '\0';
                }
                break;
            }
        }
        fclose(info);
    }
#ifndef BENCH_CFLAGS
#define BENCH_CFLAGS "?"
#endif
    printf("CStateCore C benchmark: %s; compiler %s; flags %s\n", cpu, __VERSION__, BENCH_CFLAGS);
    if (tsv) {
        fprintf(tsv, "machine.cpu\t%s\nmachine.cc\tcc %s\nmachine.cflags\t%s\n", cpu, __VERSION__, BENCH_CFLAGS);
    }
}

/* Issue 14's targets for the C core: the core's median ns per event at most `ratio` times the
 * table's, measured in the same run; and the turnstile's sc_machine at most 256 bytes with
 * default options. Filled as the charts run, printed at the end with a verdict each. */
typedef struct target {
    const char *chart;
    double ratio;
    double measured;            /* core / table; < 0: not run */
} target;

static target targets[] = {
    { "turnstile", 1.5, -1 }, { "hierarchical", 1.5, -1 }, { "deep", 1.5, -1 },
    { "wide", 5.0, -1 }, { "guarded", 5.0, -1 },
};
#define MACHINE_BYTES_TARGET 256u
static size_t turnstile_machine_bytes;

static void note_ratio(const char *chart, double ratio) {
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (strcmp(targets[i].chart, chart) == 0) targets[i].measured = ratio;
}

static void print_verdicts(FILE *tsv) {
    printf("\nTargets (C core, issue 14; medians of this run; the baseline makes the same guard and action calls)\n");
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        const target *t = &targets[i];
        if (t->measured < 0) continue;
        bool met = t->measured <= t->ratio;
        printf("  %-4s C core, %-12s at most %.1fx the next[][] table: %.2fx\n", met ? "PASS" : "MISS", t->chart,
               t->ratio, t->measured);
        if (tsv) fprintf(tsv, "%s.verdict\t%s\n", t->chart, met ? "PASS" : "MISS");
    }
    if (turnstile_machine_bytes) {
        bool met = turnstile_machine_bytes <= MACHINE_BYTES_TARGET;
        printf("  %-4s sc_machine for the turnstile, default options, at most %u B: %zu B\n", met ? "PASS" : "MISS",
               MACHINE_BYTES_TARGET, turnstile_machine_bytes);
        if (tsv) fprintf(tsv, "turnstile.machine_verdict\t%s\n", met ? "PASS" : "MISS");
    }
}

static void bench_chart_run(const options *o, const bench_chart *chart, FILE *tsv) {
    const sc_chart *c = chart->chart;
    size_t machine_bytes = sc_machine_size(c, NULL);
    if (strcmp(chart->name, "turnstile") == 0) turnstile_machine_bytes = machine_bytes;
    cycle cy;
    if (!read_cycle(o->charts, chart, &cy)) {
        printf("%-13s %5u states %6u transitions   machine %zu B   (no event cycle: not dispatched)\n",
               chart->name, c->state_count, c->transition_count, machine_bytes);
        if (tsv) fprintf(tsv, "%s.machine_bytes\t%zu\n", chart->name, machine_bytes);
        return;
    }
    bench_table table;
    sc_status status = bench_table_build(&table, c, chart->guard_states, chart->guard_count, cy.column_ids,
                                         cy.column_count, MAX_CONFIGURATIONS);
    if (status != SC_OK) fail("cannot flatten the chart", chart->name);
    bool counting = has_calls(&table);

    bench_core core;
    if (bench_core_open(&core, c, chart->guard_states, chart->guard_count) != SC_OK)
        fail("the machine did not start", chart->name);
    if (bench_table_find(&table, core.machine) != 0) fail("core and table disagree on the start", chart->name);
    uint64_t period = 2u * cy.length;
    uint64_t count = calibrate(&core, &cy, period, o->millis);
    uint64_t table_count = count * 16;      /* the table is much faster: keep its runs long enough */

    double *table_ns = calloc(o->rounds, sizeof *table_ns), *core_ns = calloc(o->rounds, sizeof *core_ns);
    if (!table_ns || !core_ns) fail("out of memory", NULL);
    for (unsigned r = 0; r < o->rounds; r++) {
        for (int k = 0; k < 2; k++) {
            if ((k == 0) == (r % 2 == 0)) {
                uint64_t start = run_clock_ns();
                uint32_t end = run_table(&table, &cy, table_count, counting);
                table_ns[r] = (double)(run_clock_ns() - start) / (double)table_count;
                if (end != 0) fail("the table did not return to its start", chart->name);
            } else {
                uint64_t start = run_clock_ns();
                uint64_t unhandled = bench_core_run(&core, cy.ids, cy.length, count);
                core_ns[r] = (double)(run_clock_ns() - start) / (double)count;
                if (unhandled) fail("events not handled", chart->name);
                if (bench_table_find(&table, core.machine) != 0) fail("the core did not return to its start", chart->name);
            }
        }
    }
    /* Same work: the baseline's guard and action calls against the core's. */
    core.action_calls = core.guard_calls = 0;
    bench_core_run(&core, cy.ids, cy.length, period * 100);
    table.action_calls = table.guard_calls = 0;
    run_table(&table, &cy, period * 100, counting);
    if (counting && table.action_calls != core.action_calls) fail("table and core ran different numbers of actions", chart->name);
    if (counting && table.guard_calls != core.guard_calls) fail("table and core called guards a different number of times", chart->name);
    double guards = (double)core.guard_calls / (double)(period * 100);
    double actions_per_event = (double)core.action_calls / (double)(period * 100);

    double allocations = -1;
    if (allocation_counter_available()) {
        allocation_counter_start();
        bench_core_run(&core, cy.ids, cy.length, period * 1000);
        allocation_counter_stop();
        allocations = (double)allocation_counter_calls() / (double)(period * 1000);
    }
    double t = median(table_ns, o->rounds), m = median(core_ns, o->rounds);
    note_ratio(chart->name, m / t);
    printf("%-13s %8.2f %8.2f %7.1fx %6u %6.2f %7.2f %8.2f %9zu\n", chart->name, t, m, m / t,
           table.configurations, guards, actions_per_event, allocations,
           machine_bytes);
    if (tsv) {
        fprintf(tsv, "%s.table_ns\t%.3f\n%s.core_ns\t%.3f\n%s.core_allocs\t%.3f\n%s.configurations\t%u\n"
                     "%s.machine_bytes\t%zu\n%s.events_per_run\t%llu\n",
                chart->name, t, chart->name, m, chart->name, allocations, chart->name, table.configurations,
                chart->name, machine_bytes, chart->name, (unsigned long long)count);
    }
    free(table_ns);
    free(core_ns);
    bench_core_close(&core);
    bench_table_free(&table);
}

/* One untimed loop, for `valgrind --tool=callgrind --toggle-collect=bench_core_run`. */
static int profile(const char *dir, const char *name, const char *runner, const char *events) {
    const bench_chart *chart = find_chart(name);
    cycle cy;
    if (!chart || !read_cycle(dir, chart, &cy)) fail("no such chart with an event cycle", name);
    uint64_t count = strtoull(events, NULL, 10);
    bench_core core;
    if (bench_core_open(&core, chart->chart, chart->guard_states, chart->guard_count) != SC_OK)
        fail("the machine did not start", name);
    if (strcmp(runner, "table") == 0) {
        bench_table table;
        if (bench_table_build(&table, chart->chart, chart->guard_states, chart->guard_count, cy.column_ids,
                              cy.column_count, MAX_CONFIGURATIONS) != SC_OK)
            fail("cannot flatten the chart", name);
        printf("end state %u\n", run_table(&table, &cy, count, has_calls(&table)));
        bench_table_free(&table);
    } else {
        printf("unhandled %llu\n", (unsigned long long)bench_core_run(&core, cy.ids, cy.length, count));
    }
    bench_core_close(&core);
    return 0;
}

int main(int argc, char **argv) {
    options o = { "scxml/bench", NULL, 11, 20.0 };
    const char *only[16];
    unsigned only_count = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--charts") == 0 && has_value) o.charts = argv[++i];
        else if (strcmp(a, "--tsv") == 0 && has_value) o.tsv = argv[++i];
        else if (strcmp(a, "--rounds") == 0 && has_value) o.rounds = (unsigned)atoi(argv[++i]);
        else if (strcmp(a, "--millis") == 0 && has_value) o.millis = atof(argv[++i]);
        else if (strcmp(a, "--wall") == 0) wall_clock = true;
        else if (strcmp(a, "--profile") == 0 && i + 3 < argc) return profile(o.charts, argv[i + 1], argv[i + 2], argv[i + 3]);
        else if (a[0] != '-' && only_count < 16) only[only_count++] = a;
        else fail("usage: bench_core [--charts DIR] [--rounds N] [--millis M] [--wall] [--tsv FILE] [CHART ...]", a);
    }
    if (o.rounds == 0) o.rounds = 1;
    FILE *tsv = NULL;
    if (o.tsv && !(tsv = fopen(o.tsv, "w"))) fail("cannot write", o.tsv);
    print_machine(tsv);
    printf("median of %u rounds; each round times the table and the core once (about %.0f ms of %s)\n\n", o.rounds,
           o.millis, wall_clock ? "wall-clock time" : "this thread's CPU time");
    printf("%-13s %8s %8s %8s %6s %6s %7s %8s %9s\n", "chart", "table", "core", "core/", "confs", "guards", "actions",
           "allocs", "machine");
    printf("%-13s %8s %8s %8s %6s %6s %7s %8s %9s\n", "", "ns/event", "ns/event", "table", "", "/event", "/event",
           "/event", "bytes");
    for (uint32_t i = 0; i < bench_chart_count; i++) {
        const bench_chart *chart = &bench_charts[i];
        bool wanted = only_count == 0;
        for (unsigned k = 0; k < only_count; k++)
            if (strcmp(only[k], chart->name) == 0) wanted = true;
        if (wanted) bench_chart_run(&o, chart, tsv);
    }
    print_verdicts(tsv);
    if (tsv) fclose(tsv);
    return 0;
}
