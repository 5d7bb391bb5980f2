/*
 * sc_plan.c - the dispatch cache: plans of external microsteps, keyed by the configuration (its
 * words, or its single active leaf), the event and, for guarded selections, the guards' outcomes;
 * see sc_plan.h for what a plan is.
 *
 * The algorithm runs unaware of the cache. After an external microstep, record() decides from
 * what is left to see - the chart, the key (the configuration before), the configuration after
 * and the enabled transitions - whether (configuration, event) alone determined the microstep,
 * and which callbacks it made: the same tests the algorithm would have made, done again once
 * per miss rather than noted on every step.
 *
 * A machine keeps up to SC_PLAN_MAX_SETS x SC_PLAN_WAYS plans, set associative by configuration
 * (the event picks the way). Plans depend on the chart alone, so they never go stale (not even across
 * sc_machine_restore); a full set only means the next miss overwrites one of its ways. A
 * replay makes the same callbacks with the same arguments in the same order as the microstep
 * it was recorded from.
 */
#include "sc_plan.h"

#if !SC_CONFIG_NO_PLAN_CACHE

_Static_assert(SC_PLAN_MAX_PATH <= 16, "entry_defaults has one bit per entered state");
_Static_assert(SC_PLAN_MAX_PATH <= SC_PLAN_WALK_ENTRIES, "a WALK step's entries fit the low bits of info");
_Static_assert(sizeof(sc_plan) == 24, "a plan is 24 bytes: a small chart's machine holds four");
_Static_assert(SC_PLAN_COMPUTE <= SC_PLAN_KIND && (SC_PLAN_FAST & SC_PLAN_KIND) == 0, "a mode is a kind and the fast bit");
_Static_assert(SC_PLAN_MAX_CANDIDATES <= 8, "group_end has one bit per candidate");
_Static_assert(sizeof(sc_plan_cache) == 16, "the cache header is 16 bytes (8-aligned plans follow)");
_Static_assert(sizeof(sc_plan) % sizeof(uint64_t) == 0, "what follows the plans is 8-aligned");
_Static_assert(SC_PLAN_MAX_SETS * SC_PLAN_WAYS <= UINT8_MAX && SC_PLAN_MAX_KEY_WORDS <= UINT8_MAX, "plan_count, key_words fit a byte");
_Static_assert(sizeof(sc_plan_cache) + SC_PLAN_MAX_SETS * SC_PLAN_WAYS *
               (sizeof(sc_plan) + sizeof(sc_plan_candidates) + 2u * SC_PLAN_MAX_KEY_WORDS * sizeof(uint64_t)) <= UINT16_MAX,
               "the cache's offsets fit 16 bits");

#if SC_PLAN_STATS
sc_plan_stats sc_plan_counters;
#endif

/* Whether any transition of the chart has a guard (its plans then carry candidates). */
static bool chart_has_guards(const sc_chart *c) {
    for (sc_id t = 0; t < c->transition_count; t++)
        if (c->transitions[t].guard != SC_NONE) return true;
    return false;
}

static size_t round_up8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static uint32_t key_words_for(uint32_t words) {
    return words > 1 && words <= SC_PLAN_MAX_KEY_WORDS ? words : 0;
}

/* Sets of plans for a chart: enough for its (configuration, event) pairs, at most
 * SC_PLAN_MAX_SETS. Configurations are bounded by the atomic states when the chart has no parallel
 * state (one active leaf); otherwise they are not counted. A 2-state, 2-event chart has 4 pairs:
 * one set of 4 ways holds them all. */
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

/* The cache's layout for a chart (see sc_plan_cache); returns its bytes. */
static size_t layout(const sc_chart *c, uint32_t words, sc_plan_cache *cache) {
    const uint32_t sets = sets_for(c);
    const size_t plans = (size_t)sets * SC_PLAN_WAYS;
    uint32_t key_words = key_words_for(words);
    size_t candidates = sizeof(sc_plan_cache) + plans * sizeof(sc_plan);
    size_t words_at = candidates + (chart_has_guards(c) ? round_up8(plans * sizeof(sc_plan_candidates)) : 0);
    size_t before = words_at + plans * 2u * key_words * sizeof(uint64_t);
    if (cache) {
        cache->set_mask = (uint8_t)(sets - 1);
        cache->plan_count = (uint8_t)plans;
        cache->key_words = (uint8_t)key_words;
        cache->words_offset = (uint16_t)words_at;
    }
    return before + key_words * sizeof(uint64_t);
}

