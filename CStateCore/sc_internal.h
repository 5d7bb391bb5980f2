/*
 * sc_internal.h - the machine's memory layout and the bit-array helpers shared by
 * sc_machine.c (life cycle, queues, accessors) and sc_step.c (the SCXML algorithm).
 * Nothing here is part of the public API.
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
 *   | configuration    |  W words: bit s set while state s is active
 *   | entry_set        |  W words: scratch, states to enter in the current microstep
 *   | history_default  |  W words: scratch, history states that used their default transition
 *   | invoke_pending   |  W words: entered, not exited, invocations not started yet
 *   | history_recorded |  W words: bit h set when history state h holds a record
 *   | history_records  |  one record per history state: a bit per descendant of its parent
 *   | history_index    |  H x 2 x uint32: (history state, word offset of its record), sorted
 *   | enabled          |  A x 2 x uint32: (transition, domain) selected in this microstep
 *   | internal queue   |  ring of sc_event
 *   | external queue   |  ring of sc_event
 *   +------------------+
 *
 * W = ceil(states / 64), H = number of history states, A = the most atomic states that can be
 * active at once (at most one transition is selected per active atomic state): 1 for a chart
 * without parallel states, bounded by 1 + the sum over parallel states of (children - 1).
 *
 * Counters kept alongside the bits, so a macrostep skips whole phases that have nothing to do:
 * eventless_states counts the states of {root} + configuration that have an eventless transition
 * (none: no eventless selection pass), invoke_pending_count the bits of invoke_pending,
 * atomic_active the active atomic states (1: the configuration is the path down to last_atomic),
 * and between macrosteps plan_key identifies the configuration for the plans (below).
 *
 * plans: SC_PLAN_SETS x SC_PLAN_WAYS cached microsteps (sc_plan.c), part of the header.
 */

/*
 * A plan is an external event's microstep, recorded the first time it runs from a
 * configuration and replayed afterwards. It is keyed by the configuration: its only word in a
 * chart of at most 64 states, else its only active atomic state (the configuration is then the
 * path down to it), and recorded only when no guard was evaluated, no history was read or
 * written and no final state was entered, so (configuration, event) determines it.
 *
 *   SC_PLAN_UNHANDLED  the event enables nothing.
 *   SC_PLAN_MASKS      one-word charts, no callback made: the microstep is two mask operations,
 *                      configuration = (configuration & ~exit) | entry, whatever the number of
 *                      transitions (parallel regions included).
 *   SC_PLAN_WALK       from one atomic state to one atomic state, replayed state by state with
 *                      the recorded microstep's callbacks:
 *
 *        domain                      exit:  leaf, parent(leaf), ... up to the domain (excluded)
 *       /      \                     then:  the transition's content
 *    leaf ... next_leaf              enter: the path from below the domain down to next_leaf,
 *                                           bit i of entry_defaults: i-th state entered by default
 */
#define SC_PLAN_WAYS 4u       /* any cycle of up to 4 (configuration, event) pairs never misses */
#define SC_PLAN_SETS 4u
#define SC_PLAN_MAX_PATH 64u

enum { SC_PLAN_UNHANDLED = 1, SC_PLAN_MASKS = 2, SC_PLAN_WALK = 3 };

typedef struct sc_plan {
    uint64_t key;               /* the configuration (see above); 0 marks an empty slot */
    sc_id event;                /* key */
    uint32_t mode;              /* SC_PLAN_* */
    sc_id next_leaf;            /* the atomic state entered last (the only one, for WALK) */
    uint32_t next_hash;         /* MASKS: sc_plan_hash of the configuration after it */
    union {
        struct {
            uint32_t eventless_states, atomic_active;   /* the counters after the microstep */
            uint64_t exit, entry;
        } masks;
        struct {
            sc_id leaf, transition, domain;             /* domain SC_NONE: targetless */
            uint32_t entry_count;
            uint64_t entry_defaults;
        } walk;
    } u;
} sc_plan;

/* What sc_step.c notes while a microstep may become a plan. */
typedef struct sc_recording {
    bool active;
    bool ok;                    /* nothing happened that (leaf, event) alone does not determine */
    bool quiet;                 /* no callback was made */
    uint32_t entry_count;
    uint32_t eventless_before;
    uint32_t atomic_before;
    sc_id leaf_before;
    uint64_t entry_defaults;
} sc_recording;

