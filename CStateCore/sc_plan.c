/* sc_plan.c - the microstep cache (sc_plan.h). On a miss the algorithm runs the microstep with a
 * record (record_microstep) and keep() stores its plan. A plan depends on the chart alone (a MASKS
 * plan on the observers too: sc_machine_set_host forgets them), so none goes stale, even across
 * sc_machine_restore. */
#include "sc_plan.h"

#if !SC_CONFIG_NO_PLAN_CACHE

_Static_assert(sizeof(sc_plan) == 24 && sizeof(sc_plan_cache) == 16, "a plan is 24 bytes, the header 16 (8-aligned plans follow)");
_Static_assert(sizeof(sc_plan_step) % sizeof(uint64_t) == 0, "what follows the steps is 8-aligned");
_Static_assert(SC_PLAN_STEP_STATES <= 16 && SC_PLAN_STEP_GUARDS <= 8 && SC_PLAN_STEP_STATES <= SC_RECORD_MAX,
               "entry_defaults, guard_outcomes: a bit each; a step is copied from a record");
_Static_assert((sizeof(sc_plan_cache) + SC_PLAN_MAX_SETS * SC_PLAN_WAYS * sizeof(sc_plan)) / 8u <= UINT8_MAX, "set, plan_count fit a byte");
_Static_assert(sizeof(sc_plan_cache) + SC_PLAN_MAX_SETS * SC_PLAN_WAYS *
               (sizeof(sc_plan) + sizeof(sc_plan_step) + 2u * SC_PLAN_MAX_KEY_WORDS * sizeof(uint64_t)) <= UINT16_MAX,
               "the cache's offsets fit 16 bits");

#if SC_PLAN_STATS
sc_plan_stats sc_plan_counters;
#endif

/* Whether machines keyed by words keep steps: charts with guards or invocations (the facts that
 * SC_MACHINE_SIZE in sc_core.h is given); other charts' microsteps with callbacks run the algorithm. */
static bool chart_calls_back(const sc_chart *c) {
    for (sc_id t = 0; t < c->transition_count; t++)
        if (c->transitions[t].guard != SC_NONE) return true;
    for (const sc_state *st = c->states; st < c->states + c->state_count; st++)
        if (st->flags & SC_STATE_HAS_INVOKE) return true;
    return false;
}

/* Sets of plans for a chart: enough for its (configuration, event) pairs, at most
 * SC_PLAN_MAX_SETS. Configurations are bounded by the atomic states when the chart has no parallel
 * state (one active leaf); otherwise they are not counted. */
static uint32_t sets_for(const sc_chart *c) {
    uint32_t atomic = 0;
    for (sc_id s = 0; s < c->state_count; s++) {
        if (c->states[s].kind == SC_PARALLEL) return SC_PLAN_MAX_SETS;
        if (sc_is_atomic(c->states[s].kind)) atomic++;
    }
    uint64_t pairs = (uint64_t)atomic * (c->event_count ? c->event_count : 1);
    uint32_t sets = 1;
    while (sets < SC_PLAN_MAX_SETS && pairs > (uint64_t)sets * SC_PLAN_WAYS) sets *= 2;
    return sets;
}

size_t sc_plan_layout(const sc_chart *c, uint32_t words, sc_machine *m) {
    sc_plan_cache *cache = m ? sc_plan_cache_of(m) : NULL;
    const uint32_t sets = sets_for(c);
    const size_t plans = (size_t)sets * SC_PLAN_WAYS;
    const uint32_t key_words = words > 1 && words <= SC_PLAN_MAX_KEY_WORDS ? words : 0;
    const bool steps = chart_calls_back(c) || words > SC_PLAN_MAX_KEY_WORDS;
    size_t words_at = sizeof(sc_plan_cache) + plans * sizeof(sc_plan) + (steps ? plans * sizeof(sc_plan_step) : 0);
    if (cache) {
        cache->set_mask = (uint8_t)(sets - 1);
        cache->plan_count = (uint8_t)plans;
        cache->key_words = (uint8_t)key_words;
        cache->steps = steps;
        cache->words_offset = (uint16_t)words_at;
    }
    return words_at + plans * 2u * key_words * sizeof(uint64_t);
}

static sc_plan_step *step_of(sc_plan_cache *cache, const sc_plan *p) {
    return (sc_plan_step *)(void *)(cache->plans + cache->plan_count) + (p - cache->plans);
}

/* The key of a configuration of several words, never 0 but for "no key": a digest when the
 * words fit a key, else the only active atomic state. */
uint64_t sc_plan_key_of_words(sc_machine *m) {
    const uint64_t *config = sc_block_configuration(m);
    const sc_chart *c = m->chart;
    if (sc_plan_cache_of(m)->key_words) {
        uint64_t h = 0;
        for (uint32_t i = 0; i < m->words; i++) h = (h ^ config[i]) * UINT64_C(0xFF51AFD7ED558CCD) + i;
        return (h ^ (h >> 29)) | 1u;
    }
    sc_id leaf = SC_NONE;
    for (sc_id s = sc_bit_next(config, 0, c->state_count); s < c->state_count; s = sc_bit_next(config, s + 1, c->state_count)) {
        if (!sc_is_atomic(c->states[s].kind)) continue;
        if (leaf != SC_NONE) return 0;
        leaf = s;
    }
    return leaf == SC_NONE ? 0 : leaf;
}