size_t sc_plan_cache_bytes(const sc_chart *c, uint32_t words) { return layout(c, words, NULL); }

void sc_plan_init(sc_machine *m) { layout(m->chart, m->words, sc_plan_cache_of(m)); }

/* Word loops rather than memcmp/memcpy: keys are 2 to SC_PLAN_MAX_KEY_WORDS words. */
sc_plan *sc_plan_find_words(sc_machine *m, sc_plan_cache *cache, sc_plan *set, sc_id event) {
    uint32_t n = cache->key_words;
    const uint64_t *words = sc_plan_words(cache, set);
    for (uint32_t w = 0; w < SC_PLAN_WAYS; w++, words += 2u * n) {
        sc_plan *p = set + w;
        if (p->key != cache->key || p->event != event) continue;
        uint32_t i = 0;
        while (i < n && words[i] == sc_block_configuration(m)[i]) i++;
        if (i < n) continue;
        SC_PLAN_COUNT(multiword_replays);
        return p;
    }
    return NULL;
}

void sc_plan_apply_words(sc_machine *m, const sc_plan *p) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    const uint64_t *next = sc_plan_words(cache, p) + cache->key_words;
    for (uint32_t i = 0; i < cache->key_words; i++) sc_block_configuration(m)[i] = next[i];
}

/* Sets bits [begin, end) of a bit array. */
static void bits_set_range(uint64_t *bits, sc_id begin, sc_id end) {
    for (sc_id s = begin; s < end; s++) sc_bit_set(bits, s);
}

/* Whether selecting `event` from atomic state a consults a guard: selection stops at the first
 * transition on the way up from a whose descriptors match when it has no guard. */
static bool consults_guard(const sc_chart *c, sc_id a, sc_id event, uint64_t mask) {
    if (!(c->states[a].path_mask & mask)) return false;
    for (sc_id s = a; s != SC_NONE; s = c->states[s].parent) {
        const sc_state *st = &c->states[s];
        if (!(st->own_mask & mask)) continue;
        const sc_transition *t = c->transitions + st->first_transition;
        for (const sc_transition *end = t + st->transition_count; t < end; t++)
            if (t->event_count && sc_name_match(c, t, event)) return t->guard != SC_NONE;
    }
    return false;
}

/* The configuration before the microstep: its bits (`words` of them), or, for leaf keys (bits
 * NULL), the single active atomic state `leaf`. */
typedef struct before_config {
    const uint64_t *bits;
    sc_id leaf;
} before_config;

/* The active atomic states of `before`, in document order: the first at or after `from`. */
static sc_id next_atomic(const sc_chart *c, const before_config *b, sc_id from) {
    if (!b->bits) return from <= b->leaf ? b->leaf : c->state_count;
    sc_id a = sc_bit_next(b->bits, from, c->state_count);
    while (a < c->state_count && !sc_is_atomic(c->states[a].kind)) a = sc_bit_next(b->bits, a + 1, c->state_count);
    return a;
}

/* A state whose exit the key does not determine: it records history. */
static bool exit_fits(const sc_state *st) { return !(st->flags & SC_STATE_HAS_HISTORY); }

/* A state whose entry the key does not determine: history default content, or a final state
 * (done events, halting). */
static bool entry_fits(const sc_state *st) {
    return !(st->flags & SC_STATE_HAS_HISTORY) && st->kind != SC_FINAL;
}

/* Configurations with bits: the microstep as the configuration after it, when it fits and made
 * no callback (fills the step of a MASKS kind). */
