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
 * configuration and replayed afterwards. It is keyed by the configuration and the event, and
 * kept only when the configuration, the event and the guards' outcomes alone determined it: no
 * history was read or written and no final state was entered. The key is
 *
 *   - a chart of at most 64 states: its configuration word;
 *   - at most SC_PLAN_MAX_KEY_WORDS words: a digest of the configuration, the words themselves
 *     kept after the plan and compared on every lookup ("multi-word plans");
 *   - larger charts: the only active atomic state (the configuration is the path down to it);
 *     other configurations of such charts run the algorithm.
 *
 *   SC_PLAN_UNHANDLED  the event enables nothing.
 *   SC_PLAN_MASKS      no callback made: the microstep is the configuration after it, copied in
 *                      (one word, or the words after the plan), whatever the number of
 *                      transitions (parallel regions included).
 *   SC_PLAN_WALK       one transition whose domain holds one active atomic state, `leaf`, before
 *                      and one, `next_leaf`, after; replayed state by state with the recorded
 *                      microstep's callbacks (other regions are untouched):
 *
 *        domain                      exit:  leaf, parent(leaf), ... up to the domain (excluded)
 *       /      \                     then:  the transition's content
 *    leaf ... next_leaf              enter: the path from below the domain down to next_leaf,
 *                                           bit i of entry_defaults: i-th state entered by default
 *   SC_PLAN_GUARDED    selection consults guards: the plan lists the transitions selection would
 *                      test, in its order, at most SC_PLAN_MAX_CANDIDATES ("candidates", grouped
 *                      by active atomic state). A replay calls exactly those guards, as the
 *                      algorithm would; the candidates chosen (a bit each) are the key of the
 *                      plan's step: the MASKS, WALK or COMPUTE step recorded the last time they
 *                      were chosen (other choices run the algorithm from the chosen transitions
 *                      and record their step in its place).
 *   SC_PLAN_COMPUTE    not replayable (history, a final state, callbacks in several regions, a
 *                      transition to a history state): the microstep is computed in full, and
 *                      not examined again.
 */
#define SC_PLAN_WAYS 4u       /* a configuration's plans share one set of 4 ways */
#define SC_PLAN_MAX_SETS 4u   /* fewer when the chart has fewer (configuration, event) pairs */
#define SC_PLAN_MAX_PATH 16u  /* a WALK step enters at most this many states (entry_defaults' bits) */
#define SC_PLAN_MAX_KEY_WORDS 4u    /* multi-word plans: charts of up to 256 states */
#define SC_PLAN_MAX_CANDIDATES 4u

/* The kinds of plan and of step (sc_plan.mode & SC_PLAN_KIND). In this order: sc_machine_dispatch
 * replays the first two itself, the others need the algorithm. */
enum { SC_PLAN_UNHANDLED = 1, SC_PLAN_MASKS = 2, SC_PLAN_WALK = 3, SC_PLAN_GUARDED = 4, SC_PLAN_COMPUTE = 5 };
#define SC_PLAN_KIND 0x7u

/* Added to the mode of a MASKS or UNHANDLED plan that, replayed, completes the macrostep by itself
 * (no callback, nothing left to do after it: no eventless transition in the configuration it
 * leaves), so sc_machine_dispatch's fast path returns right after it: one byte tested for both
 * facts (a byte of its own would not fit a 24-byte plan). */
#define SC_PLAN_FAST 0x8u
enum { SC_PLAN_FAST_UNHANDLED = SC_PLAN_UNHANDLED | SC_PLAN_FAST, SC_PLAN_FAST_MASKS = SC_PLAN_MASKS | SC_PLAN_FAST };

/* sc_plan.info of a WALK step: the number of states it enters (bits 0-4), whether the state it
 * leaves is the plan's key (bit 6: machines keyed by their only active atomic state; else both
 * leaves are 16-bit, see sc_plan.u.walk), and whether it is plain (bit 7): no
 * state on its paths has invocations or an eventless transition, so the replay sets the
 * configuration bits itself and no counter but last_atomic changes. */
#define SC_PLAN_WALK_ENTRIES 0x1Fu
#define SC_PLAN_WALK_LEAF_IS_KEY 0x40u
#define SC_PLAN_WALK_PLAIN 0x80u

