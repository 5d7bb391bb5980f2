/*
 * sc_internal.h - the machine's memory layout, the bit-array and chart helpers, and the
 * internal interfaces of the core's files (see the call graph below). Nothing here is part of
 * the public API; the plan cache's own interface is sc_plan.h.
 */
#ifndef SC_INTERNAL_H
#define SC_INTERNAL_H

#include "sc_core.h"

#include <assert.h>
#include <string.h>

/* The interrupt request is the one field another thread may write while a macrostep runs, so it
 * is atomic where C11 atomics exist; relaxed order suffices (it only asks the loop to stop). */
#ifndef __STDC_NO_ATOMICS__
#include <stdatomic.h>
typedef atomic_bool sc_interrupt_flag;
#define SC_INTERRUPT_LOAD(flag) atomic_load_explicit(&(flag), memory_order_relaxed)
#define SC_INTERRUPT_STORE(flag, value) atomic_store_explicit(&(flag), (value), memory_order_relaxed)
#else
typedef volatile bool sc_interrupt_flag;
#define SC_INTERRUPT_LOAD(flag) (flag)
#define SC_INTERRUPT_STORE(flag, value) ((flag) = (value))
#endif

/*
 * A machine is one block:
 *
 *   +------------------+  struct sc_machine (header, below)
 *   | plan cache       |  sc_plan_cache (sc_plan.h); absent when SC_CONFIG_NO_PLAN_CACHE
 *   | configuration    |  W words: bit s set while state s is active
 *   | entry_set        |  W words: scratch, states to enter in the current microstep
 *   | history_default  |  W words: scratch, history states that used their default transition
 *   | history_recorded |  W words: bit h set when history state h holds a record
 *   | invoke_pending   |  W words: entered, not exited, invocations not started yet
 *   |                  |  (history_*: 0 words, pointer NULL, without history states;
 *   |                  |   invoke_pending: likewise without SC_STATE_HAS_INVOKE)
 *   | history_records  |  one record per history state: a bit per descendant of its parent
 *   | history_index    |  H x 2 x sc_offset: (history state, word offset of its record), sorted
 *   | enabled          |  A x 2 x sc_id: (transition, domain) selected in this microstep
 *   | external queue   |  ring of sc_event, found from `enabled` (sc_block_external_slots)
 *   | internal queue   |  ring of sc_event, until the host moves or shares it (internal_storage)
 *   +------------------+
 *
 * Each array starts at its element's alignment (sc_word, sc_offset, sc_id, sc_event), with no
 * other padding, so a small chart's block is a few bytes past its header (compute_layout in
 * sc_machine.c lays it out, SC_MACHINE_SIZE in sc_core.h adds it up the same way).
 *
 * W = ceil(states / SC_CONFIG_WORD_BITS) words of sc_word, H = number of history states, A = the most atomic states that can be
 * active at once (at most one transition is selected per active atomic state): 1 for a chart
 * without parallel states, bounded by 1 + the sum over parallel states of (children - 1).
 *
 * Counters kept alongside the bits, so a macrostep skips whole phases that have nothing to do:
 * eventless_states counts the states of {root} + configuration that have an eventless transition
 * (none: no eventless selection pass), invokes_pending whether invoke_pending may have a bit.
 *
 * The files and who calls whom (no cycle):
 *
 *   sc_machine.c  entry points, life cycle, accessors, snapshots
 *        |  \
 *        |   sc_plan.c   the microstep cache (optional: SC_CONFIG_NO_PLAN_CACHE)
 *        |  /
 *   sc_step.c     the W3C algorithm
 *        |
 *   sc_history.c  history records      sc_queue.c  event rings      sc_chart.c  table checks
 */

/* A ring's counters. Its slots are not kept here: the internal ring's may move into the host's
 * storage or a shared queue's (sc_machine.internal_storage), the external ring's never leave the block and are found
 * from the enabled list (sc_block_external_slots), so the header holds one slot pointer. */
/* Offsets into the block and positions in a queue: 16 bits with narrow ids (SC_CONFIG_ID_BITS
 * below 32), whose blocks stay below 64 KiB and queues below 65,536 slots (compute_layout and
 * sc_machine_set_internal_queue refuse more), else 32 (SC_OFFSET_BYTES_ in sc_core.h). */