static bool masks_step(sc_machine *m, const uint64_t *before, uint32_t words, sc_plan *step) {
    const sc_chart *c = m->chart;
    uint64_t exit[SC_PLAN_MAX_KEY_WORDS] = { 0 };
    uint64_t forced[SC_PLAN_MAX_KEY_WORDS] = { 0 };     /* the entry set before completion */
    bool quiet = !m->host->entered && !m->host->exited && !m->host->taken;
    for (uint32_t k = 0; k < m->enabled_count; k++) {
        const sc_transition *t = &c->transitions[sc_block_enabled(m)[k].transition];
        if (t->action != SC_NONE) quiet = false;
        sc_id d = sc_block_enabled(m)[k].domain;
        if (d == SC_NONE) continue;
        bits_set_range(exit, d + 1, c->states[d].last_descendant + 1);
        for (uint32_t j = 0; j < t->target_count; j++) sc_bit_set(forced, c->targets[t->targets_offset + j]);
    }
    for (uint32_t w = 0; w < words; w++) {
        for (uint64_t bits = before[w] & exit[w]; bits; bits &= bits - 1) {
            const sc_state *st = &c->states[w * 64u + sc_ctz64(bits)];
            if (!exit_fits(st)) return false;
            if (st->on_exit != SC_NONE || (st->flags & SC_STATE_HAS_INVOKE)) quiet = false;
        }
    }
    /* In document order, as computeEntrySet completes it: a compound state with no forced
     * descendant is entered by default, and its initial transition's targets become forced. */
    for (uint32_t w = 0; w < words; w++) {
        for (uint64_t bits = sc_block_configuration(m)[w] & exit[w]; bits; bits &= bits - 1) {
            sc_id s = w * 64u + sc_ctz64(bits);
            const sc_state *st = &c->states[s];
            if (!entry_fits(st)) return false;
            if (st->on_entry != SC_NONE || (st->flags & SC_STATE_HAS_INVOKE)) quiet = false;
            if (st->kind == SC_COMPOUND && sc_bit_next(forced, s + 1, st->last_descendant + 1) > st->last_descendant) {
                const sc_transition *init = &c->transitions[st->initial];
                if (init->action != SC_NONE) quiet = false;
                for (uint32_t j = 0; j < init->target_count; j++) sc_bit_set(forced, c->targets[init->targets_offset + j]);
            }
        }
    }
    /* The counter fits a byte but in a chart of 256 states whose every state, and the root, has
     * an eventless transition (checked: a plan is optional). */
    if (!quiet || m->eventless_states > UINT8_MAX) return false;
    step->u.next_key = words == 1 ? sc_block_configuration(m)[0] : sc_plan_digest(sc_block_configuration(m), words);
    step->x.next_set = (uint16_t)sc_plan_set_of(sc_plan_cache_of(m), step->u.next_key);
    step->info = (uint8_t)m->eventless_states;
    return true;
}

/* The only active atomic state of `bits` in d's range, or SC_NONE (none, or several). */
static sc_id only_atomic_in(const sc_chart *c, const uint64_t *bits, sc_id d) {
    sc_id end = c->states[d].last_descendant + 1, found = SC_NONE;
    for (sc_id s = sc_bit_next(bits, d + 1, end); s < end; s = sc_bit_next(bits, s + 1, end)) {
        if (!sc_is_atomic(c->states[s].kind)) continue;
        if (found != SC_NONE) return SC_NONE;
        found = s;
    }
    return found;
}

/* One transition whose domain holds one active atomic state before and after: the paths (fills
 * the step of a WALK kind). */
