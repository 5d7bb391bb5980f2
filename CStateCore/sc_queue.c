/*
 * sc_queue.c - the machine's two event queues: fixed rings of sc_event carved out of the
 * machine's block (sc_machine.c sizes them), first in first out.
 */
#include "sc_internal.h"

bool sc_queue_push(sc_queue *q, sc_event e) {
    if (q->count == q->capacity) return false;
    uint32_t tail = q->head + q->count;
    if (tail >= q->capacity) tail -= q->capacity;
    q->slots[tail] = e;
    q->count++;
    return true;
}

bool sc_queue_pop(sc_queue *q, sc_event *e) {
    if (q->count == 0) return false;
    *e = q->slots[q->head];
    if (++q->head == q->capacity) q->head = 0;
    q->count--;
    return true;
}

sc_event sc_queue_at(const sc_queue *q, uint32_t i) {
    uint32_t slot = q->head + i;
    if (slot >= q->capacity) slot -= q->capacity;
    return q->slots[slot];
}
