/*
 * sc_plan.h - the microstep cache ("plans"), right after the machine's header in its block, and
 * its interface to sc_machine.c. A plan is the record (sc_record) of what an external event's
 * microstep did from one configuration, applied again when the same event comes in the same
 * configuration. The cache never selects transitions nor computes an entry set: a replay applies
 * the record through sc_step.c's own exit, content and entry functions, or, when nothing observes
 * the microstep, copies the configuration it left. SC_CONFIG_NO_PLAN_CACHE=1 leaves it out (no
 * memory, no code): the functions at the end of this file are then the plain algorithm.
 */
#ifndef SC_PLAN_H
#define SC_PLAN_H

#include "sc_internal.h"

#if !SC_CONFIG_NO_PLAN_CACHE

/*
 * What may be replayed: a microstep that the configuration, the event and the guards' outcomes
 * determine. So no state with history is exited (it records) or entered (it may read a record),
 * and no transition's domain is computed (SC_TRANSITION_DYNAMIC_DOMAIN: it reads records).
 *
 * The key of a configuration (0 is no key: nothing is looked up or kept):
 *   - a chart of at most 64 states: its configuration word;
 *   - at most SC_PLAN_MAX_KEY_WORDS words: a digest, the words themselves kept beside the plan
 *     and compared on every lookup;
 *   - larger charts: the only active atomic state, when there is one (the configuration is then
 *     the path down to it); other configurations of such charts have no key.
 *
 * A plan's kind:
 *   SC_PLAN_UNHANDLED  the event enabled nothing.
 *   SC_PLAN_MASKS      no callback, a key of words: the replay copies the configuration after it.
 *   SC_PLAN_STEPS      the exits, transitions and entries of its sc_plan_step, replayed through
 *                      sc_step_exit_state, sc_step_take_transition and sc_step_enter_state.
 *   SC_PLAN_COMPUTE    not replayable (see above, or too large for an sc_plan_step): the
 *                      algorithm runs it every time.
 * and its flags:
 *   SC_PLAN_GUARDED    selection consulted guards: the replay asks them (sc_plan_step.guards) in
 *                      order and applies the plan only if each gives its recorded outcome; at the
 *                      first that does not, the algorithm selects, told the outcomes asked so far
 *                      (no guard is asked twice), and its record replaces the plan.
 *   SC_PLAN_ENDS_UNHANDLED, SC_PLAN_ENDS_MASKS  an UNHANDLED or MASKS plan, not guarded, with no
 *                      eventless transition after it: its replay is the whole macrostep, so
 *                      sc_machine_dispatch's fast path returns right after it (one byte tested).
 */
#define SC_PLAN_WAYS 4u               /* a configuration's plans share one set of 4 ways */
#define SC_PLAN_MAX_SETS 4u           /* fewer when the chart has fewer (configuration, event) pairs */
#define SC_PLAN_MAX_KEY_WORDS 4u      /* keys with words: charts of up to 256 states */
#define SC_PLAN_STEP_STATES 10u       /* an sc_plan_step exits and enters at most this many states */
#define SC_PLAN_STEP_TAKEN 2u         /* ... and takes at most this many transitions */
#define SC_PLAN_STEP_GUARDS 4u        /* ... after consulting at most this many guards */

enum { SC_PLAN_UNHANDLED = 1, SC_PLAN_MASKS = 2, SC_PLAN_STEPS = 3, SC_PLAN_COMPUTE = 4 };
enum { SC_PLAN_GUARDED = 1, SC_PLAN_ENDS_UNHANDLED = 2, SC_PLAN_ENDS_MASKS = 4 };

/* A plan: its key, the kind of its microstep and, for SC_PLAN_MASKS, where the microstep leaves
 * the machine. Four of them fit a small chart's machine: every field is as narrow as it can be. */
typedef struct sc_plan {
    uint64_t key;               /* the configuration's key; 0 marks an empty slot */
    uint64_t next_key;          /* MASKS: the key of the configuration after the microstep */
    sc_id event;                /* key */
    uint8_t kind;               /* SC_PLAN_UNHANDLED .. SC_PLAN_COMPUTE */
    uint8_t flags;              /* SC_PLAN_GUARDED, SC_PLAN_ENDS_* */
    uint8_t eventless_after;    /* MASKS: m->eventless_states after the microstep */
    uint8_t next_set;           /* MASKS: the set of next_key's plans (sc_plan_set_of) */
} sc_plan;

