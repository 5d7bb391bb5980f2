/*
 * sc_plan.c - the dispatch cache: plans of external microsteps taken from single-path (or
 * one-word) configurations; see sc_plan.h for what a plan is.
 *
 * The algorithm runs unaware of the cache. After an external microstep, record() decides from
 * what is left to see - the chart, the key (the configuration before), the configuration after
 * and the enabled transitions - whether (configuration, event) alone determined the microstep,
 * and which callbacks it made: the same tests the algorithm would have made, done again once
 * per miss rather than noted on every step.
 *
 * A machine keeps SC_PLAN_SETS x SC_PLAN_WAYS plans, set associative by (configuration,
 * event). Plans depend on the chart alone, so they never go stale (not even across
 * sc_machine_restore); a full set only means the next miss overwrites one of its ways. A
 * replay makes the same callbacks with the same arguments in the same order as the microstep
 * it was recorded from.
 */
#include "sc_plan.h"

#if !SC_CONFIG_NO_PLAN_CACHE

_Static_assert(SC_PLAN_MAX_PATH <= 64, "entry_defaults has one bit per entered state");

/* Bits (d, last_descendant(d)] of a one-word configuration. */
static uint64_t range_bits(const sc_chart *c, sc_id d) {
    sc_id last = c->states[d].last_descendant;
    return ((UINT64_C(2) << last) - 1u) & ~((UINT64_C(2) << d) - 1u);
}

/* Whether selecting `event` from atomic state a consulted a guard: selection stops at the first
 * transition on the way up from a whose descriptors match when it has no guard (the same walk
 * as selection's, sc_step_first_enabled, without evaluating guards). */
static bool consults_guard(sc_machine *m, sc_id a, const sc_event *event, uint64_t mask) {
    const sc_transition *t = sc_step_first_enabled(m, a, event, mask, false);
    return t && t->guard != SC_NONE;
}

/* A state whose exit the key does not determine: it records history. */
static bool exit_fits(const sc_state *st) { return !(st->flags & SC_STATE_HAS_HISTORY); }

/* A state whose entry the key does not determine: history default content, or a final state
 * (done events, halting). */
static bool entry_fits(const sc_state *st) {
    return !(st->flags & SC_STATE_HAS_HISTORY) && st->kind != SC_FINAL;
}

/* One-word charts: the microstep as exit/entry masks, when it fits and made no callback. */
static bool masks_plan(sc_machine *m, uint64_t key, sc_plan *plan) {
    const sc_chart *c = m->chart;
    uint64_t exit = 0, forced = 0;      /* forced: states the entry set holds before completion */
    bool quiet = !m->host.entered && !m->host.exited && !m->host.taken;
    for (uint32_t k = 0; k < m->enabled_count; k++) {
        const sc_transition *t = &c->transitions[m->enabled[k].transition];
        if (t->action != SC_NONE) quiet = false;
        if (m->enabled[k].domain == SC_NONE) continue;
        exit |= range_bits(c, m->enabled[k].domain);
        for (uint32_t j = 0; j < t->target_count; j++) forced |= UINT64_C(1) << c->targets[t->targets_offset + j];
    }
    for (uint64_t bits = key & exit; bits; bits &= bits - 1) {
        const sc_state *st = &c->states[sc_ctz64(bits)];
        if (!exit_fits(st)) return false;
        if (st->on_exit != SC_NONE || (st->flags & SC_STATE_HAS_INVOKE)) quiet = false;
    }
    uint64_t entry = m->configuration[0] & exit;
    /* In document order, as computeEntrySet completes it: a compound state with no forced
     * descendant is entered by default, and its initial transition's targets become forced. */
    for (uint64_t bits = entry; bits; bits &= bits - 1) {
        sc_id s = sc_ctz64(bits);
        const sc_state *st = &c->states[s];
        if (!entry_fits(st)) return false;
        if (st->on_entry != SC_NONE || (st->flags & SC_STATE_HAS_INVOKE)) quiet = false;
        if (st->kind == SC_COMPOUND && !(forced & range_bits(c, s))) {
            const sc_transition *init = &c->transitions[st->initial];
            if (init->action != SC_NONE) quiet = false;
            for (uint32_t j = 0; j < init->target_count; j++)
                forced |= UINT64_C(1) << c->targets[init->targets_offset + j];
        }
    }
    if (!quiet) return false;
    plan->mode = SC_PLAN_MASKS;
    plan->u.masks.exit = exit;
    plan->u.masks.entry = entry;
    plan->next_hash = sc_plan_hash(m->configuration[0]);
    plan->u.masks.eventless_states = m->eventless_states;
    plan->u.masks.atomic_active = m->atomic_active;
    return true;
}