/*
 * A plan: its key (configuration, event) and the step that replays it, in 24 bytes, four of them
 * in a machine of a small chart: every field is as narrow as the steps that use it allow, and a
 * step keeps nothing the machine can find otherwise.
 *
 *   MASKS steps exist only for keys with bits (at most SC_PLAN_MAX_KEY_WORDS x 64 = 256 states):
 *   their counter fits a byte and their next set 16 bits (the cache is at most a few KB). They
 *   keep no atomic_active and last_atomic: only machines keyed by their leaf read those, and such
 *   machines have no MASKS steps (sc_internal.h).
 *   WALK steps serve any chart, so their transition stays 32-bit; its domain is read from the
 *   chart (a WALK step's transition never has a dynamic domain), and the state the step leaves is
 *   the key in machines keyed by their leaf, else kept in 16 bits with the state it enters last.
 *
 * The step (info, u, x) is also a GUARDED plan's "step of the candidates last chosen", whose kind
 * is then kept with the candidates (sc_plan_candidates.step_mode; 0: none yet); copy_step in
 * sc_plan.c moves one between plans.
 */
typedef struct sc_plan {
    uint64_t key;               /* the configuration's key (see above); 0 marks an empty slot */
    union {
        uint64_t next_key;      /* MASKS: the key after it (for one word: the configuration) */
        struct {
            sc_id transition;
            /* The atomic states it leaves and enters last (the only ones in the domain before and
             * after): the one left is the key in machines keyed by their leaf, whose states need
             * 32 bits; machines keyed by bits have at most 256 states, so both fit 16 bits. */
            union {
                sc_id next_leaf;                                /* SC_PLAN_WALK_LEAF_IS_KEY */
                struct { uint16_t leaf, next_leaf; } bits;      /* else */
            } leaves;
        } walk;
    } u;
    sc_id event;                /* key */
    uint8_t mode;               /* SC_PLAN_* (a kind, GUARDED included), + SC_PLAN_FAST */
    uint8_t info;               /* MASKS: eventless_states after it; WALK: SC_PLAN_WALK_* bits */
    union {
        uint16_t next_set;          /* MASKS: sc_plan_set_of(next_key): where the next plans are */
        uint16_t entry_defaults;    /* WALK: bit i: the i-th state entered is entered by default */
    } x;
} sc_plan;

/* After each plan, in machines of charts with guards: the candidates of a GUARDED plan. */
typedef struct sc_plan_candidates {
    sc_id transition[SC_PLAN_MAX_CANDIDATES];
    uint8_t count;
    uint8_t group_end;          /* bit i: candidate i is the last its atomic state tests */
    uint8_t step_mode;          /* the kind of the plan's step (SC_PLAN_*), 0 while it has none */
    uint8_t reserved;
    uint32_t choice;            /* the candidates chosen when the step was recorded, a bit each */
} sc_plan_candidates;

/*
 * The cache: `sets` x SC_PLAN_WAYS plans (sets: 1, 2 or 4, by the chart's (configuration, event)
 * pairs), then what some charts need per plan, in arrays indexed like the plans (so a plan's own
 * size, and the lookup's arithmetic, are fixed):
 *
 *   | header | plans[P] | candidates[P] (charts with guards) | words[P][2 x key_words] | before |
 *
 * A configuration's plans are in the set its key selects (sc_plan_set_of), whatever the event: a
 * MASKS step stores the set of the configuration it leaves (next_set), so a replay finds the
 * next event's plans without hashing anything.
 *
 * words[i]: multi-word machines, plan i's key words then the words after its MASKS step;
 * before: multi-word machines, a scratch copy of the configuration before the microstep being
 * recorded.
 */
typedef struct sc_plan_cache {
    uint64_t key;               /* between macrosteps: the key of the configuration, or 0 */
    /* The layout, fixed when the machine is made; small types: the cache is at most
     * SC_PLAN_MAX_SETS x SC_PLAN_WAYS plans and what follows them (a few KB). candidates[] and
     * before are found from plan_count and words_offset (16 bytes of header, not 24). */
    uint16_t set;               /* sc_plan_set_of(key): bytes from the cache to the key's set */
    uint8_t set_mask;           /* sets - 1 (sets: a power of two) */
    uint8_t plan_count;         /* sets x SC_PLAN_WAYS */
    uint8_t key_words;          /* multi-word plans: the configuration's words; else 0 */
    uint8_t clock;              /* picks the way a full set overwrites */
    uint16_t words_offset;      /* bytes from the cache to words[0] (read on multi-word lookups) */
    sc_plan plans[];            /* plan_count of them */
} sc_plan_cache;

