/*
 * sc_queue.c - the machine's two event queues: rings of sc_event, first in first out, carved
 * out of the machine's block (sc_machine.c sizes them); the host may move the internal one into
 * larger storage of its own when it fills up (sc_host.queue_full, sc_machine_set_internal_queue),
 * or give it slots several machines take turns on (sc_shared_queue: the ring's positions stay the
 * machine's, the slots are lent to one machine at a time).
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
/* A shared queue's slots go to the machine that raises into them while nobody holds them; they
 * come back when its queue is empty again (sc_shared_queue_release). */
static bool push_internal(sc_machine *m, sc_event e) {
    if (!m->shares_queue) return sc_queue_push(&m->internal, m->internal_storage.slots, e);
    sc_shared_queue *shared = m->internal_storage.shared;
    if (shared->holder && shared->holder != m) return false;
    if (!sc_queue_push(&m->internal, shared->slots, e)) return false;
    shared->holder = m;
    return true;
}

bool sc_queue_raise(sc_machine *m, sc_event e) {
    if (push_internal(m, e)) return true;
    if (!m->host->queue_full || sc_shared_queue_held_by_other(m)) return false;
    m->host->queue_full(m->host->context, m);
    return push_internal(m, e);
}

void sc_shared_queue_leave(sc_machine *m) {
    if (m->shares_queue && m->internal_storage.shared->holder == m) m->internal_storage.shared->holder = NULL;
}

void sc_shared_queue_give_back(sc_machine *m) {
    if (m->internal.count == 0) sc_shared_queue_leave(m);
}
#endif
