/*
 * bench_charts.h - the benchmark charts as constant CStateCore tables. The definitions are
 * generated from the documents in scxml/bench by `bench-compare codegen` (see Makefile), so the C
 * program runs exactly the tables the Swift library compiles from the same documents.
 */
#ifndef BENCH_CHARTS_H
#define BENCH_CHARTS_H

#include "sc_core.h"

#include <stddef.h>

typedef struct bench_chart {
    const char *name;               /* scxml/bench/<name>.scxml */
    const sc_chart *chart;
    const sc_id *guard_states;      /* guard g is In(guard_states[g]) */
    uint32_t guard_count;
} bench_chart;

extern const bench_chart bench_charts[];
extern const uint32_t bench_chart_count;

#endif /* BENCH_CHARTS_H */