typedef struct sc_queue {
    sc_event *slots;
    uint32_t capacity;
    uint32_t head;      /* index of the oldest event */
    uint32_t count;
} sc_queue;

typedef struct sc_enabled {
    sc_id transition;
    sc_id domain;       /* the transition's domain for this microstep (SC_NONE: targetless) */
} sc_enabled;

struct sc_machine {
    const sc_chart *chart;
    sc_host host;
    uint32_t words;             /* W */
    uint32_t history_count;     /* H */
    uint32_t enabled_capacity;  /* A */
    uint32_t enabled_count;
    uint32_t max_steps;
    uint32_t dropped;
    sc_interrupt_flag interrupt;    /* set by sc_machine_interrupt(), possibly from another thread */
    bool started;
    bool halted;
    bool busy;                  /* inside start/dispatch/run/stop: callbacks are running */
    bool owns_memory;
    uint32_t eventless_states;  /* {root} + configuration states with an eventless transition */
    uint32_t invoke_pending_count;
    uint32_t atomic_active;     /* active atomic states */
    sc_id last_atomic;          /* the atomic state entered last: the leaf when atomic_active == 1 */
    uint64_t plan_key;          /* between macrosteps: the plans' key of the configuration, or 0 */
    uint32_t plan_hash;         /* sc_plan_hash(plan_key), kept so lookups need not multiply */
    uint32_t plan_clock;        /* picks the way a full set overwrites */
    sc_recording recording;
    uint64_t *configuration;
    uint64_t *entry_set;
    uint64_t *history_default;
    uint64_t *invoke_pending;
    uint64_t *history_recorded;
    uint64_t *history_records;
    uint32_t *history_index;
    sc_enabled *enabled;
    sc_queue internal;
    sc_queue external;
    sc_plan plans[SC_PLAN_SETS][SC_PLAN_WAYS];  /* last: the fields above share cache lines */
};

/* ---- bit arrays ---------------------------------------------------------------------- */

static inline bool sc_bit_test(const uint64_t *bits, sc_id i) {
    return (bits[i >> 6] >> (i & 63u)) & 1u;
}

static inline void sc_bit_set(uint64_t *bits, sc_id i) {
    bits[i >> 6] |= UINT64_C(1) << (i & 63u);
}

static inline void sc_bit_clear(uint64_t *bits, sc_id i) {
    bits[i >> 6] &= ~(UINT64_C(1) << (i & 63u));
}

/* Index of the lowest set bit, x != 0. */
static inline uint32_t sc_ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_ctzll(x);
#else
    uint32_t n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

/* Index of the highest set bit, x != 0. */
static inline uint32_t sc_msb64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return 63u - (uint32_t)__builtin_clzll(x);
#else
    uint32_t n = 0;
    while (x >>= 1) n++;
    return n;
#endif
}

/* First set bit in [from, end), or end when there is none. Reads the words fresh, so bits
 * set ahead of `from` while iterating are seen (the entry-set scan relies on that). */
static inline sc_id sc_bit_next(const uint64_t *bits, sc_id from, sc_id end) {
    if (from >= end) return end;
    uint32_t w = from >> 6;
    uint64_t word = bits[w] & (~UINT64_C(0) << (from & 63u));
    for (;;) {
        if (word) {
            sc_id i = (w << 6) + sc_ctz64(word);
            return i < end ? i : end;
        }
        if (((++w) << 6) >= end) return end;
        word = bits[w];
    }
}

/* Last set bit in [begin, below), or SC_NONE. Used for exit order (reverse document order). */
static inline sc_id sc_bit_prev(const uint64_t *bits, sc_id begin, sc_id below) {
    if (below <= begin) return SC_NONE;
    sc_id last = below - 1;
    uint32_t w = last >> 6;
    uint64_t word = bits[w] & (~UINT64_C(0) >> (63u - (last & 63u)));
    for (;;) {
        if (word) {
            sc_id i = (w << 6) + sc_msb64(word);
            return i >= begin ? i : SC_NONE;
        }
        if (w == 0 || ((w - 1) << 6) + 63u < begin) return SC_NONE;
        word = bits[--w];
    }
}