/* One transition from the single atomic state `leaf` to a single atomic state: the paths. */
static bool walk_plan(sc_machine *m, sc_id leaf, sc_plan *plan) {
    const sc_chart *c = m->chart;
    sc_id index = m->enabled[0].transition, d = m->enabled[0].domain;
    plan->u.walk.leaf = leaf;
    plan->u.walk.transition = index;
    plan->u.walk.domain = d;
    if (d == SC_NONE) {                 /* targetless: nothing exited or entered */
        plan->mode = SC_PLAN_WALK;
        return true;
    }
    for (sc_id s = leaf; s != d; s = c->states[s].parent)
        if (!exit_fits(&c->states[s])) return false;
    sc_id path[SC_PLAN_MAX_PATH];
    uint32_t n = 0;
    for (sc_id s = m->last_atomic; s != d; s = c->states[s].parent) {
        if (n == SC_PLAN_MAX_PATH || !entry_fits(&c->states[s])) return false;
        path[n++] = s;
    }
    /* Entered by default, as in masks_plan; on a path, "a forced state below s" is "the
     * deepest forced state comes after s in document order". */
    const sc_transition *t = &c->transitions[index];
    sc_id deepest = 0;
    for (uint32_t j = 0; j < t->target_count; j++)
        if (c->targets[t->targets_offset + j] > deepest) deepest = c->targets[t->targets_offset + j];
    uint64_t defaults = 0;
    for (uint32_t i = 0; i < n; i++) {
        sc_id s = path[n - 1 - i];
        const sc_state *st = &c->states[s];
        if (st->kind != SC_COMPOUND || deepest > s) continue;
        defaults |= UINT64_C(1) << i;
        const sc_transition *init = &c->transitions[st->initial];
        for (uint32_t j = 0; j < init->target_count; j++)
            if (c->targets[init->targets_offset + j] > deepest) deepest = c->targets[init->targets_offset + j];
    }
    plan->mode = SC_PLAN_WALK;
    plan->u.walk.entry_count = n;
    plan->u.walk.entry_defaults = defaults;
    return true;
}

/* How the microstep just taken for `event` from the configuration `key` is to be replayed:
 * fills `plan`'s mode and the fields of that mode. */
static void examine(sc_machine *m, uint64_t key, sc_id event, sc_plan *plan) {
    const sc_chart *c = m->chart;
    const sc_event ev = { event, 0, 0 };
    const uint64_t mask = sc_event_mask(c, &ev);
    sc_id leaf = SC_NONE;
    uint32_t atomic_before = 0;
    if (m->words == 1) {
        for (uint64_t bits = key; bits; bits &= bits - 1) {
            sc_id a = sc_ctz64(bits);
            if (!sc_is_atomic(c->states[a].kind)) continue;
            if (consults_guard(m, a, &ev, mask)) return;
            atomic_before++;
            leaf = a;
        }
    } else {
        leaf = (sc_id)key;
        atomic_before = 1;
        if (consults_guard(m, leaf, &ev, mask)) return;
    }
    for (uint32_t k = 0; k < m->enabled_count; k++)
        if (c->transitions[m->enabled[k].transition].flags & SC_TRANSITION_DYNAMIC_DOMAIN) return;
    if (m->enabled_count == 0) {
        plan->mode = SC_PLAN_UNHANDLED;
    } else if (m->words == 1 && masks_plan(m, key, plan)) {
        /* filled */
    } else if (m->enabled_count == 1 && atomic_before == 1 && m->atomic_active == 1) {
        walk_plan(m, leaf, plan);
    }
    /* else: callbacks in several regions, not replayable state by state */
}

/* Keeps what examine() found for (key, event). A plan found to need the algorithm is kept too
 * (SC_PLAN_COMPUTE), so a guarded microstep is examined once, not on every event. */
static void record(sc_machine *m, uint64_t key, sc_id event) {
    sc_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.key = key;
    plan.event = event;
    plan.next_leaf = m->last_atomic;
    plan.mode = SC_PLAN_COMPUTE;
    examine(m, key, event, &plan);
    sc_plan_cache *cache = sc_plan_cache_of(m);
    sc_plan *set = sc_plan_set(cache, sc_plan_hash(key), event);
    uint32_t way = 0;
    while (way < SC_PLAN_WAYS && set[way].key != 0) way++;
    if (way == SC_PLAN_WAYS) way = cache->clock++ % SC_PLAN_WAYS;
    set[way] = plan;
}

/* Replays an UNHANDLED, MASKS or WALK plan. */
static void replay(sc_machine *m, const sc_plan *p, const sc_event *event) {
    const sc_chart *c = m->chart;
    if (p->mode == SC_PLAN_UNHANDLED) return;
    if (p->mode == SC_PLAN_MASKS) {
        sc_plan_apply_masks(m, p);
        return;
    }
    sc_id t = p->u.walk.transition, d = p->u.walk.domain;
    if (d != SC_NONE) {
        for (sc_id s = p->u.walk.leaf; s != d; s = c->states[s].parent) sc_step_exit_state(m, s, event);
    }
    if (m->host.taken) m->host.taken(m->host.context, m, t, event);
    sc_id action = c->transitions[t].action;
    if (action != SC_NONE) m->host.action(m->host.context, m, action, event);
    if (d != SC_NONE) {
        sc_id path[SC_PLAN_MAX_PATH];
        uint32_t n = p->u.walk.entry_count;
        for (sc_id s = p->next_leaf; n > 0; s = c->states[s].parent) path[--n] = s;
        for (uint32_t i = 0; i < p->u.walk.entry_count; i++)
            sc_step_enter_state(m, path[i], (p->u.walk.entry_defaults >> i) & 1u, event);
    }
}

sc_status sc_plan_complete(sc_machine *m, bool handled) {
    sc_status status = sc_step_complete(m, handled);
    sc_plan_track(m);
    return status;
}

bool sc_plan_take_event(sc_machine *m, const sc_event *event) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    uint64_t key = cache->key;
    const sc_plan *cached = key ? sc_plan_find(cache, event->id) : NULL;
    if (cached && cached->mode == SC_PLAN_COMPUTE) return sc_step_external_microstep(m, event);
    if (cached) {
        /* A copy: a callback may change the observers (sc_machine_set_host), which clears the cache. */
        const sc_plan plan = *cached;
        replay(m, &plan, event);
        return plan.mode != SC_PLAN_UNHANDLED;
    }
    bool handled = sc_step_external_microstep(m, event);
    if (key) record(m, key, event->id);
    return handled;
}

#else
typedef int sc_plan_left_out;   /* ISO C wants a translation unit to declare something */
#endif /* SC_CONFIG_NO_PLAN_CACHE */