/* Test builds count replays (-DSC_PLAN_STATS=1), so the differential tests can show that the
 * fast paths ran; not thread-safe, and compiled out of every other build. */
#ifndef SC_PLAN_STATS
#define SC_PLAN_STATS 0
#endif
#if SC_PLAN_STATS
typedef struct sc_plan_stats {
    unsigned long replays[SC_PLAN_COMPUTE + 1];         /* by mode: plans replayed */
    unsigned long multiword_replays;                    /* plans found by multi-word keys */
    unsigned long guarded_outcomes;                     /* GUARDED hits whose step was recorded
                                                           for the same candidates */
    unsigned long fast_masks, fast_unhandled;           /* plans that were the whole dispatch, on
                                                           sc_machine_dispatch's fast path */
} sc_plan_stats;
extern sc_plan_stats sc_plan_counters;
#define SC_PLAN_COUNT(field) (sc_plan_counters.field++)
#else
#define SC_PLAN_COUNT(field) ((void)0)
#endif

/* The cache follows the header in the machine's block (sc_machine.c lays it out). */
static inline sc_plan_cache *sc_plan_cache_of(sc_machine *m) {
    return (sc_plan_cache *)(void *)((uint8_t *)m + SC_MACHINE_HEADER_BYTES);
}

/* Bytes of the cache of a machine for `chart` (checked), whose configuration has `words` words. */
size_t sc_plan_cache_bytes(const sc_chart *chart, uint32_t words);

/* Sets the layout fields of a cache in a zeroed block (called once per machine). */
void sc_plan_init(sc_machine *m);

static inline sc_plan *sc_plan_slot(sc_plan_cache *cache, uint32_t index) {
    return &cache->plans[index];
}

/* The candidates of plan p (charts with guards). */
static inline sc_plan_candidates *sc_plan_candidates_of(sc_plan_cache *cache, const sc_plan *p) {
    sc_plan_candidates *all = (sc_plan_candidates *)(void *)(cache->plans + cache->plan_count);
    return &all[p - cache->plans];
}

/* The key words (then the words after its MASKS step) of plan p (multi-word machines). */
static inline uint64_t *sc_plan_words(sc_plan_cache *cache, const sc_plan *p) {
    uint64_t *all = (uint64_t *)(void *)((uint8_t *)cache + cache->words_offset);
    return all + (size_t)(p - cache->plans) * 2u * cache->key_words;
}

/* The multi-word scratch: the configuration before the microstep being recorded. */
static inline uint64_t *sc_plan_before(sc_plan_cache *cache) {
    return (uint64_t *)(void *)((uint8_t *)cache + cache->words_offset) + (size_t)cache->plan_count * 2u * cache->key_words;
}

static inline uint32_t sc_plan_hash(uint64_t key) {
    return (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

/* The key of a multi-word configuration: a digest, never 0 (0 marks an empty slot). */
static inline uint64_t sc_plan_digest(const uint64_t *words, uint32_t n) {
    uint64_t h = 0;
    for (uint32_t i = 0; i < n; i++) h = (h ^ words[i]) * UINT64_C(0xFF51AFD7ED558CCD) + i;
    return (h ^ (h >> 29)) | 1u;
}

/* The set of a key's plans, as bytes from the cache to its first way. */
static inline uint32_t sc_plan_set_of(const sc_plan_cache *cache, uint64_t key) {
    uint32_t set = (sc_plan_hash(key) >> 24) & cache->set_mask;
    return (uint32_t)(offsetof(sc_plan_cache, plans) + (size_t)set * SC_PLAN_WAYS * sizeof(sc_plan));
}

static inline sc_plan *sc_plan_set_at(sc_plan_cache *cache, uint32_t set) {
    return (sc_plan *)(void *)((uint8_t *)cache + set);
}

/* Updates the key (and its set) from the configuration; called after every macrostep. */
static inline void sc_plan_track(sc_machine *m) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    uint64_t key;
    if (m->no_plans) key = 0;       /* key 0: neither looked up nor recorded */
    else if (m->words == 1) key = sc_block_configuration(m)[0];
    else if (cache->key_words) key = m->started ? sc_plan_digest(sc_block_configuration(m), m->words) : 0;
    else key = m->atomic_active == 1 ? m->last_atomic : 0;
    cache->key = key;
    cache->set = (uint16_t)sc_plan_set_of(cache, key);
}

/* Opens sc_machine_dispatch's fast path (m->fast_set: the current key's set) when nothing but a
 * plan can be needed: a started machine, not halted, outside every callback, no release callback,
 * no internal event or invocation pending, a key. Called whenever the machine goes idle; anything
 * that breaks one of these conditions closes it (sc_plan_close). */
static inline void sc_plan_gate(sc_machine *m) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    bool open = !m->busy && m->started && !m->halted && !m->host->release && !m->internal.count &&
                !m->invokes_pending && cache->key;
    m->fast_set = open ? sc_plan_set_at(cache, cache->set) : NULL;
}