/* The recorded microstep of a plan, in machines that keep steps (sc_plan_cache.steps): all of it
 * for a STEPS plan, its guards for a GUARDED one. */
typedef struct sc_plan_step {
    uint8_t exit_count, taken_count, entry_count, guard_count;
    uint16_t entry_defaults;    /* bit i: the i-th state entered was entered by default */
    uint8_t guard_outcomes;     /* bit i: the outcome of guards[i] */
    sc_id states[SC_PLAN_STEP_STATES];  /* exited (in exit order), then entered (in entry order) */
    sc_id taken[SC_PLAN_STEP_TAKEN];    /* the transitions whose content ran, in order */
    sc_id guards[SC_PLAN_STEP_GUARDS];  /* the transitions whose guards selection consulted, in order */
} sc_plan_step;

/*
 * The cache: `sets` x SC_PLAN_WAYS plans (sets: 1, 2 or 4, by the chart's (configuration, event)
 * pairs), then arrays indexed like the plans:  | header | plans | steps | words |
 * A configuration's plans are in the set its key selects (sc_plan_set_of), whatever the event;
 * a MASKS plan notes the set it leaves to, so a replay finds the next plans without hashing.
 * steps: charts with guards or invocations, and machines keyed by their leaf. words (keys with
 * words): each plan's key words, then the words after its MASKS microstep.
 */
typedef struct sc_plan_cache {
    uint64_t key;               /* between macrosteps: the key of the configuration, or 0 */
    uint8_t set;                /* sc_plan_set_of(key): where the key's plans are */
    uint8_t set_mask;           /* sets - 1 (sets: a power of two) */
    uint8_t plan_count;         /* sets x SC_PLAN_WAYS */
    uint8_t key_words;          /* keys with words (more than one): the configuration's words */
    uint8_t clock;              /* picks the way a full set overwrites */
    bool steps;                 /* steps[] is there */
    uint16_t words_offset;      /* bytes from the cache to words[0] */
    sc_plan plans[];            /* plan_count of them */
} sc_plan_cache;

/* Test builds count replays (-DSC_PLAN_STATS=1), to show each kind ran; not thread-safe. */
#ifndef SC_PLAN_STATS
#define SC_PLAN_STATS 0
#endif
#if SC_PLAN_STATS
typedef struct sc_plan_stats {   /* replays by kind; plans found by keys with words; GUARDED
                                   plans that had their outcomes, or not; SC_PLAN_ENDS plans */
    unsigned long replays[SC_PLAN_COMPUTE + 1], multiword_replays, guarded_replays, guarded_misses, fast_masks, fast_unhandled;
} sc_plan_stats;
extern sc_plan_stats sc_plan_counters;
#define SC_PLAN_COUNT(field) (sc_plan_counters.field++)
#else
#define SC_PLAN_COUNT(field) ((void)0)
#endif

/* The cache follows the header in the machine's block. */
static inline sc_plan_cache *sc_plan_cache_of(sc_machine *m) {
    return (sc_plan_cache *)(void *)((uint8_t *)m + SC_MACHINE_HEADER_BYTES);
}

/* Bytes of the cache of a machine for `chart` (checked) whose configuration has `words` words;
 * when m is not NULL (a zeroed block, once per machine), also sets its cache's layout fields. */
size_t sc_plan_layout(const sc_chart *chart, uint32_t words, sc_machine *m);

/* The set of a key's plans, as 8-byte words from the cache to its first way (so that the fast
 * path finds it with one addition). */
static inline uint8_t sc_plan_set_of(const sc_plan_cache *cache, uint64_t key) {
    uint32_t set = (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 56) & cache->set_mask;
    return (uint8_t)((offsetof(sc_plan_cache, plans) + set * SC_PLAN_WAYS * sizeof(sc_plan)) / sizeof(uint64_t));
}

static inline sc_plan *sc_plan_set_at(sc_plan_cache *cache, uint8_t set) {
    return (sc_plan *)(void *)((uint64_t *)(void *)cache + set);
}