static bool walk_step(sc_machine *m, const before_config *before, sc_plan *step) {
    const sc_chart *c = m->chart;
    sc_id index = sc_block_enabled(m)[0].transition, d = sc_block_enabled(m)[0].domain;
    if (d != c->transitions[index].domain) return false;    /* the replay reads it from the chart */
    step->u.walk.transition = index;
    if (d == SC_NONE) return true;      /* targetless: nothing exited or entered */
    sc_id leaf = before->bits ? only_atomic_in(c, before->bits, d) : before->leaf;
    sc_id next_leaf = only_atomic_in(c, sc_block_configuration(m), d);
    if (leaf == SC_NONE || next_leaf == SC_NONE) return false;
    for (sc_id s = leaf; s != d; s = c->states[s].parent)
        if (!exit_fits(&c->states[s])) return false;
    /* Plain: the replay only flips bits. States with invocations (invoke_pending) or eventless
     * transitions (eventless_states) are exited and entered by sc_step, which counts them. */
    bool plain = true;
    for (sc_id s = leaf; s != d; s = c->states[s].parent)
        if ((c->states[s].flags & SC_STATE_HAS_INVOKE) || sc_has_eventless(c, s)) plain = false;
    sc_id path[SC_PLAN_MAX_PATH];
    uint32_t n = 0;
    for (sc_id s = next_leaf; s != d; s = c->states[s].parent) {
        if (n == SC_PLAN_MAX_PATH || !entry_fits(&c->states[s])) return false;
        if ((c->states[s].flags & SC_STATE_HAS_INVOKE) || sc_has_eventless(c, s)) plain = false;
        path[n++] = s;
    }
    /* Entered by default, as in masks_step; on a path, "a forced state below s" is "the
     * deepest forced state comes after s in document order". */
    const sc_transition *t = &c->transitions[index];
    sc_id deepest = 0;
    for (uint32_t j = 0; j < t->target_count; j++)
        if (c->targets[t->targets_offset + j] > deepest) deepest = c->targets[t->targets_offset + j];
    uint32_t defaults = 0;
    for (uint32_t i = 0; i < n; i++) {
        sc_id s = path[n - 1 - i];
        const sc_state *st = &c->states[s];
        if (st->kind != SC_COMPOUND || deepest > s) continue;
        defaults |= UINT32_C(1) << i;
        const sc_transition *init = &c->transitions[st->initial];
        for (uint32_t j = 0; j < init->target_count; j++)
            if (c->targets[init->targets_offset + j] > deepest) deepest = c->targets[init->targets_offset + j];
    }
    if (before->bits) {
        /* Keys with bits: at most SC_PLAN_MAX_KEY_WORDS x 64 states, so both fit 16 bits. */
        step->u.walk.leaves.bits.leaf = (uint16_t)leaf;
        step->u.walk.leaves.bits.next_leaf = (uint16_t)next_leaf;
    } else {
        assert(leaf == before->leaf);   /* the replay reads it from the key */
        step->u.walk.leaves.next_leaf = next_leaf;
    }
    step->info = (uint8_t)(n | (plain ? SC_PLAN_WALK_PLAIN : 0u) | (before->bits ? 0u : SC_PLAN_WALK_LEAF_IS_KEY));
    step->x.entry_defaults = (uint16_t)defaults;
    return true;
}

/* The transitions selectTransitions tests for `event` from `before`, in its order: for each
 * active atomic state, the matching transitions of it and its ancestors up to the first one
 * without a guard. False when they do not fit in a plan (or need a computed domain). */
static bool find_candidates(const sc_chart *c, const before_config *before, sc_id event, sc_plan_candidates *out) {
    const sc_event ev = { event, 0, 0 };
    const uint64_t mask = sc_event_mask(c, &ev);
    uint32_t n = 0;
    memset(out, 0, sizeof *out);
    for (sc_id a = next_atomic(c, before, 0); a < c->state_count; a = next_atomic(c, before, a + 1)) {
        if (!(c->states[a].path_mask & mask)) continue;
        uint32_t group_start = n;
        for (sc_id s = a; s != SC_NONE; s = c->states[s].parent) {
            const sc_state *st = &c->states[s];
            if (!(st->own_mask & mask)) continue;
            const sc_transition *t = c->transitions + st->first_transition;
            for (const sc_transition *end = t + st->transition_count; t < end; t++) {
                if (!t->event_count || !sc_name_match(c, t, event)) continue;
                if (n == SC_PLAN_MAX_CANDIDATES || (t->flags & SC_TRANSITION_DYNAMIC_DOMAIN)) return false;
                out->transition[n++] = (sc_id)(t - c->transitions);
                if (t->guard == SC_NONE) goto group_done;
            }
        }
    group_done:
        if (n > group_start) out->group_end |= (uint8_t)(1u << (n - 1));
    }
    out->count = (uint8_t)n;
    return true;
}

/* Whether selecting `event` from `before` consults a guard. */
static bool selection_consults_guards(const sc_chart *c, const before_config *before, sc_id event) {
    const sc_event ev = { event, 0, 0 };
    const uint64_t mask = sc_event_mask(c, &ev);
    for (sc_id a = next_atomic(c, before, 0); a < c->state_count; a = next_atomic(c, before, a + 1))
        if (consults_guard(c, a, event, mask)) return true;
    return false;
}