#if SC_CONFIG_ID_BITS < 32
typedef uint16_t sc_offset;
#else
typedef uint32_t sc_offset;
#endif
#define SC_OFFSET_MAX ((sc_offset)~(sc_offset)0)

typedef struct sc_queue {
    sc_offset capacity;
    sc_offset head;     /* index of the oldest event */
    sc_offset count;
} sc_queue;

typedef struct sc_enabled {
    sc_id transition;
    sc_id domain;       /* the transition's domain for this microstep (SC_NONE: targetless) */
} sc_enabled;

struct sc_plan;

/* The header holds only what the build's features need (a field per SC_CONFIG_* it serves):
 * pointers first, then 32-bit fields, offsets and queue positions, ids, bytes, so it has no
 * padding but at its end, and SC_MACHINE_HEADER_SIZE (sc_core.h) counts it field by field
 * (checked in sc_machine.c). */
struct sc_machine {
#if !SC_CONFIG_NO_PLAN_CACHE
    /* sc_machine_dispatch's fast path: the plans of the current configuration's set while nothing
     * but a plan can be needed, else NULL (sc_plan.h: sc_plan_gate). One word tested once for
     * "busy, halted, not started, events pending"; a pointer, so the lookup needs no arithmetic
     * before it can load the plans. */
    struct sc_plan *fast_set;
    /* While the plan cache records an external microstep: where sc_step.c notes what the
     * microstep does (sc_record, below); NULL at every other time. */
    struct sc_record *record;
#endif
    const sc_chart *chart;
    /* The caller's callbacks, by reference (sc_machine_init): most machines of a program share
     * one table, so no machine carries a copy. */
    const sc_host *host;
#if !SC_CONFIG_NO_CONTENT
    /* The internal ring's slots: the block's or the host's (sc_machine_set_internal_queue), or,
     * with shares_queue, those of a queue several machines share (sc_internal_slots). */
    union {
        sc_event *slots;
        sc_shared_queue *shared;
    } internal_storage;
#endif
#if SC_KEEPS_STEPS_
    uint32_t max_steps;         /* microsteps + internal events per macrostep, events per run */
#endif
#if !SC_CONFIG_NO_PLAN_CACHE
    /* W and where the configuration is (after the plan cache), at hand for the cache's keys.
     * Without the cache both are derived: W from the chart, the configuration right after the
     * header (sc_machine_words, sc_block_configuration). */
    uint32_t words;
    uint32_t configuration_at;
#endif
    /* Where the other arrays of the block are: bytes from the machine (the history index is empty
     * without history states), read through the accessors below. The bit arrays after the
     * configuration are found from it (W words each, in the order of the layout above); without
     * history the enabled list follows them, so its offset is derived too (sc_enabled_at). */
#if !SC_CONFIG_NO_HISTORY
    sc_offset history_index_at;
    sc_offset enabled_at;
#endif
#if !SC_CONFIG_NO_CONTENT
    sc_queue internal;
#endif
#if !SC_CONFIG_NO_QUEUE
    sc_queue external;
#endif
    sc_id enabled_count;
#if !SC_CONFIG_NO_PARALLEL
    sc_id enabled_capacity;     /* A (1 without parallel states: sc_enabled_capacity) */
#endif
#if !SC_CONFIG_NO_EVENTLESS
    sc_id eventless_states;     /* {root} + configuration states with an eventless transition */
#endif
#if SC_KEEPS_FAILURE_
    int8_t failure;             /* sc_status: an error met inside a microstep, reported once it completes */
#endif
#if SC_KEEPS_STEPS_
    sc_interrupt_flag interrupt;    /* set by sc_machine_interrupt(), possibly from another thread */
#endif
    bool busy;                  /* inside start/dispatch/run/stop: callbacks are running (a byte of
                                   its own, not a bit-field: written twice per event) */
#if SC_KEEPS_LOST_EVENT_
    /* A raise or post from a callback (busy) that the queue refused: the entry point running the
     * macrostep goes on and returns SC_ERR_QUEUE_FULL when it is over (finish_entry, sc_machine.c),
     * so no event is lost unreported. */
    bool lost_event;
#endif
    /* One byte of flags (bit-fields: the header is part of every machine). */
    bool started : 1;
    bool halted : 1;
    bool owns_memory : 1;
    bool no_plans : 1;          /* SC_MACHINE_NO_PLANS: the plan key stays 0, so no plan is used */
    bool shares_queue : 1;      /* internal_storage.shared: the internal slots are a shared queue's */
#if !SC_CONFIG_NO_INVOKE
    bool has_invoke : 1;        /* a state has SC_STATE_HAS_INVOKE: invoke_pending is in the block */
    /* Whether a bit of invoke_pending may be set: set when a state with invocations is entered,
     * cleared when the end of a macrostep has started them all. An exit that clears the last bit
     * leaves it set (no count to keep): the next macrostep's end scans, finds none, clears it. */
    bool invokes_pending;
#endif
#if !SC_CONFIG_NO_PLAN_CACHE
    /* Which observers (entered, exited, taken: a bit each) the host had when the plans were
     * recorded: a plan is quiet (SC_PLAN_MASKS) only without them (sc_machine_set_host). */
    uint8_t observers;
#endif
};