/* The key words, then the words after its MASKS microstep, of plan p (keys with words). */
static inline uint64_t *sc_plan_words(sc_plan_cache *cache, const sc_plan *p) {
    return (uint64_t *)(void *)((uint8_t *)cache + cache->words_offset) + (size_t)(p - cache->plans) * 2u * cache->key_words;
}

/* The key of the configuration now (0: none); out of line for machines of several words. */
uint64_t sc_plan_key_of_words(sc_machine *m);

/* Updates the key (and its set) from the configuration; called after every macrostep. */
static inline void sc_plan_track(sc_machine *m) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    uint64_t key = 0;       /* SC_MACHINE_NO_PLANS, not started: no key, so no plan is used */
    if (!m->no_plans && m->started) key = m->words == 1 ? sc_block_configuration(m)[0] : sc_plan_key_of_words(m);
    cache->key = key;
    cache->set = sc_plan_set_of(cache, key);
}

/* Opens sc_machine_dispatch's fast path (m->fast_set: the current key's set) when nothing but a
 * plan can be needed: a started machine, not halted, outside every callback, no release callback,
 * no internal event or invocation pending, a key. Called whenever the machine goes idle; anything
 * that breaks one of these conditions closes it (sc_plan_close). */
static inline void sc_plan_gate(sc_machine *m) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    bool open = !m->busy && m->started && !m->halted && !m->host->release && !sc_internal_count(m) &&
                !sc_invokes_pending(m) && cache->key;
    m->fast_set = open ? sc_plan_set_at(cache, cache->set) : NULL;
}

static inline void sc_plan_close(sc_machine *m) { m->fast_set = NULL; }

/* Drops every plan (the observers changed, so which microsteps are quiet changed). */
static inline void sc_plan_forget(sc_machine *m) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    memset(cache->plans, 0, (size_t)cache->plan_count * sizeof(sc_plan));
}

/* The plan for (current key, event) in `set`, the current key's set, or NULL. */
sc_plan *sc_plan_find(sc_machine *m, sc_plan_cache *cache, sc_plan *set, sc_id event);

/* Replays MASKS plan p (a copy of the plan at `at`, whose words it reads): the configuration,
 * eventless_states and the key; no callback. */
static inline void sc_plan_apply_masks(sc_machine *m, const sc_plan *p, const sc_plan *at) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    for (uint32_t i = 0; i < cache->key_words; i++) sc_block_configuration(m)[i] = sc_plan_words(cache, at)[cache->key_words + i];
    if (!cache->key_words) sc_block_configuration(m)[0] = p->next_key;
    cache->key = p->next_key;
    cache->set = p->next_set;
    sc_set_eventless_count(m, p->eventless_after);
}

/* sc_step_complete (its test inline: most replayed macrosteps end with their microstep), then the key. */
static inline sc_status sc_plan_complete(sc_machine *m, bool handled) {
    sc_status status = handled ? SC_OK : SC_UNHANDLED;
    if (sc_failure(m) != SC_OK || sc_macrostep_halted(m) || sc_eventless_count(m) || sc_internal_count(m) || sc_invokes_pending(m))
        status = sc_step_complete(m, handled);
    sc_plan_track(m);
    return status;
}

/* An external event's microstep from `plan`, found for it. Returns whether one was taken. */
bool sc_plan_replay(sc_machine *m, sc_plan *plan, const sc_event *event);

/* An external event's microstep: replayed from a plan when there is one, else run by the
 * algorithm and kept as a plan. Returns whether one was taken. */
bool sc_plan_take_event(sc_machine *m, const sc_event *event);

#else /* SC_CONFIG_NO_PLAN_CACHE */

static inline size_t sc_plan_layout(const sc_chart *chart, uint32_t words, sc_machine *m) { (void)chart; (void)words; (void)m; return 0; }
static inline void sc_plan_track(sc_machine *m) { (void)m; }
static inline void sc_plan_forget(sc_machine *m) { (void)m; }
static inline void sc_plan_gate(sc_machine *m) { (void)m; }
static inline void sc_plan_close(sc_machine *m) { (void)m; }
static inline sc_status sc_plan_complete(sc_machine *m, bool handled) { return sc_step_complete(m, handled); }
static inline bool sc_plan_take_event(sc_machine *m, const sc_event *event) { return sc_step_external_microstep(m, event); }

#endif /* SC_CONFIG_NO_PLAN_CACHE */
#endif /* SC_PLAN_H */
