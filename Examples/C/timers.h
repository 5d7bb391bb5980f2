/*
 * timers.h - delayed events for a firmware dispatch loop, driven by a millisecond tick counter.
 *
 * The chart's <send delay="..."> and <cancel> reach the firmware through the generated timer
 * hooks; this is one way to implement them without an allocator or an RTOS: a fixed table of
 * pending events, each with the tick it is due at. The dispatch loop asks for the events that
 * are due (in the order they fall due; equal ticks in the order they were started) and posts
 * them to the machine as external events.
 *
 *     static timers pending;                            // zeroed: empty
 *     timers_start(&pending, now, 5000u, "cookTimer", (sc_event){ .id = microwave_EVENT_time_up });
 *     sc_event event;
 *     while (timers_take_due(&pending, now, &event)) sc_machine_dispatch(machine, event);
 *
 * Ticks are uint32_t milliseconds and compared as (int32_t)(a - b), so the counter may wrap
 * (after 49.7 days) as long as no delay exceeds 2^31 - 1 ms.
 */
#ifndef TIMERS_H
#define TIMERS_H

#include "sc_core.h"

#include <stdbool.h>
#include <stdint.h>

/* Enough for every delayed send a chart can have pending at once; the microwave needs 1. */
#ifndef TIMERS_CAPACITY
#define TIMERS_CAPACITY 8
#endif

typedef struct timer_entry {
    uint32_t due;          /* tick at which the event fires */
    uint32_t sequence;     /* start order, so equal due ticks fire first-started first */
    const char *sendid;    /* the <send>'s id (for <cancel>), or NULL */
    sc_event event;
} timer_entry;

typedef struct timers {
    timer_entry entries[TIMERS_CAPACITY];
    uint32_t count;
    uint32_t next_sequence;
} timers;

/* Schedules `event` at now + delay. Returns false, scheduling nothing, when the table is full. */
bool timers_start(timers *t, uint32_t now, uint32_t delay, const char *sendid, sc_event event);

/* Removes every pending event started with this send id (SCXML <cancel sendid="...">); an
 * unknown or already fired id is not an error. Returns how many were removed. */
uint32_t timers_cancel(timers *t, const char *sendid);

/* The earliest due tick, if any event is pending. */
bool timers_next_due(const timers *t, uint32_t *due);

/* Removes and returns (in *event) the earliest event due at or before `now`; false if none. */
bool timers_take_due(timers *t, uint32_t now, sc_event *event);

#endif