/* Clears a plan's step fields (a COMPUTE or UNHANDLED step has none). */
static void clear_step(sc_plan *step) {
    memset(&step->u, 0, sizeof step->u);
    step->info = 0;
    memset(&step->x, 0, sizeof step->x);
}

/* How the microstep just taken from `before` (with the transitions in sc_block_enabled(m)) is to be
 * replayed: its kind (SC_PLAN_COMPUTE when it cannot be), the step fields of `step` filled. */
static uint8_t examine_step(sc_machine *m, const before_config *before, sc_plan *step) {
    const sc_chart *c = m->chart;
    clear_step(step);
    for (uint32_t k = 0; k < m->enabled_count; k++)
        if (c->transitions[sc_block_enabled(m)[k].transition].flags & SC_TRANSITION_DYNAMIC_DOMAIN) return SC_PLAN_COMPUTE;
    if (m->enabled_count == 0) return SC_PLAN_UNHANDLED;
    if (before->bits && masks_step(m, before->bits, m->words, step)) return SC_PLAN_MASKS;
    clear_step(step);
    if (m->enabled_count == 1 && walk_step(m, before, step)) return SC_PLAN_WALK;
    /* else: callbacks in several regions, not replayable state by state */
    clear_step(step);
    return SC_PLAN_COMPUTE;
}

/* The slot (key, event) is kept in: its own, or a free or the oldest way of its set. */
static sc_plan *slot_for(sc_machine *m, uint64_t key, sc_id event) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    sc_plan *set = sc_plan_set_at(cache, sc_plan_set_of(cache, key));
    uint32_t way = 0;
    while (way < SC_PLAN_WAYS && set[way].key != 0 && !(set[way].key == key && set[way].event == event)) way++;
    if (way == SC_PLAN_WAYS) way = cache->clock++ % SC_PLAN_WAYS;
    return set + way;
}

/* Keeps the plan of the microstep just taken for `event` from `before` (key `key`). A plan found
 * to need the algorithm is kept too (SC_PLAN_COMPUTE), so such a microstep is examined once, not
 * on every event. A guarded selection keeps its candidates; its step is recorded when a replay
 * first chooses (take_guarded). */
static void record(sc_machine *m, const before_config *before, uint64_t key, sc_id event) {
    sc_plan plan;
    sc_plan_candidates candidates;
    memset(&plan, 0, sizeof plan);
    plan.key = key;
    plan.event = event;
    if (!selection_consults_guards(m->chart, before, event)) {
        plan.mode = examine_step(m, before, &plan);
        /* The configuration after the step has no eventless transition (eventless_states is a
         * function of the configuration): the replay is the whole macrostep. */
        if (m->eventless_states == 0 && (plan.mode == SC_PLAN_MASKS || plan.mode == SC_PLAN_UNHANDLED))
            plan.mode |= SC_PLAN_FAST;
    } else if (find_candidates(m->chart, before, event, &candidates)) {
        plan.mode = SC_PLAN_GUARDED;    /* candidates.step_mode 0: no step yet */
    } else {
        plan.mode = SC_PLAN_COMPUTE;
    }
    sc_plan_cache *cache = sc_plan_cache_of(m);
    sc_plan *slot = slot_for(m, key, event);
    *slot = plan;
    if (plan.mode == SC_PLAN_GUARDED) *sc_plan_candidates_of(cache, slot) = candidates;
    if (cache->key_words) {
        memcpy(sc_plan_words(cache, slot), before->bits, cache->key_words * sizeof(uint64_t));
        memcpy(sc_plan_words(cache, slot) + cache->key_words, sc_block_configuration(m), cache->key_words * sizeof(uint64_t));
    }
}

/* Copies the step fields of plan `from` (info, u, x) into plan `to`; its kind is the caller's. */
static void copy_step(sc_plan *to, const sc_plan *from) {
    to->info = from->info;
    to->u = from->u;
    to->x = from->x;
}