/* Clears bits [begin, end). */
static inline void sc_bits_clear_range(uint64_t *bits, sc_id begin, sc_id end) {
    if (begin >= end) return;
    uint32_t first = begin >> 6, last = (end - 1) >> 6;
    uint64_t lo = ~UINT64_C(0) << (begin & 63u);
    uint64_t hi = ~UINT64_C(0) >> (63u - ((end - 1) & 63u));
    if (first == last) {
        bits[first] &= ~(lo & hi);
        return;
    }
    bits[first] &= ~lo;
    for (uint32_t w = first + 1; w < last; w++) bits[w] = 0;
    bits[last] &= ~hi;
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
    return kind == SC_ATOMIC || kind == SC_FINAL;
}

/* Children: the first is s+1, the next sibling of c is last_descendant(c)+1. */
#define SC_FOR_EACH_CHILD(chart, s, c) \
    for (sc_id c = (s) + 1; c <= (chart)->states[s].last_descendant; \
         c = (chart)->states[c].last_descendant + 1)

/* Whether state s has eventless transitions (own_mask is a superset of its descriptors' bits). */
static inline bool sc_has_eventless(const sc_chart *chart, sc_id s) {
    return (chart->states[s].own_mask & SC_MASK_EVENTLESS) != 0;
}

/* Recomputes the configuration counters from the bits (after restore or init). */
void sc_count_configuration(sc_machine *m);

/* Record of history state h: word offset into history_records, or UINT32_MAX. */
uint32_t sc_history_offset(const sc_machine *m, sc_id h);

/* Queue primitives (sc_machine.c). */
bool sc_queue_push(sc_queue *q, sc_event e);
bool sc_queue_pop(sc_queue *q, sc_event *e);

/* The algorithm (sc_step.c). */
sc_status sc_step_enter_initial(sc_machine *m);
sc_status sc_step_external(sc_machine *m, const sc_event *event);
void sc_step_exit_interpreter(sc_machine *m);
void sc_step_exit_state(sc_machine *m, sc_id s, const sc_event *event);
void sc_step_enter_state(sc_machine *m, sc_id s, bool by_default, const sc_event *event);

sc_status sc_step_complete(sc_machine *m, bool handled);

/* Plans (sc_plan.c). The key of the current configuration, the pair of slots (key, event)
 * lives in, and the plan there if any. */
static inline uint64_t sc_plan_key(const sc_machine *m) {
    if (m->words == 1) return m->configuration[0];
    return m->atomic_active == 1 ? m->last_atomic : 0;
}

static inline uint32_t sc_plan_hash(uint64_t key) {
    return (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

/* Updates plan_key and plan_hash from the configuration. */
static inline void sc_plan_track(sc_machine *m) {
    m->plan_key = sc_plan_key(m);
    m->plan_hash = sc_plan_hash(m->plan_key);
}

static inline sc_plan *sc_plan_set(sc_machine *m, uint32_t key_hash, sc_id event) {
    return m->plans[((key_hash ^ event * 0x85EBCA77u) >> 24) % SC_PLAN_SETS];
}

static inline const sc_plan *sc_plan_find(sc_machine *m, uint64_t key, sc_id event) {
    const sc_plan *set = sc_plan_set(m, m->plan_hash, event);
    for (uint32_t w = 0; w < SC_PLAN_WAYS; w++)
        if (set[w].key == key && set[w].event == event) return &set[w];
    return NULL;
}

/* Applies an SC_PLAN_MASKS plan: the configuration word and its counters, no callback. */
static inline void sc_plan_apply_masks(sc_machine *m, const sc_plan *p) {
    uint64_t configuration = (m->configuration[0] & ~p->u.masks.exit) | p->u.masks.entry;
    m->configuration[0] = configuration;
    m->plan_key = configuration;
    m->plan_hash = p->next_hash;
    m->eventless_states = p->u.masks.eventless_states;
    m->atomic_active = p->u.masks.atomic_active;
    m->last_atomic = p->next_leaf;
}

void sc_plan_replay(sc_machine *m, const sc_plan *cached, const sc_event *event);
void sc_plan_store(sc_machine *m, uint64_t key, sc_id event);

#endif /* SC_INTERNAL_H */
