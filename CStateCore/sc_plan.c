/*
 * sc_plan.c - the dispatch cache: plans of external microsteps taken from single-path
 * configurations (see sc_internal.h for what a plan is and when one may be recorded).
 *
 * A machine keeps SC_PLAN_SETS x SC_PLAN_WAYS plans in its header, set associative by
 * (configuration, event). Plans depend on the chart alone, so they never go stale (not even
 * across sc_machine_restore); a full set only means the next miss overwrites one of its ways. A replay makes the same
 * callbacks with the same arguments in the same order as the microstep it was recorded from.
 */
#include "sc_internal.h"

_Static_assert(SC_PLAN_MAX_PATH <= 64, "entry_defaults has one bit per entered state");

/* Bits (d, last_descendant(d)] of a one-word configuration. */
static uint64_t range_bits(const sc_chart *c, sc_id d) {
    sc_id last = c->states[d].last_descendant;
    return ((UINT64_C(2) << last) - 1u) & ~((UINT64_C(2) << d) - 1u);
}

void sc_plan_store(sc_machine *m, uint64_t key, sc_id event) {
    const sc_chart *c = m->chart;
    const sc_recording *r = &m->recording;
    sc_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.key = key;
    plan.event = event;
    plan.next_leaf = m->last_atomic;
    if (m->enabled_count == 0) {
        plan.mode = SC_PLAN_UNHANDLED;
    } else if (r->quiet && m->words == 1) {
        plan.mode = SC_PLAN_MASKS;
        for (uint32_t k = 0; k < m->enabled_count; k++)
            if (m->enabled[k].domain != SC_NONE) plan.u.masks.exit |= range_bits(c, m->enabled[k].domain);
        plan.u.masks.entry = m->configuration[0] & plan.u.masks.exit;
        plan.next_hash = sc_plan_hash(m->configuration[0]);
        plan.u.masks.eventless_states = m->eventless_states;
        plan.u.masks.atomic_active = m->atomic_active;
    } else if (m->enabled_count == 1 && r->atomic_before == 1 && m->atomic_active == 1) {
        plan.mode = SC_PLAN_WALK;
        plan.u.walk.leaf = r->leaf_before;
        plan.u.walk.transition = m->enabled[0].transition;
        plan.u.walk.domain = m->enabled[0].domain;
        plan.u.walk.entry_count = r->entry_count;
        plan.u.walk.entry_defaults = r->entry_defaults;
    } else {
        return;             /* callbacks in several regions: not replayable state by state */
    }
    sc_plan *set = sc_plan_set(m, sc_plan_hash(key), event);
    uint32_t way = 0;
    while (way < SC_PLAN_WAYS && set[way].key != 0) way++;
    if (way == SC_PLAN_WAYS) way = m->plan_clock++ % SC_PLAN_WAYS;
    set[way] = plan;
}

void sc_plan_replay(sc_machine *m, const sc_plan *cached, const sc_event *event) {
    const sc_chart *c = m->chart;
    /* A copy: a callback may change the observers (sc_machine_set_host), which clears the cache. */
    const sc_plan plan = *cached;
    if (plan.mode == SC_PLAN_UNHANDLED) return;
    if (plan.mode == SC_PLAN_MASKS) {
        sc_plan_apply_masks(m, &plan);
        return;
    }
    sc_id t = plan.u.walk.transition, d = plan.u.walk.domain;
    if (d != SC_NONE) {
        for (sc_id s = plan.u.walk.leaf; s != d; s = c->states[s].parent) sc_step_exit_state(m, s, event);
    }
    if (m->host.taken) m->host.taken(m->host.context, m, t, event);
    sc_id action = c->transitions[t].action;
    if (action != SC_NONE) m->host.action(m->host.context, m, action, event);
    if (d != SC_NONE) {
        sc_id path[SC_PLAN_MAX_PATH];
        uint32_t n = plan.u.walk.entry_count;
        for (sc_id s = plan.next_leaf; n > 0; s = c->states[s].parent) path[--n] = s;
        for (uint32_t i = 0; i < plan.u.walk.entry_count; i++)
            sc_step_enter_state(m, path[i], (plan.u.walk.entry_defaults >> i) & 1u, event);
    }
}