/* Word loops rather than memcmp: keys with words are 2 to SC_PLAN_MAX_KEY_WORDS words (n is 0
 * for one-word keys, which the key itself decides). */
sc_plan *sc_plan_find(sc_machine *m, sc_plan_cache *cache, sc_plan *set, sc_id event) {
    uint32_t n = cache->key_words;
    const uint64_t *words = sc_plan_words(cache, set);
    for (uint32_t w = 0, i; w < SC_PLAN_WAYS; w++, words += 2u * n) {
        if (set[w].key != cache->key || set[w].event != event) continue;
        for (i = 0; i < n && words[i] == sc_block_configuration(m)[i]; i++) {}
        if (i < n) continue;
        if (n) SC_PLAN_COUNT(multiword_replays);
        return set + w;
    }
    return NULL;
}

/* The kind of plan a record makes (sc_plan.h): COMPUTE when the key did not determine it or it
 * does not fit, MASKS when it made no callback and the key has words. */
static uint8_t kind_of(sc_machine *m, const sc_record *r) {
    const sc_chart *c = m->chart;
    sc_plan_cache *cache = sc_plan_cache_of(m);
    /* A guarded plan keeps its guards in its step. */
    if (r->guard_count > (cache->steps ? SC_PLAN_STEP_GUARDS : 0)) return SC_PLAN_COMPUTE;
    if (r->taken_count == 0) return SC_PLAN_UNHANDLED;
    if (r->exit_count > SC_RECORD_MAX || r->taken_count > SC_RECORD_MAX || r->entry_count > SC_RECORD_MAX) return SC_PLAN_COMPUTE;
    bool quiet = !m->host->entered && !m->host->exited && !m->host->taken;
    for (uint32_t i = 0; i < r->taken_count; i++) {
        const sc_transition *t = &c->transitions[r->taken[i]];
        if (t->flags & SC_TRANSITION_DYNAMIC_DOMAIN) return SC_PLAN_COMPUTE;
        if (t->action != SC_NONE) quiet = false;
    }
    for (uint32_t i = 0; i < r->exit_count + r->entry_count; i++) {    /* exits, then entries */
        const uint32_t e = i - r->exit_count;   /* the entry's index, when i >= exit_count */
        const sc_state *st = &c->states[i < r->exit_count ? r->exits[i] : r->entries[e]];
        if (st->flags & SC_STATE_HAS_HISTORY) return SC_PLAN_COMPUTE;
        if ((i < r->exit_count ? st->on_exit : st->on_entry) != SC_NONE || (st->flags & SC_STATE_HAS_INVOKE)) quiet = false;
        if (i >= r->exit_count && (st->kind == SC_FINAL || (((r->entry_defaults >> e) & 1u) && c->transitions[st->initial].action != SC_NONE))) quiet = false;
    }
    if (quiet && (m->words == 1 || cache->key_words) && sc_eventless_count(m) <= UINT8_MAX) return SC_PLAN_MASKS;
    bool fits = r->exit_count + r->entry_count <= SC_PLAN_STEP_STATES && r->taken_count <= SC_PLAN_STEP_TAKEN;
    return cache->steps && fits ? SC_PLAN_STEPS : SC_PLAN_COMPUTE;
}

/* The way (key, event) is kept in: its own, or a free or the oldest way of its set. */
static sc_plan *slot_for(sc_plan_cache *cache, uint64_t key, sc_id event) {
    sc_plan *set = sc_plan_set_at(cache, sc_plan_set_of(cache, key));
    uint32_t way = 0;
    while (way < SC_PLAN_WAYS && set[way].key != 0 && !(set[way].key == key && set[way].event == event)) way++;
    if (way == SC_PLAN_WAYS) way = cache->clock++ % SC_PLAN_WAYS;
    return set + way;
}

/* Keeps the plan of the microstep recorded in r, taken for `event` from the configuration of key
 * `key` (words `before`, keys with words). A microstep that needs the algorithm is kept too
 * (SC_PLAN_COMPUTE), so it is judged once, not on every event. */