/* Whether the machine's block has invoke_pending (a state of its chart has invocations): never
 * with SC_CONFIG_NO_INVOKE, where sc_chart_check refused them. */
static inline bool sc_has_invoke(const sc_machine *m) {
#if SC_CONFIG_NO_INVOKE
    (void)m;
    return false;
#else
    return m->has_invoke;
#endif
}
/* Whether a bit of invoke_pending may be set (struct sc_machine.invokes_pending). */
static inline bool sc_invokes_pending(const sc_machine *m) {
#if SC_CONFIG_NO_INVOKE
    (void)m;
    return false;
#else
    return m->invokes_pending;
#endif
}
static inline void sc_set_invokes_pending(sc_machine *m, bool pending) {
#if SC_CONFIG_NO_INVOKE
    (void)m, (void)pending;
#else
    m->invokes_pending = pending;
#endif
}
/* Whether the macrostep running now has halted the machine (entered a top-level final state):
 * never with SC_CONFIG_NO_FINAL, where only sc_machine_stop and sc_machine_restore halt one, and
 * neither runs inside a macrostep (a machine that was halted takes no event). */
static inline bool sc_macrostep_halted(const sc_machine *m) { return !SC_CONFIG_NO_FINAL && m->halted; }

/* Bytes of the header: the plan cache after it is 8-aligned, the bit arrays sc_word-aligned. */
#define SC_MACHINE_HEADER_BYTES SC_ALIGN_(sizeof(struct sc_machine), SC_CONFIG_NO_PLAN_CACHE ? SC_ALIGNOF_(sc_word) : 8u)

/* The arrays every machine has, at their offsets from the machine (see the layout above); they
 * are read on every microstep, so there is no test: the optional ones are found from these. */
static inline void *sc_block_at(const sc_machine *m, size_t at) {
    return (void *)((uint8_t *)(uintptr_t)m + at);
}
/* W, the words of each bit array. */
static inline uint32_t sc_machine_words(const sc_machine *m) {
#if SC_CONFIG_NO_PLAN_CACHE
    return (uint32_t)SC_BIT_WORDS(m->chart->state_count);
#else
    return m->words;
#endif
}
/* Where the configuration is: right after the header, or after the plan cache. */
static inline size_t sc_configuration_at(const sc_machine *m) {
#if SC_CONFIG_NO_PLAN_CACHE
    (void)m;
    return SC_MACHINE_HEADER_BYTES;
#else
    return m->configuration_at;
#endif
}
static inline sc_word *sc_block_configuration(const sc_machine *m) { return sc_block_at(m, sc_configuration_at(m)); }
#if !SC_CONFIG_NO_HISTORY
static inline sc_offset *sc_block_history_index(const sc_machine *m) { return sc_block_at(m, m->history_index_at); }
#endif
/* Where the enabled list is: without history it follows the bit arrays (configuration, entry set,
 * invoke_pending), at an offset's and then an id's alignment, as compute_layout places it. */
static inline size_t sc_enabled_at(const sc_machine *m) {
#if SC_CONFIG_NO_HISTORY
    size_t end = sc_configuration_at(m) + (2u + (sc_has_invoke(m) ? 1u : 0u)) * (size_t)sc_machine_words(m) * sizeof(sc_word);
    return SC_ALIGN_(SC_ALIGN_(end, sizeof(sc_offset)), SC_ALIGNOF_(sc_id));
#else
    return m->enabled_at;
#endif
}
static inline sc_enabled *sc_block_enabled(const sc_machine *m) { return sc_block_at(m, sc_enabled_at(m)); }
/* A: one without parallel states. */
static inline uint32_t sc_enabled_capacity(const sc_machine *m) {
#if SC_CONFIG_NO_PARALLEL
    (void)m;
    return 1;
#else
    return m->enabled_capacity;
#endif
}