/* Replays the WALK step of p: the callbacks of sc_step_exit_state and sc_step_enter_state, in
 * their order; a plain step changes the configuration bits and last_atomic itself (the only
 * counter it changes; the host cannot read it). */
static void replay(sc_machine *m, const sc_plan *p, const sc_event *event) {
    const sc_chart *c = m->chart;
    sc_id t = p->u.walk.transition, d = c->transitions[t].domain;
    bool plain = (p->info & SC_PLAN_WALK_PLAIN) != 0;
    sc_id leaf = p->u.walk.leaves.bits.leaf, next_leaf = p->u.walk.leaves.bits.next_leaf;
    if (p->info & SC_PLAN_WALK_LEAF_IS_KEY) {
        leaf = (sc_id)p->key;
        next_leaf = p->u.walk.leaves.next_leaf;
    }
    if (d != SC_NONE) {
        for (sc_id s = leaf; s != d; s = c->states[s].parent) {
            if (!plain) {
                sc_step_exit_state(m, s, event);
                continue;
            }
            sc_id on_exit = c->states[s].on_exit;
            if (on_exit != SC_NONE) m->host->action(m->host->context, m, on_exit, event);
            sc_bit_clear(sc_block_configuration(m), s);
            if (m->host->exited) m->host->exited(m->host->context, m, s);
        }
    }
    if (m->host->taken) m->host->taken(m->host->context, m, t, event);
    sc_id action = c->transitions[t].action;
    if (action != SC_NONE) m->host->action(m->host->context, m, action, event);
    if (d == SC_NONE) return;
    sc_id path[SC_PLAN_MAX_PATH];
    const uint32_t entries = p->info & SC_PLAN_WALK_ENTRIES;
    uint32_t n = entries;
    if (n == 1) path[0] = next_leaf;
    else for (sc_id s = next_leaf; n > 0; s = c->states[s].parent) path[--n] = s;
    for (uint32_t i = 0; i < entries; i++) {
        bool by_default = (p->x.entry_defaults >> i) & 1u;
        if (!plain) {
            sc_step_enter_state(m, path[i], by_default, event);
            continue;
        }
        const sc_state *st = &c->states[path[i]];
        sc_bit_set(sc_block_configuration(m), path[i]);
        if (m->host->entered) m->host->entered(m->host->context, m, path[i]);
        if (st->on_entry != SC_NONE) m->host->action(m->host->context, m, st->on_entry, event);
        if (by_default) {
            sc_id a = c->transitions[st->initial].action;
            if (a != SC_NONE) m->host->action(m->host->context, m, a, event);
        }
    }
    if (plain) m->last_atomic = next_leaf;
}

/* selectTransitions from a GUARDED plan's candidates: their guards, called as the algorithm calls
 * them (conditionMatch; the first enabled candidate of each atomic state ends its group).
 * Returns the candidates chosen, a bit each. */
static uint32_t choose(sc_machine *m, const sc_plan_candidates *p, const sc_event *event) {
    const sc_chart *c = m->chart;
    uint32_t choice = 0;
    bool group_done = false;
    for (uint32_t i = 0; i < p->count; i++) {
        if (!group_done) {
            sc_id guard = c->transitions[p->transition[i]].guard;
            if (guard == SC_NONE || (m->host->guard && m->host->guard(m->host->context, m, guard, event))) {
                group_done = true;
                choice |= 1u << i;
            }
        }
        if ((p->group_end >> i) & 1u) group_done = false;
    }
    return choice;
}

/* enabledTransitions from the candidates chosen, into sc_block_enabled(m): an ordered set, since an
 * ancestor's transition may be chosen again from a later atomic state. */
static void fill_enabled(sc_machine *m, const sc_plan_candidates *p, uint32_t choice) {
    m->enabled_count = 0;
    for (; choice; choice &= choice - 1) {
        sc_id index = p->transition[sc_ctz64(choice)];
        bool seen = false;
        for (uint32_t k = 0; k < m->enabled_count && !seen; k++) seen = sc_block_enabled(m)[k].transition == index;
        if (!seen && m->enabled_count < m->enabled_capacity) {
            sc_block_enabled(m)[m->enabled_count].transition = index;
            sc_block_enabled(m)[m->enabled_count].domain = m->chart->transitions[index].domain;
            m->enabled_count++;
        }
    }
}