static void keep(sc_machine *m, uint64_t key, sc_id event, const sc_record *r, const uint64_t *before) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    sc_plan plan = { .key = key, .event = event, .kind = kind_of(m, r), .flags = r->guard_count ? SC_PLAN_GUARDED : 0 };
    if (plan.kind == SC_PLAN_MASKS) {
        plan.next_key = m->words == 1 ? sc_block_configuration(m)[0] : sc_plan_key_of_words(m);
        plan.next_set = sc_plan_set_of(cache, plan.next_key);
        plan.eventless_after = (uint8_t)sc_eventless_count(m);
    }
    if (!plan.flags && sc_eventless_count(m) == 0)
        plan.flags = plan.kind == SC_PLAN_MASKS ? SC_PLAN_ENDS_MASKS : plan.kind == SC_PLAN_UNHANDLED ? SC_PLAN_ENDS_UNHANDLED : 0;
    sc_plan *slot = slot_for(cache, key, event);
    *slot = plan;
    if (cache->steps && plan.kind != SC_PLAN_COMPUTE) {
        bool steps = plan.kind == SC_PLAN_STEPS;     /* else only the guards are needed */
        sc_plan_step *step = step_of(cache, slot);
        *step = (sc_plan_step){ .exit_count = (uint8_t)(steps ? r->exit_count : 0), .entry_count = (uint8_t)(steps ? r->entry_count : 0),
                                .taken_count = (uint8_t)(steps ? r->taken_count : 0), .guard_count = (uint8_t)r->guard_count,
                                .entry_defaults = (uint16_t)r->entry_defaults, .guard_outcomes = (uint8_t)r->guard_outcomes };
        memcpy(step->states, r->exits, step->exit_count * sizeof(sc_id));
        memcpy(step->states + step->exit_count, r->entries, step->entry_count * sizeof(sc_id));
        memcpy(step->taken, r->taken, step->taken_count * sizeof(sc_id));
        memcpy(step->guards, r->guards, step->guard_count * sizeof(sc_id));
    }
    if (cache->key_words) {
        memcpy(sc_plan_words(cache, slot), before, cache->key_words * sizeof(uint64_t));
        memcpy(sc_plan_words(cache, slot) + cache->key_words, sc_block_configuration(m), cache->key_words * sizeof(uint64_t));
    }
}

/* Runs the microstep for `event` from the configuration of key `key` with a record, and keeps its
 * plan. The first `answered` guard consultations are answered by `outcomes` (a bit each): a
 * GUARDED plan's replay asked them already. Returns whether a transition was taken. */
static bool record_microstep(sc_machine *m, uint64_t key, const sc_event *event, uint32_t answered, uint64_t outcomes) {
    uint64_t before[SC_PLAN_MAX_KEY_WORDS];
    memcpy(before, sc_block_configuration(m), sc_plan_cache_of(m)->key_words * sizeof(uint64_t));
    sc_record record;   /* the counts, not the arrays, are zeroed: misses stay cheap */
    record.guard_count = record.exit_count = record.taken_count = record.entry_count = record.entry_defaults = 0;
    record.answered = answered;
    record.guard_outcomes = outcomes;
    m->record = &record;
    bool taken = sc_step_select(m, event);
    if (taken) sc_step_microstep(m, event);
    m->record = NULL;
    keep(m, key, event->id, &record, before);
    return taken;
}

/* The recorded exits, transitions and entries, through the algorithm's own functions. */
static void replay_step(sc_machine *m, const sc_plan_step *step, const sc_event *event) {
    for (uint32_t i = 0; i < step->exit_count; i++) sc_step_exit_state(m, step->states[i], event);
    for (uint32_t i = 0; i < step->taken_count; i++) sc_step_take_transition(m, step->taken[i], event);
    for (uint32_t i = 0; i < step->entry_count; i++)
        sc_step_enter_state(m, step->states[step->exit_count + i], (step->entry_defaults >> i) & 1u, event);
}

bool sc_plan_replay(sc_machine *m, sc_plan *found, const sc_event *event) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    /* A copy: a callback (a guard too) may change the observers, which clears the plans. Their
     * steps stay: only keep() writes one, and it runs on this machine's misses alone. */
    const sc_plan plan = *found;
    const sc_plan_step *step = cache->steps ? step_of(cache, found) : NULL;
    SC_PLAN_COUNT(replays[plan.kind]);
    if (plan.kind == SC_PLAN_COMPUTE) return sc_step_external_microstep(m, event);
#if !SC_CONFIG_NO_GUARDS
    if (plan.flags & SC_PLAN_GUARDED) {
        for (uint32_t i = 0; i < step->guard_count; i++) {
            uint64_t outcome = sc_step_condition(m, step->guards[i], event);
            if (outcome == ((step->guard_outcomes >> i) & 1u)) continue;
            SC_PLAN_COUNT(guarded_misses);
            uint64_t asked = (step->guard_outcomes & ((UINT64_C(1) << i) - 1u)) | (outcome << i);
            return record_microstep(m, plan.key, event, i + 1, asked);
        }
        SC_PLAN_COUNT(guarded_replays);
    }
#endif
    if (plan.kind == SC_PLAN_UNHANDLED) return false;
    if (plan.kind == SC_PLAN_MASKS) sc_plan_apply_masks(m, &plan, found);
    else replay_step(m, step, event);
    return true;
}

bool sc_plan_take_event(sc_machine *m, const sc_event *event) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    if (!cache->key) return sc_step_external_microstep(m, event);
    sc_plan *found = sc_plan_find(m, cache, sc_plan_set_at(cache, cache->set), event->id);
    return found ? sc_plan_replay(m, found, event) : record_microstep(m, cache->key, event, 0, 0);
}

#else
typedef int sc_plan_left_out;   /* ISO C wants a translation unit to declare something */
#endif /* SC_CONFIG_NO_PLAN_CACHE */
