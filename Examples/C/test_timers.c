/* test_timers.c - timers.c's contract: firing order (due tick, then start order), cancel by send
 * id, a full table, and a tick counter that wraps. `make test` runs it; exit status 1 on failure. */
#include "timers.h"

#include <stdio.h>

static int failures;

#define CHECK(condition)                                                              \
    do {                                                                              \
        if (!(condition)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            failures++;                                                               \
        }                                                                             \
    } while (0)

static sc_event ev(sc_id id) { return (sc_event){ .id = id }; }

/* Takes the ids of every event due at `now` into out[]; returns how many. */
static unsigned take_all(timers *t, uint32_t now, sc_id *out, unsigned capacity) {
    unsigned n = 0;
    sc_event event;
    while (n < capacity && timers_take_due(t, now, &event)) out[n++] = event.id;
    return n;
}

static void test_order(void) {
    timers t = { .count = 0 };
    CHECK(timers_start(&t, 0, 100, "a", ev(1)));
    CHECK(timers_start(&t, 0, 50, "b", ev(2)));
    CHECK(timers_start(&t, 10, 90, "c", ev(3)));   /* due 100, like "a", started later */
    uint32_t due = 0;
    CHECK(timers_next_due(&t, &due) && due == 50);
    sc_id fired[4];
    CHECK(take_all(&t, 49, fired, 4) == 0);
    CHECK(take_all(&t, 99, fired, 4) == 1 && fired[0] == 2);
    CHECK(take_all(&t, 100, fired, 4) == 2 && fired[0] == 1 && fired[1] == 3);
    CHECK(!timers_next_due(&t, &due));
}

static void test_cancel(void) {
    timers t = { .count = 0 };
    CHECK(timers_start(&t, 0, 10, "cookTimer", ev(1)));
    CHECK(timers_start(&t, 0, 20, NULL, ev(2)));
    CHECK(timers_start(&t, 0, 30, "cookTimer", ev(3)));
    CHECK(timers_start(&t, 0, 40, "other", ev(4)));
    CHECK(timers_cancel(&t, "cookTimer") == 2);
    CHECK(timers_cancel(&t, "cookTimer") == 0);
    CHECK(timers_cancel(&t, "unknown") == 0);
    CHECK(timers_cancel(&t, NULL) == 0);        /* a send without id cannot be cancelled */
    sc_id fired[4];
    CHECK(take_all(&t, 1000, fired, 4) == 2 && fired[0] == 2 && fired[1] == 4);
}

static void test_full(void) {
    timers t = { .count = 0 };
    for (unsigned i = 0; i < TIMERS_CAPACITY; i++) CHECK(timers_start(&t, 0, i, NULL, ev(i)));
    CHECK(!timers_start(&t, 0, 5, NULL, ev(99)));
    CHECK(t.count == TIMERS_CAPACITY);
    sc_event event;
    CHECK(timers_take_due(&t, 0, &event) && event.id == 0);
    CHECK(timers_start(&t, 0, 5, NULL, ev(99)));    /* a slot is free again */
}

static void test_wrap(void) {
    timers t = { .count = 0 };
    CHECK(timers_start(&t, UINT32_C(0xFFFFFF00), 0x200, NULL, ev(1)));   /* due 0x100, after the wrap */
    CHECK(timers_start(&t, UINT32_C(0xFFFFFF00), 0xF0, NULL, ev(2)));    /* due 0xFFFFFFF0, before it */
    uint32_t due = 0;
    CHECK(timers_next_due(&t, &due) && due == UINT32_C(0xFFFFFFF0));
    sc_id fired[4];
    CHECK(take_all(&t, UINT32_C(0xFFFFFFFF), fired, 4) == 1 && fired[0] == 2);
    CHECK(take_all(&t, 0xFF, fired, 4) == 0);
    CHECK(take_all(&t, 0x100, fired, 4) == 1 && fired[0] == 1);
}

int main(void) {
    test_order();
    test_cancel();
    test_full();
    test_wrap();
    printf("timers: %s\n", failures ? "FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