/* H, the history states. Their index (2 offsets each: (history state, word offset of its record))
 * is all that lies between history_index_at and enabled_at (the enabled list's ids need no more
 * alignment than offsets), so the count needs no field of its own. */
static inline uint32_t sc_history_count(const sc_machine *m) {
#if SC_CONFIG_NO_HISTORY
    (void)m;
    return 0;
#else
    return (uint32_t)(m->enabled_at - m->history_index_at) / (2u * (uint32_t)sizeof(sc_offset));
#endif
}

/* The bit arrays after the configuration, W words each (NULL for those the chart has none of). */
static inline sc_word *sc_block_entry_set(const sc_machine *m) { return sc_block_configuration(m) + sc_machine_words(m); }
static inline sc_word *sc_block_history_default(const sc_machine *m) {
    return sc_history_count(m) ? sc_block_configuration(m) + 2u * (size_t)sc_machine_words(m) : NULL;
}
static inline sc_word *sc_block_history_recorded(const sc_machine *m) {
    return sc_history_count(m) ? sc_block_configuration(m) + 3u * (size_t)sc_machine_words(m) : NULL;
}
static inline sc_word *sc_block_invoke_pending(const sc_machine *m) {
    return sc_has_invoke(m) ? sc_block_configuration(m) + (sc_history_count(m) ? 4u : 2u) * (size_t)sc_machine_words(m) : NULL;
}
/* The history records follow the bit arrays (used only when there are history states). */
static inline sc_word *sc_block_history_records(const sc_machine *m) {
    return sc_block_configuration(m) + (2u + (sc_history_count(m) ? 2u : 0u) + (sc_has_invoke(m) ? 1u : 0u)) * (size_t)sc_machine_words(m);
}

#if !SC_CONFIG_NO_QUEUE
/* The external ring: after the enabled list (A entries), at an sc_event's alignment. */
static inline sc_event *sc_block_external_slots(const sc_machine *m) {
    return sc_block_at(m, SC_ALIGN_(sc_enabled_at(m) + (size_t)sc_enabled_capacity(m) * sizeof(sc_enabled),
                                     SC_ALIGNOF_(sc_event)));
}
#endif

/* For the few helpers of the dispatch hot path that a compiler might otherwise leave out of line. */
#if defined(__GNUC__) || defined(__clang__)
#define SC_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SC_ALWAYS_INLINE inline
#endif

/* The top bit of an sc_id: sc_chart_check keeps transition ids below it, so the algorithm may
 * mark an entry of the enabled list with it (drop_illegal_target_sets, sc_step.c). */
#define SC_ID_TOP_BIT ((sc_id)(SC_NONE ^ (SC_NONE >> 1)))

/* ---- bit arrays ----------------------------------------------------------------------
 * Words of SC_CONFIG_WORD_BITS (sc_word). Narrow words are promoted to int in expressions, so
 * every mask is cast back to sc_word before it is combined. */

#define SC_WORD_BITS ((uint32_t)SC_CONFIG_WORD_BITS)
#define SC_WORD_ALL ((sc_word)~(sc_word)0)

static inline bool sc_bit_test(const sc_word *bits, sc_id i) {
    return (bits[i / SC_WORD_BITS] >> (i % SC_WORD_BITS)) & 1u;
}

static inline void sc_bit_set(sc_word *bits, sc_id i) {
    bits[i / SC_WORD_BITS] |= (sc_word)((sc_word)1 << (i % SC_WORD_BITS));
}

static inline void sc_bit_clear(sc_word *bits, sc_id i) {
    bits[i / SC_WORD_BITS] &= (sc_word)~(sc_word)((sc_word)1 << (i % SC_WORD_BITS));
}

/* The word and bit scans are C11 inline functions with one external definition each (sc_step.c):
 * a file may inline them or call that one copy, so a size-optimised build keeps a single copy
 * instead of one per file. */

