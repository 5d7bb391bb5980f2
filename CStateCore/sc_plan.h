/*
 * sc_plan.h - the microstep cache ("plans"): its data, which sits right after the machine's
 * header in the machine's block, and its interface to sc_machine.c. The algorithm (sc_step.c)
 * knows nothing of it: sc_plan.c runs the algorithm's external microstep, then decides from
 * the chart, the configuration before (the key) and after, and the enabled transitions whether
 * the microstep may be replayed next time.
 *
 * Built with SC_CONFIG_NO_PLAN_CACHE=1 the cache is left out (no memory in the machine, no
 * code): the functions at the end of this file are then the plain algorithm.
 */
#ifndef SC_PLAN_H
#define SC_PLAN_H

#include "sc_internal.h"

#if !SC_CONFIG_NO_PLAN_CACHE

/*
 * A plan is an external event's microstep, recorded the first time it runs from a
 * configuration and replayed afterwards. It is keyed by the configuration: its only word in a
 * chart of at most 64 states, else its only active atomic state (the configuration is then the
 * path down to it), and kept only when (configuration, event) alone determined it: no guard was
 * consulted, no history was read or written and no final state was entered.
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
 *   SC_PLAN_COMPUTE    not replayable (a guard, history, a final state, callbacks in several
 *                      regions): the microstep is computed in full, and not examined again.
 */
#define SC_PLAN_WAYS 4u       /* any cycle of up to 4 (configuration, event) pairs never misses */
#define SC_PLAN_SETS 4u
#define SC_PLAN_MAX_PATH 64u

/* In this order: sc_machine_dispatch replays the first two itself, the others need the algorithm. */
enum { SC_PLAN_UNHANDLED = 1, SC_PLAN_MASKS = 2, SC_PLAN_WALK = 3, SC_PLAN_COMPUTE = 4 };

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

typedef struct sc_plan_cache {
    uint64_t key;               /* between macrosteps: the key of the configuration, or 0 */
    uint32_t hash;              /* sc_plan_hash(key), kept so lookups need not multiply */
    uint32_t clock;             /* picks the way a full set overwrites */
    sc_plan plans[SC_PLAN_SETS][SC_PLAN_WAYS];
} sc_plan_cache;

/* The cache follows the header in the machine's block (sc_machine.c lays it out). */
static inline sc_plan_cache *sc_plan_cache_of(sc_machine *m) {
    return (sc_plan_cache *)(void *)((uint8_t *)m + SC_MACHINE_HEADER_BYTES);
}

static inline size_t sc_plan_cache_bytes(void) { return sizeof(sc_plan_cache); }

static inline uint32_t sc_plan_hash(uint64_t key) {
    return (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

/* Updates the key (and its hash) from the configuration; called after every macrostep. */
static inline void sc_plan_track(sc_machine *m) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    uint64_t key = m->words == 1 ? m->configuration[0] : m->atomic_active == 1 ? m->last_atomic : 0;
    cache->key = key;
    cache->hash = sc_plan_hash(key);
}

/* Drops every plan (the observers changed, so which microsteps are quiet changed). */
static inline void sc_plan_forget(sc_machine *m) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    memset(cache->plans, 0, sizeof cache->plans);
}

static inline sc_plan *sc_plan_set(sc_plan_cache *cache, uint32_t key_hash, sc_id event) {
    return cache->plans[((key_hash ^ event * 0x85EBCA77u) >> 24) % SC_PLAN_SETS];
}

/* The plan for (current key, event), or NULL. The key must not be 0. */
static inline const sc_plan *sc_plan_find(sc_plan_cache *cache, sc_id event) {
    const sc_plan *set = sc_plan_set(cache, cache->hash, event);
    for (uint32_t w = 0; w < SC_PLAN_WAYS; w++)
        if (set[w].key == cache->key && set[w].event == event) return &set[w];
    return NULL;
}

/* Applies an SC_PLAN_MASKS plan: the configuration word, its counters and the key; no callback. */
static inline void sc_plan_apply_masks(sc_machine *m, const sc_plan *p) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    uint64_t configuration = (m->configuration[0] & ~p->u.masks.exit) | p->u.masks.entry;
    m->configuration[0] = configuration;
    cache->key = configuration;
    cache->hash = p->next_hash;
    m->eventless_states = p->u.masks.eventless_states;
    m->atomic_active = p->u.masks.atomic_active;
    m->last_atomic = p->next_leaf;
}

/* sc_step_complete, then the key of the configuration it leaves. */
sc_status sc_plan_complete(sc_machine *m, bool handled);

/* An external event's microstep: replayed from a plan when there is one, else computed by
 * sc_step_external_microstep and kept as a plan when it may be. Returns whether a transition
 * was taken. */
bool sc_plan_take_event(sc_machine *m, const sc_event *event);

#else /* SC_CONFIG_NO_PLAN_CACHE */

static inline size_t sc_plan_cache_bytes(void) { return 0; }
static inline void sc_plan_track(sc_machine *m) { (void)m; }
static inline void sc_plan_forget(sc_machine *m) { (void)m; }
static inline sc_status sc_plan_complete(sc_machine *m, bool handled) {
    return sc_step_complete(m, handled);
}
static inline bool sc_plan_take_event(sc_machine *m, const sc_event *event) {
    return sc_step_external_microstep(m, event);
}

#endif /* SC_CONFIG_NO_PLAN_CACHE */
#endif /* SC_PLAN_H */
