/*
 * sc_history.c - history records: where each history state's record lives in the machine's
 * block, what exitStates records (one definition, used to record and to foresee a record), reading
 * a value back (one cursor, for the algorithm and the snapshot accessor alike) and setting it
 * from a snapshot.
 *
 * history_index holds (history state, word offset of its record) sorted by state, so finding a
 * record is a binary search over the chart's history states only.
 */
#include "sc_internal.h"

#if !SC_CONFIG_NO_HISTORY

uint32_t sc_history_record_words(const sc_chart *c, sc_id h) {
    sc_id p = c->states[h].parent;
    return (uint32_t)SC_BIT_WORDS(c->states[p].last_descendant - p);
}

void sc_history_index_build(sc_machine *m) {
    const sc_chart *c = m->chart;
    uint32_t k = 0, offset = 0;
    for (sc_id s = 0; s < c->state_count; s++) {
        if (!sc_is_history(c->states[s].kind)) continue;
        sc_block_history_index(m)[2 * k] = (sc_offset)s;
        sc_block_history_index(m)[2 * k + 1] = (sc_offset)offset;
        offset += sc_history_record_words(c, s);
        k++;
    }
}

/* The record of history state h (which must be one: the index lists every history state). */
static sc_word *record_of(const sc_machine *m, sc_id h) {
    uint32_t lo = 0, hi = sc_history_count(m);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        sc_id s = sc_block_history_index(m)[2 * mid];
        if (s == h) return sc_block_history_records(m) + sc_block_history_index(m)[2 * mid + 1];
        if (s < h) lo = mid + 1; else hi = mid;
    }
    assert(!"not a history state");
    return sc_block_history_records(m);
}

sc_history_cursor sc_history_open(const sc_machine *m, sc_id h) {
    const sc_chart *c = m->chart;
    sc_id p = c->states[h].parent;
    sc_history_cursor cur = { c, record_of(m, h), 0, c->states[p].last_descendant - p, p + 1, p, 0 };
    return cur;
}

sc_history_cursor sc_history_open_current(const sc_machine *m, sc_id h) {
    const sc_chart *c = m->chart;
    sc_id p = c->states[h].parent;
    sc_history_cursor cur = { c, sc_block_configuration(m), p + 1, c->states[p].last_descendant + 1, 0, p,
                              c->states[h].kind };
    return cur;
}

sc_id sc_history_next(sc_history_cursor *cur) {
    for (;;) {
        sc_id b = sc_bit_next(cur->bits, cur->next, cur->end);
        if (b >= cur->end) return SC_NONE;
        cur->next = b + 1;
        sc_id s = cur->base + b;
        if (cur->select == 0) return s;
        const sc_state *st = &cur->chart->states[s];
        if (cur->select == SC_HISTORY_DEEP ? sc_is_atomic(st->kind) : st->parent == cur->parent) return s;
    }
}

void sc_history_record(sc_machine *m, sc_id h) {
    const sc_chart *c = m->chart;
    sc_id p = c->states[h].parent;
    sc_word *rec = record_of(m, h);
    memset(rec, 0, sc_history_record_words(c, h) * sizeof(sc_word));
    sc_history_cursor cur = sc_history_open_current(m, h);
    for (sc_id s = sc_history_next(&cur); s != SC_NONE; s = sc_history_next(&cur)) sc_bit_set(rec, s - p - 1);
    sc_bit_set(sc_block_history_recorded(m), h);
}

void sc_history_set(sc_machine *m, sc_id h, const sc_id *states, uint32_t count) {
    const sc_chart *c = m->chart;
    sc_id p = c->states[h].parent;
    sc_word *rec = record_of(m, h);
    memset(rec, 0, sc_history_record_words(c, h) * sizeof(sc_word));
    for (uint32_t i = 0; i < count; i++) sc_bit_set(rec, states[i] - p - 1);
    if (count) sc_bit_set(sc_block_history_recorded(m), h);
    else sc_bit_clear(sc_block_history_recorded(m), h);
}

#else
typedef int sc_history_left_out;   /* ISO C wants a translation unit to declare something */
#endif /* SC_CONFIG_NO_HISTORY */