/* Index of the lowest set bit of x != 0. */
inline uint32_t sc_word_lowest(sc_word x) {
#if (defined(__GNUC__) || defined(__clang__)) && SC_CONFIG_WORD_BITS == 64
    return (uint32_t)__builtin_ctzll(x);
#elif defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_ctzl((unsigned long)x);
#else
    uint32_t n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

/* Index of the highest set bit of x != 0. */
inline uint32_t sc_word_highest(sc_word x) {
#if (defined(__GNUC__) || defined(__clang__)) && SC_CONFIG_WORD_BITS == 64
    return 63u - (uint32_t)__builtin_clzll(x);
#elif defined(__GNUC__) || defined(__clang__)
    return (uint32_t)(sizeof(unsigned long) * 8u - 1u) - (uint32_t)__builtin_clzl((unsigned long)x);
#else
    uint32_t n = 0;
    while (x >>= 1) n++;
    return n;
#endif
}

/* First set bit in [from, end), or end when there is none. Reads the words fresh, so bits
 * set ahead of `from` while iterating are seen (the entry-set scan relies on that). */
inline sc_id sc_bit_next(const sc_word *bits, sc_id from, sc_id end) {
    if (from >= end) return end;
    uint32_t w = from / SC_WORD_BITS;
    sc_word word = (sc_word)(bits[w] & (sc_word)(SC_WORD_ALL << (from % SC_WORD_BITS)));
    for (;;) {
        if (word) {
            sc_id i = (sc_id)(w * SC_WORD_BITS + sc_word_lowest(word));
            return i < end ? i : end;
        }
        if ((++w) * SC_WORD_BITS >= end) return end;
        word = bits[w];
    }
}

/* Last set bit in [begin, below), or SC_NONE. Used for exit order (reverse document order). */
inline sc_id sc_bit_prev(const sc_word *bits, sc_id begin, sc_id below) {
    if (below <= begin) return SC_NONE;
    sc_id last = below - 1;
    uint32_t w = last / SC_WORD_BITS;
    sc_word word = (sc_word)(bits[w] & (sc_word)(SC_WORD_ALL >> (SC_WORD_BITS - 1u - last % SC_WORD_BITS)));
    for (;;) {
        if (word) {
            sc_id i = (sc_id)(w * SC_WORD_BITS + sc_word_highest(word));
            return i >= begin ? i : SC_NONE;
        }
        if (w == 0 || (w - 1) * SC_WORD_BITS + (SC_WORD_BITS - 1u) < begin) return SC_NONE;
        word = bits[--w];
    }
}

/* Clears bits [begin, end). */
static inline void sc_bits_clear_range(sc_word *bits, sc_id begin, sc_id end) {
    if (begin >= end) return;
    uint32_t first = begin / SC_WORD_BITS, last = (end - 1u) / SC_WORD_BITS;
    sc_word lo = (sc_word)(SC_WORD_ALL << (begin % SC_WORD_BITS));
    sc_word hi = (sc_word)(SC_WORD_ALL >> (SC_WORD_BITS - 1u - (end - 1u) % SC_WORD_BITS));
    if (first == last) {
        bits[first] &= (sc_word)~(sc_word)(lo & hi);
        return;
    }
    bits[first] &= (sc_word)~lo;
    for (uint32_t w = first + 1; w < last; w++) bits[w] = 0;
    bits[last] &= (sc_word)~hi;
}

/* ---- chart helpers --------------------------------------------------------------------- */

/* True when d is a proper descendant of s (document-order range test). */
static inline bool sc_is_descendant(const sc_chart *chart, sc_id d, sc_id s) {
    return d > s && d <= chart->states[s].last_descendant;
}

static inline bool sc_is_history(uint8_t kind) {
    return kind == SC_HISTORY_SHALLOW || kind == SC_HISTORY_DEEP;
}

/* Atomic in SCXML's sense: no child states (final states included). */
static inline bool sc_is_atomic(uint8_t kind) {
    return kind == SC_ATOMIC || (!SC_CONFIG_NO_FINAL && kind == SC_FINAL);
}

/* Whether state st has invocations (SC_STATE_HAS_INVOKE): never with SC_CONFIG_NO_INVOKE. */
static inline bool sc_state_invokes(const sc_state *st) {
    return !SC_CONFIG_NO_INVOKE && (st->flags & SC_STATE_HAS_INVOKE) != 0;
}

/* Whether states a and b can be active at once: one contains the other, or their lowest common
 * ancestor is a parallel state (they lie in different regions). Else they would be two children
 * of one compound state. Needs a checked tree (sc_chart_check's shape pass). */
static inline bool sc_can_be_active_together(const sc_chart *c, sc_id a, sc_id b) {
    if (a == b || sc_is_descendant(c, a, b) || sc_is_descendant(c, b, a)) return true;
    sc_id lcca = c->states[a].parent;
    while (!sc_is_descendant(c, b, lcca)) lcca = c->states[lcca].parent;
    return c->states[lcca].kind == SC_PARALLEL;
}

/* Children: the first is s+1, the next sibling of c is last_descendant(c)+1. */
#define SC_FOR_EACH_CHILD(chart, s, c) \
    for (sc_id c = (s) + 1; c <= (chart)->states[s].last_descendant; \
         c = (chart)->states[c].last_descendant + 1)

/* Whether state s has eventless transitions (own_mask is a superset of its descriptors' bits);
 * never with SC_CONFIG_NO_EVENTLESS (sc_chart_check refused them). */
static inline bool sc_has_eventless(const sc_chart *chart, sc_id s) {
    return !SC_CONFIG_NO_EVENTLESS && (chart->states[s].own_mask & SC_MASK_EVENTLESS) != 0;
}

/* Done events (done.state.<id>) need what SC_CONFIG_NO_EVENTLESS, SC_CONFIG_NO_CONTENT and
 * SC_CONFIG_NO_FINAL leave out: any of them drops them (and sc_chart_check refuses a state with a done_event). */
#define SC_HAS_DONE_EVENTS (!SC_CONFIG_NO_EVENTLESS && !SC_CONFIG_NO_CONTENT && !SC_CONFIG_NO_FINAL)

/* nameMatch: descriptor d matches event e when d is "*" or d is e or a prefix of e in
 * dot-token terms. The chart interns every prefix, so the test is a walk up a short chain of ids. */
static inline bool sc_name_match(const sc_chart *c, const sc_transition *t, sc_id event) {
    const sc_id *d = c->descriptors + t->events_offset;
    for (uint32_t k = 0; k < t->event_count; k++) {
        if (d[k] == SC_EVENT_ANY) return true;
        for (sc_id e = event; e < c->event_count; e = c->events[e].prefix)
            if (e == d[k]) return true;
    }
    return false;
}

/* The filter mask of an event (sc_state.own_mask/path_mask bits it can match); NULL: eventless. */
static inline uint64_t sc_event_mask(const sc_chart *c, const sc_event *event) {
    if (!event) return SC_MASK_EVENTLESS;
    if (event->id < c->event_count) return c->events[event->id].mask;
    return UINT64_C(1) << 62;       /* unknown: matches only "*", whose bits cover every event bit */
}

/* ---- sc_queue.c: fixed rings inside the machine's block ---------------------------------- */

/* {root} + configuration states with an eventless transition: always 0 with
 * SC_CONFIG_NO_EVENTLESS, which has no counter (and no eventless selection pass). */
static inline uint32_t sc_eventless_count(const sc_machine *m) {
#if SC_CONFIG_NO_EVENTLESS
    (void)m;
    return 0;
#else
    return m->eventless_states;
#endif
}

/* Sets that counter (a replayed microstep's); nothing to set with SC_CONFIG_NO_EVENTLESS. */
static inline void sc_set_eventless_count(sc_machine *m, uint32_t count) {
#if SC_CONFIG_NO_EVENTLESS
    (void)m, (void)count;
#else
    m->eventless_states = count;
#endif
}

#if !SC_CONFIG_NO_CONTENT
/* The internal ring's slots, wherever they are. */
static inline sc_event *sc_internal_slots(const sc_machine *m) {
    return m->shares_queue ? m->internal_storage.shared->slots : m->internal_storage.slots;
}
#endif

/* Whether another machine holds the slots of the queue m shares (sc_shared_queue): m's entry
 * points then do nothing (SC_ERR_BUSY). Never without SC_CONFIG_NO_CONTENT's internal queue. */
static inline bool sc_shared_queue_held_by_other(const sc_machine *m) {
#if SC_CONFIG_NO_CONTENT
    (void)m;
    return false;
#else
    return m->shares_queue && m->internal_storage.shared->holder && m->internal_storage.shared->holder != m;
#endif
}

/* The failure a microstep met (a done event its queue refused), SC_OK if none: always SC_OK in a
 * build without done events, which keeps no mark (SC_KEEPS_FAILURE_). */
static inline sc_status sc_failure(const sc_machine *m) {
#if SC_KEEPS_FAILURE_
    return (sc_status)m->failure;
#else
    (void)m;
    return SC_OK;
#endif
}
static inline void sc_set_failure(sc_machine *m, sc_status failure) {
#if SC_KEEPS_FAILURE_
    m->failure = (int8_t)failure;
#else
    (void)m, (void)failure;
#endif
}

/* Events in the internal queue: always 0 with SC_CONFIG_NO_CONTENT, which leaves the queue out
 * (nothing raises), so the internal-event loop compiles to nothing. */
static inline uint32_t sc_internal_count(const sc_machine *m) {
#if SC_CONFIG_NO_CONTENT
    (void)m;
    return 0;
#else
    return m->internal.count;
#endif
}


/* Each takes the ring's counters and its slots (see sc_queue). */
bool sc_queue_push(sc_queue *q, sc_event *slots, sc_event e);
bool sc_queue_pop(sc_queue *q, const sc_event *slots, sc_event *e);
/* Entry i (0: the oldest), i < count. */
sc_event sc_queue_at(const sc_queue *q, const sc_event *slots, uint32_t i);
/* Copies the events, in order, into `storage` (capacity >= count, not overlapping `slots`),
 * which the caller then uses as the ring's slots. */
void sc_queue_move(sc_queue *q, const sc_event *slots, sc_event *storage, uint32_t capacity);
/* Appends to the machine's internal queue; when it is full, the host's queue_full callback may
 * grow it first (one retry). False: not queued. */
bool sc_queue_raise(sc_machine *m, sc_event e);
/* Gives a shared queue's slots back when m holds them and its internal queue is empty (when a
 * macrostep takes its last internal event, and when its queues are released): a bit test for a
 * machine that shares none, and nothing on a path that takes no internal event. */
#if !SC_CONFIG_NO_CONTENT
void sc_shared_queue_give_back(sc_machine *m);
/* Gives the slots back whatever m's queue holds (its events moved elsewhere, or it stops sharing). */
void sc_shared_queue_leave(sc_machine *m);
#endif
static inline void sc_shared_queue_release(sc_machine *m) {
#if SC_CONFIG_NO_CONTENT
    (void)m;
#else
    if (m->shares_queue) sc_shared_queue_give_back(m);
#endif
}

/* ---- sc_history.c: history records -------------------------------------------------------
 * The record of history state h is a bit per descendant of h's parent p: bit b stands for state
 * p + 1 + b. A cursor walks a history value in document order: the recorded one, or the one
 * exitStates would record from the configuration now (deep: the active atomic descendants of p;
 * shallow: the active children of p). */

typedef struct sc_history_cursor {
    const sc_chart *chart;
    const sc_word *bits;
    sc_id next, end;    /* the bits still to look at */
    sc_id base;         /* a set bit b stands for state base + b */
    sc_id parent;       /* the history's parent */
    uint8_t select;     /* 0: every set bit (a record); else the history's kind (the configuration) */
} sc_history_cursor;

/* Words of history state h's record: a bit per descendant of its parent (sizes the block). */
uint32_t sc_history_record_words(const sc_chart *c, sc_id h);
/* Builds history_index (called once when a machine is laid out). */
void sc_history_index_build(sc_machine *m);
/* A cursor over the recorded value of history state h (h must hold a record). */
sc_history_cursor sc_history_open(const sc_machine *m, sc_id h);
/* A cursor over the value exitStates would record for h from the configuration now. */
sc_history_cursor sc_history_open_current(const sc_machine *m, sc_id h);
/* The next state of the value, or SC_NONE at the end. */
sc_id sc_history_next(sc_history_cursor *cur);
/* Records h's value from the configuration (exitStates). */
void sc_history_record(sc_machine *m, sc_id h);
/* Sets h's record to `states` (validated by the caller); count 0 forgets it. */
void sc_history_set(sc_machine *m, sc_id h, const sc_id *states, uint32_t count);

/* ---- what an external microstep did (sc_step.c writes it, the plan cache reads it) --------
 * While m->record is set, sc_step.c notes here, in the order the microstep does it: each guard
 * selectTransitions consulted (conditionMatch) and its outcome, each state exited (exit order),
 * each transition whose content ran, each state entered (entry order) and whether it was entered
 * by default. A count goes on past SC_RECORD_MAX while its list keeps the first SC_RECORD_MAX
 * entries, so a reader can tell a complete record from a cut one.
 *
 * Selection is a function of the configuration, the event and the outcomes of the guards it
 * consults, in order. So the first `answered` consultations may be answered in advance (set
 * before the microstep, in guard_outcomes): the plan cache, having asked those guards already,
 * has the algorithm select without asking them twice. */
#define SC_RECORD_MAX 64u

typedef struct sc_record {
    uint32_t guard_count, answered;
    uint32_t exit_count, taken_count, entry_count;
    uint64_t guard_outcomes;    /* bit i: the outcome of the i-th consultation */
    uint64_t entry_defaults;    /* bit i: entries[i] was entered by default (runs its <initial>) */
    sc_id guards[SC_RECORD_MAX];    /* the transitions whose guards were consulted */
    sc_id exits[SC_RECORD_MAX];
    sc_id taken[SC_RECORD_MAX];
    sc_id entries[SC_RECORD_MAX];
} sc_record;
_Static_assert(SC_RECORD_MAX <= 64, "guard_outcomes, entry_defaults: a bit per listed entry");

/* The record being written, or NULL (always NULL without the plan cache). */
static inline sc_record *sc_recording(const sc_machine *m) {
#if SC_CONFIG_NO_PLAN_CACHE
    (void)m;
    return NULL;
#else
    return m->record;
#endif
}

/* ---- sc_step.c: the algorithm ------------------------------------------------------------- */

/* interpret(): the root's initial transition and the first macrostep. */
sc_status sc_step_enter_initial(sc_machine *m);
/* mainEventLoop for one external event, first half: selectTransitions, and the microstep when
 * it enabled a transition. Returns whether one was enabled. */
bool sc_step_external_microstep(sc_machine *m, const sc_event *event);
/* selectTransitions for external `event`: the enabled transitions into sc_block_enabled(m)
 * (conflicts removed, domains filled), guards called as the algorithm calls them. Returns
 * whether any is enabled. */
bool sc_step_select(sc_machine *m, const sc_event *event);
/* microstep(): exitStates, executeTransitionContent, enterStates for the transitions that
 * sc_step_select left in sc_block_enabled(m). */
void sc_step_microstep(sc_machine *m, const sc_event *event);
/* mainEventLoop, second half: eventless transitions, internal events, invocations. SC_OK or
 * SC_UNHANDLED by `handled`, or an error. */
sc_status sc_step_complete(sc_machine *m, bool handled);
void sc_step_exit_interpreter(sc_machine *m);
/* selectTransitions as a question: whether `event` (never NULL) would enable a transition in the
 * configuration now, guards evaluated only when `evaluate_guards`. Changes nothing but what the
 * guards do (sc_machine_can_handle). */
bool sc_step_would_select(sc_machine *m, const sc_event *event, bool evaluate_guards);
/* conditionMatch for transition t (which has a guard, or is enabled). */
bool sc_step_condition(sc_machine *m, sc_id t, const sc_event *event);
/* The parts of a microstep, each as the algorithm makes it: one state's exit (onexit, cancelled
 * invocations, the exited observer), one transition's content (the taken observer, then its
 * action), one state's entry (onentry, <initial> content when entered by default, history default
 * content, done events). A plan's replay calls exactly these, in the recorded order. */
void sc_step_exit_state(sc_machine *m, sc_id s, const sc_event *event);
void sc_step_take_transition(sc_machine *m, sc_id t, const sc_event *event);
void sc_step_enter_state(sc_machine *m, sc_id s, bool by_default, const sc_event *event);
/* Recomputes the configuration's counters from the bits (after restore or init). */
void sc_step_count_configuration(sc_machine *m);
/* The host's release callback for an event the core has finished with (NULL: nothing). */
void sc_step_release(sc_machine *m, const sc_event *event);

#endif /* SC_INTERNAL_H */