static inline void sc_plan_close(sc_machine *m) { m->fast_set = NULL; }

/* Drops every plan (the observers changed, so which microsteps are quiet changed). */
static inline void sc_plan_forget(sc_machine *m) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    memset(cache->plans, 0, (size_t)cache->plan_count * sizeof(sc_plan));
}

/* Multi-word machines' lookup and MASKS step, out of line so that the one-word path, inlined
 * into sc_machine_dispatch, stays short. */
sc_plan *sc_plan_find_words(sc_machine *m, sc_plan_cache *cache, sc_plan *set, sc_id event);
void sc_plan_apply_words(sc_machine *m, const sc_plan *p);

/* The plan for (current key, event) in `set`, the current key's set, or NULL. The key must not
 * be 0. */
static inline sc_plan *sc_plan_find_in(sc_machine *m, sc_plan_cache *cache, sc_plan *set, sc_id event) {
    if (cache->key_words) return sc_plan_find_words(m, cache, set, event);
    for (uint32_t w = 0; w < SC_PLAN_WAYS; w++) {
        sc_plan *p = set + w;
        if (p->event == event && p->key == cache->key) return p;
    }
    return NULL;
}

static inline sc_plan *sc_plan_find(sc_machine *m, sc_plan_cache *cache, sc_id event) {
    return sc_plan_find_in(m, cache, sc_plan_set_at(cache, cache->set), event);
}

/* Applies the MASKS step of `step` (a plan, or a copy of one) found as plan p: the configuration,
 * eventless_states and the key; no callback (atomic_active and last_atomic are not kept: see
 * sc_plan). */
static inline void sc_plan_apply_masks(sc_machine *m, const sc_plan *p, const sc_plan *step) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    if (cache->key_words) sc_plan_apply_words(m, p);
    else sc_block_configuration(m)[0] = step->u.next_key;
    cache->key = step->u.next_key;
    cache->set = step->x.next_set;
    m->eventless_states = step->info;
}

/* sc_step_complete, then the key of the configuration it leaves. sc_step_complete's own test
 * comes first, inline: most replayed macrosteps end with their microstep. */
static inline sc_status sc_plan_complete(sc_machine *m, bool handled) {
    sc_status status = handled ? SC_OK : SC_UNHANDLED;
    if (m->failure != SC_OK || m->halted || m->eventless_states || m->internal.count || m->invokes_pending)
        status = sc_step_complete(m, handled);
    sc_plan_track(m);
    return status;
}

/* An external event's microstep from the plan `plan` found for it (sc_plan_find). Returns whether
 * a transition was taken. */
bool sc_plan_replay(sc_machine *m, sc_plan *plan, const sc_event *event);

/* An external event's microstep: replayed from a plan when there is one, else computed by
 * sc_step_external_microstep and kept as a plan when it may be. Returns whether a transition
 * was taken. */
bool sc_plan_take_event(sc_machine *m, const sc_event *event);

#else /* SC_CONFIG_NO_PLAN_CACHE */

static inline size_t sc_plan_cache_bytes(const sc_chart *chart, uint32_t words) { (void)chart; (void)words; return 0; }
static inline void sc_plan_init(sc_machine *m) { (void)m; }
static inline void sc_plan_track(sc_machine *m) { (void)m; }
static inline void sc_plan_forget(sc_machine *m) { (void)m; }
static inline void sc_plan_gate(sc_machine *m) { (void)m; }
static inline void sc_plan_close(sc_machine *m) { (void)m; }
static inline sc_status sc_plan_complete(sc_machine *m, bool handled) {
    return sc_step_complete(m, handled);
}
static inline bool sc_plan_take_event(sc_machine *m, const sc_event *event) {
    return sc_step_external_microstep(m, event);
}

#endif /* SC_CONFIG_NO_PLAN_CACHE */
#endif /* SC_PLAN_H */
