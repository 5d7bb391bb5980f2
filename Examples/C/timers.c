/* timers.c - see timers.h. A linear table: a chart has a handful of delayed sends pending, so
 * a scan is smaller and faster than a heap, and keeps no invariant besides count. */
#include "timers.h"

#include <string.h>

/* true when tick a comes before tick b (wrap-around safe). */
static bool before(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

bool timers_start(timers *t, uint32_t now, uint32_t delay, const char *sendid, sc_event event) {
    if (t->count == TIMERS_CAPACITY) return false;
    t->entries[t->count++] = (timer_entry){ .due = now + delay, .sequence = t->next_sequence++,
                                            .sendid = sendid, .event = event };
    return true;
}

uint32_t timers_cancel(timers *t, const char *sendid) {
    uint32_t kept = 0, removed = 0;
    for (uint32_t i = 0; i < t->count; i++) {
        const timer_entry *e = &t->entries[i];
        if (e->sendid && sendid && strcmp(e->sendid, sendid) == 0) removed++;
        else t->entries[kept++] = *e;
    }
    t->count = kept;
    return removed;
}

/* Index of the entry that fires first, t->count when empty. */
static uint32_t earliest(const timers *t) {
    uint32_t best = t->count;
    for (uint32_t i = 0; i < t->count; i++) {
        const timer_entry *e = &t->entries[i];
        if (best == t->count || before(e->due, t->entries[best].due) ||
            (e->due == t->entries[best].due && before(e->sequence, t->entries[best].sequence)))
            best = i;
    }
    return best;
}

bool timers_next_due(const timers *t, uint32_t *due) {
    uint32_t i = earliest(t);
    if (i == t->count) return false;
    *due = t->entries[i].due;
    return true;
}

bool timers_take_due(timers *t, uint32_t now, sc_event *event) {
    uint32_t i = earliest(t);
    if (i == t->count || before(now, t->entries[i].due)) return false;
    *event = t->entries[i].event;
    t->entries[i] = t->entries[--t->count];   /* order is by (due, sequence), not position */
    return true;
}