/* The configuration before a microstep, as examine_step() reads it; multi-word machines copy it. */
static before_config save_before(sc_machine *m, sc_plan_cache *cache, const uint64_t *key) {
    before_config b = { NULL, (sc_id)*key };
    if (m->words == 1) {
        b.bits = key;
    } else if (cache->key_words) {
        uint64_t *copy = sc_plan_before(cache);
        memcpy(copy, sc_block_configuration(m), cache->key_words * sizeof(uint64_t));
        b.bits = copy;
    }
    return b;
}

/* A GUARDED plan: its guards, then the step of what they chose when it was recorded for the
 * same choice; else the algorithm from the chosen transitions, whose step is kept in the plan. */
static bool take_guarded(sc_machine *m, sc_plan *cached, uint64_t key, const sc_event *event) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    /* Copies: a callback (a guard too) may clear the cache (sc_machine_set_host). */
    const sc_plan_candidates candidates = *sc_plan_candidates_of(cache, cached);
    const sc_plan step = *cached;
    uint32_t choice = choose(m, &candidates, event);
    if (!choice) {
        m->enabled_count = 0;
        return false;
    }
    if (candidates.step_mode != 0 && candidates.choice == choice && cached->key == key) {
        SC_PLAN_COUNT(guarded_outcomes);
        SC_PLAN_COUNT(replays[candidates.step_mode]);
        if (candidates.step_mode == SC_PLAN_MASKS) {
            sc_plan_apply_masks(m, cached, &step);
            return true;
        }
        if (candidates.step_mode == SC_PLAN_WALK) {
            replay(m, &step, event);
            return true;
        }
        /* COMPUTE (an UNHANDLED step is never recorded here: a choice enables a transition) */
        fill_enabled(m, &candidates, choice);
        return sc_step_take_selected(m, event);
    }
    fill_enabled(m, &candidates, choice);
    before_config before = save_before(m, cache, &key);
    bool handled = sc_step_take_selected(m, event);
    sc_plan recorded;
    uint8_t kind = examine_step(m, &before, &recorded);
    /* Kept in the plan's slot if the plan is still there (a callback may have cleared it). */
    if (cached->key == key && cached->event == event->id && cached->mode == SC_PLAN_GUARDED) {
        copy_step(cached, &recorded);
        sc_plan_candidates_of(cache, cached)->step_mode = kind;
        sc_plan_candidates_of(cache, cached)->choice = choice;
        if (cache->key_words)
            memcpy(sc_plan_words(cache, cached) + cache->key_words, sc_block_configuration(m), cache->key_words * sizeof(uint64_t));
    }
    return handled;
}

bool sc_plan_replay(sc_machine *m, sc_plan *cached, const sc_event *event) {
    const uint8_t kind = cached->mode & SC_PLAN_KIND;
    SC_PLAN_COUNT(replays[kind]);
    switch (kind) {
    case SC_PLAN_UNHANDLED:
        return false;
    case SC_PLAN_MASKS:
        sc_plan_apply_masks(m, cached, cached);
        return true;
    case SC_PLAN_GUARDED:
        return take_guarded(m, cached, cached->key, event);
    case SC_PLAN_WALK: {
        /* A copy: a callback may change the observers (sc_machine_set_host), which clears the cache. */
        const sc_plan step = *cached;
        replay(m, &step, event);
        return true;
    }
    default:
        return sc_step_external_microstep(m, event);    /* COMPUTE */
    }
}

bool sc_plan_take_event(sc_machine *m, const sc_event *event) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    uint64_t key = cache->key;
    if (!key) return sc_step_external_microstep(m, event);
    sc_plan *cached = sc_plan_find(m, cache, event->id);
    if (cached) return sc_plan_replay(m, cached, event);
    before_config before = save_before(m, cache, &key);
    bool handled = sc_step_external_microstep(m, event);
    record(m, &before, key, event->id);
    return handled;
}

#else
typedef int sc_plan_left_out;   /* ISO C wants a translation unit to declare something */
#endif /* SC_CONFIG_NO_PLAN_CACHE */
