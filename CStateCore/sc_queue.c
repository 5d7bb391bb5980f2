/*
 * sc_queue.c - the machine's two event queues: rings of sc_event, first in first out, carved
 * out of the machine's block (sc_machine.c sizes them); the host may move the internal one into
 * larger storage of its own when it fills up (sc_host.queue_full, sc_machine_set_internal_queue).
 */
#include "sc_internal.h"

bool sc_queue_push(sc_queue *q, sc_event *slots, sc_event e) {
    if (q->count == q->capacity) return false;
    uint32_t tail = q->head + q->count;
    if (tail >= q->capacity) tail -= q->capacity;
    slots[tail] = e;
    q->count++;
    return true;
}

bool sc_queue_pop(sc_queue *q, const sc_event *slots, sc_event *e) {
    if (q->count == 0) return false;
    *e = slots[q->head];
    if (++q->head == q->capacity) q->head = 0;
    q->count--;
    return true;
}

sc_event sc_queue_at(const sc_queue *q, const sc_event *slots, uint32_t i) {
    uint32_t slot = q->head + i;
    if (slot >= q->capacity) slot -= q->capacity;
    return slots[slot];
}

void sc_queue_move(sc_queue *q, const sc_event *slots, sc_event *storage, uint32_t capacity) {
    for (uint32_t i = 0; i < q->count; i++) storage[i] = sc_queue_at(q, slots, i);
    q->capacity = capacity;
    q->head = 0;
}

#if !SC_CONFIG_NO_CONTENT
bool sc_queue_raise(sc_machine *m, sc_event e) {
    if (sc_queue_push(&m->internal, m->internal_slots, e)) return true;
    if (!m->host->queue_full) return false;
    m->host->queue_full(m->host->context, m);
    return sc_queue_push(&m->internal, m->internal_slots, e);
}
#endif
