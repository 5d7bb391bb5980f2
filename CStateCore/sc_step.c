/*
 * sc_step.c - the SCXML interpretation algorithm (W3C SCXML REC, Appendix D) over the
 * constant tables of sc_core.h. Each function names the step of the algorithm it implements.
 *
 * Invariants the code relies on (all checked by sc_chart_check):
 *  - states are in document order; descendants of s are (s, last_descendant(s)];
 *  - the root (0) is never in the configuration: it is the <scxml> element;
 *  - a transition's domain is SC_NONE exactly when it has no targets, else a compound state
 *    (or the root) whose range holds the source (or is the source) and every target;
 *  - history default transitions target non-history descendants of the history's parent.
 *
 * The enabled list (sc_block_enabled(m)) after removeConflictingTransitions:
 *
 *     [ t(d1) | t(none) | t(d2) | t(d3) ... ]     d = domain, "none" = targetless
 *          (d1, last(d1)]  <  (d2, last(d2)]  <  (d3, last(d3)]    disjoint, increasing ranges
 *
 * Every domain's range holds the atomic state that selected the transition, and atomic states
 * are visited in document order; conflicting (nested) ranges are removed. So the exit set is the
 * active states of a few disjoint ranges, walked from the last range down, and the entry set
 * lies between the first range's start and the last range's end.
 *
 * Nothing here allocates: all scratch space was carved out of the machine's block.
 *
 * While the plan cache records an external microstep (m->record, sc_internal.h), the functions
 * that consult a guard, exit a state, run a transition's content and enter a state note it there;
 * the cache replays such a record through those same functions. Nothing else here knows of it.
 */
#include "sc_internal.h"

/* The external definitions of the word and bit scans (sc_internal.h). */
extern inline uint32_t sc_word_lowest(sc_word x);
extern inline uint32_t sc_word_highest(sc_word x);
extern inline sc_id sc_bit_next(const sc_word *bits, sc_id from, sc_id end);
extern inline sc_id sc_bit_prev(const sc_word *bits, sc_id begin, sc_id below);

void sc_step_release(sc_machine *m, const sc_event *event) {
    if (event && m->host->release) m->host->release(m->host->context, m, event);
}

/* Executable content: the host runs action `a` (SC_NONE: none). Left out with
 * SC_CONFIG_NO_CONTENT, where sc_chart_check refused every action. */
static SC_ALWAYS_INLINE void run_action(sc_machine *m, sc_id a, const sc_event *event) {
    if (!SC_CONFIG_NO_CONTENT && a != SC_NONE) m->host->action(m->host->context, m, a, event);
}

#if SC_HAS_DONE_EVENTS
/* A done event. One the queue cannot take (even after the host's queue_full) is released and
 * ends the macrostep once this microstep is complete, so the configuration stays legal. */
static void raise_core_event(sc_machine *m, sc_event event) {
    if (!sc_queue_raise(m, event)) {
        if (sc_failure(m) == SC_OK) sc_set_failure(m, SC_ERR_QUEUE_FULL);
        sc_step_release(m, &event);
    }
}
#endif

/* The failure a microstep met (SC_OK if none), cleared. */
static sc_status take_failure(sc_machine *m) {
    sc_status failure = sc_failure(m);
    sc_set_failure(m, SC_OK);
    return failure;
}

/* The configuration changes only here, so the counter the macrostep loop reads stays exact. */
static void configuration_add(sc_machine *m, sc_id s) {
    sc_bit_set(sc_block_configuration(m), s);
#if !SC_CONFIG_NO_EVENTLESS
    if (sc_has_eventless(m->chart, s)) m->eventless_states++;
#endif
}

static void configuration_remove(sc_machine *m, sc_id s) {
    sc_bit_clear(sc_block_configuration(m), s);
#if !SC_CONFIG_NO_EVENTLESS
    if (sc_has_eventless(m->chart, s)) m->eventless_states--;
#endif
}

/* Recomputes the counter from the configuration bits (a machine laid out or restored). */
void sc_step_count_configuration(sc_machine *m) {
#if SC_CONFIG_NO_EVENTLESS
    (void)m;                    /* no counter: no eventless transition */
#else
    const sc_chart *c = m->chart;
    m->eventless_states = sc_has_eventless(c, 0) ? 1u : 0u;
    for (sc_id s = sc_bit_next(sc_block_configuration(m), 0, c->state_count); s < c->state_count;
         s = sc_bit_next(sc_block_configuration(m), s + 1, c->state_count))
        if (sc_has_eventless(c, s)) m->eventless_states++;
#endif
}

/* Appends s to a list of the record (sc_record: the count goes on past the list's end). */
static void record_note(sc_id *list, uint32_t *count, sc_id s) {
    if (*count < SC_RECORD_MAX) list[*count] = s;
    (*count)++;
}

/* ---- conditionMatch (nameMatch is sc_name_match, sc_internal.h) ------------------------- */
bool sc_step_condition(sc_machine *m, sc_id t, const sc_event *event) {
#if SC_CONFIG_NO_GUARDS
    (void)m, (void)t, (void)event;
    return true;                /* sc_chart_check refused every guard */
#else
    sc_id guard = m->chart->transitions[t].guard;
    if (guard == SC_NONE) return true;
    if (!m->host->guard) return false;
    return m->host->guard(m->host->context, m, guard, event);
#endif
}

/* conditionMatch within selectTransitions: with a record, the consultation is noted, and the
 * first `answered` consultations take their outcomes from it instead of calling the guard. */
static bool condition_match(sc_machine *m, const sc_transition *t, const sc_event *event, sc_record *record) {
    if (SC_CONFIG_NO_GUARDS || t->guard == SC_NONE) return true;
    sc_id index = (sc_id)(t - m->chart->transitions);
    if (!record) return sc_step_condition(m, index, event);
    uint32_t i = record->guard_count++;
    bool outcome = i < record->answered ? (record->guard_outcomes >> i) & 1u : sc_step_condition(m, index, event);
    if (i < SC_RECORD_MAX) {
        record->guards[i] = index;
        record->guard_outcomes = (record->guard_outcomes & ~(UINT64_C(1) << i)) | ((uint64_t)outcome << i);
    }
    return outcome;
}

/* ---- getEffectiveTargetStates ------------------------------------------------------------
 * A target, or a history state's value: its record, else its default transition's targets
 * (which are never history states). `upcoming`: the record the current microstep's exitStates is
 * about to make, for a history whose parent it exits (so a target set can be checked before
 * anything is exited). Calls visit for each state; returns whether the default was used. */
typedef void (*state_visit)(sc_machine *m, sc_id s, void *arg);

#if !SC_CONFIG_NO_HISTORY
/* Whether active state s is in the exit set of the enabled transitions. */
static bool in_exit_set(const sc_machine *m, sc_id s) {
    if (!sc_bit_test(sc_block_configuration(m), s)) return false;
    for (uint32_t k = 0; k < m->enabled_count; k++) {
        sc_id d = sc_block_enabled(m)[k].domain;
        if (d != SC_NONE && sc_is_descendant(m->chart, s, d)) return true;
    }
    return false;
}
#endif

static bool effective_targets(sc_machine *m, sc_id s, bool upcoming, state_visit visit, void *arg) {
    const sc_chart *c = m->chart;
    const sc_state *st = &c->states[s];
    if (SC_CONFIG_NO_HISTORY || !sc_is_history(st->kind)) {
        visit(m, s, arg);
        return false;
    }
#if !SC_CONFIG_NO_HISTORY
    bool recording_now = upcoming && in_exit_set(m, st->parent);
    if (recording_now || sc_bit_test(sc_block_history_recorded(m), s)) {
        sc_history_cursor cur = recording_now ? sc_history_open_current(m, s) : sc_history_open(m, s);
        for (sc_id r = sc_history_next(&cur); r != SC_NONE; r = sc_history_next(&cur)) visit(m, r, arg);
        return false;
    }
    const sc_transition *d = &c->transitions[st->initial];
    for (uint32_t k = 0; k < d->target_count; k++) visit(m, c->targets[d->targets_offset + k], arg);
    return true;
#else
    (void)upcoming;
    return false;
#endif
}

/* ---- getTransitionDomain for transitions that target history states --------------------
 * The domain is the source (internal transition whose effective targets all lie inside a
 * compound source) or findLCCA(source + effective targets). */
typedef struct domain_fold {
    const sc_chart *chart;
    sc_id source;
    sc_id lcca;             /* current candidate: a compound ancestor containing all so far */
    bool all_inside_source;
} domain_fold;

static sc_id next_compound_ancestor(const sc_chart *c, sc_id s) {
    sc_id a = c->states[s].parent;
    while (a != SC_NONE && a != 0 && c->states[a].kind != SC_COMPOUND) a = c->states[a].parent;
    return a == SC_NONE ? 0 : a;
}

static void domain_fold_add(sc_machine *m, sc_id target, void *arg) {
    domain_fold *f = arg;
    (void)m;
    if (!sc_is_descendant(f->chart, target, f->source)) f->all_inside_source = false;
    while (f->lcca != 0 && !sc_is_descendant(f->chart, target, f->lcca))
        f->lcca = next_compound_ancestor(f->chart, f->lcca);
}

static sc_id dynamic_domain(sc_machine *m, const sc_transition *t) {
    const sc_chart *c = m->chart;
    domain_fold f = { c, t->source, next_compound_ancestor(c, t->source), true };
    for (uint32_t k = 0; k < t->target_count; k++)
        effective_targets(m, c->targets[t->targets_offset + k], false, domain_fold_add, &f);
    if ((t->flags & SC_TRANSITION_INTERNAL) && c->states[t->source].kind == SC_COMPOUND &&
        f.all_inside_source)
        return t->source;
    return f.lcca;
}

/* ---- removeConflictingTransitions ------------------------------------------------------
 * Exit sets are "active states inside the domain's range"; two of them intersect exactly when
 * one domain range contains the other (an active domain always has an active descendant).
 * Targetless transitions have empty exit sets and never conflict.
 *
 * W3C compares each transition with every one kept so far. Kept ranges are disjoint and
 * increasing (see the top of this file) and the new transition's range holds a later atomic
 * state than all of them, so it can only conflict with the last kept range (which then contains
 * it) or with a run of the last kept ranges (which it contains): walking back from the end finds
 * every conflict, and the whole pass is linear in the number of transitions. */
static bool exit_sets_intersect(const sc_chart *c, sc_id d1, sc_id d2) {
    if (d1 == SC_NONE || d2 == SC_NONE) return false;
    return d1 == d2 || sc_is_descendant(c, d1, d2) || sc_is_descendant(c, d2, d1);
}

static void remove_conflicting_transitions(sc_machine *m) {
    const sc_chart *c = m->chart;
    sc_enabled *f = sc_block_enabled(m);
    uint32_t kept = 0;                      /* f[0 .. kept) is filteredTransitions */
    for (uint32_t i = 0; i < m->enabled_count; i++) {
        sc_enabled t1 = f[i];
        if (t1.domain == SC_NONE) {
            f[kept++] = t1;
            continue;
        }
        sc_id src1 = c->transitions[t1.transition].source;
        /* Conflicting kept transitions are f[first .. kept) minus targetless ones. */
        uint32_t first = kept;
        bool preempted = false;
        for (uint32_t j = kept; j-- > 0;) {
            sc_id d2 = f[j].domain;
            if (d2 == SC_NONE) continue;
            if (!exit_sets_intersect(c, t1.domain, d2)) break;
            first = j;
            /* t1 preempts t2 only from a descendant of t2's source (t2 came first in document order). */
            if (!sc_is_descendant(c, src1, c->transitions[f[j].transition].source)) preempted = true;
        }
        if (preempted) continue;
        uint32_t w = first;
        for (uint32_t j = first; j < kept; j++)
            if (f[j].domain == SC_NONE) f[w++] = f[j];     /* targetless ones stay, in order */
        f[w++] = t1;
        kept = w;
    }
    m->enabled_count = kept;
}

/* ---- selectTransitions / selectEventlessTransitions --------------------------------------
 * For each active atomic state in document order, the first enabled transition of the state
 * or its nearest ancestor. `event` NULL selects eventless transitions. The 64-bit masks skip
 * states (and whole ancestor paths) that have no transition for this event. */

/* The first transition of active atomic state a, or of its nearest ancestor that has one, that
 * `event` (NULL: eventless) enables, conditionMatch only when `evaluate_guards` (noted in
 * `record` if not NULL); NULL when there is none. `mask` is sc_event_mask(event). The one
 * selection walk: selectTransitions and sc_step_would_select (sc_machine_can_handle) both use
 * it. Forced inline: select_transitions calls it once per active atomic state. */
static SC_ALWAYS_INLINE const sc_transition *first_enabled(sc_machine *m, sc_id a, const sc_event *event,
                                                           uint64_t mask, bool evaluate_guards, sc_record *record) {
    const sc_chart *c = m->chart;
    if (!sc_is_atomic(c->states[a].kind) || !(c->states[a].path_mask & mask)) return NULL;
    for (sc_id s = a; s != SC_NONE; s = c->states[s].parent) {
        const sc_state *st = &c->states[s];
        if (!(st->own_mask & mask)) continue;
        const sc_transition *t = c->transitions + st->first_transition;
        const sc_transition *end = t + st->transition_count;
        for (; t < end; t++) {
            bool matches = SC_CONFIG_NO_EVENTLESS || event ? (t->event_count && sc_name_match(c, t, event->id))
                                                           : t->event_count == 0;
            if (matches && (!evaluate_guards || condition_match(m, t, event, record))) return t;
        }
    }
    return NULL;
}

static void select_transitions(sc_machine *m, const sc_event *event) {
    const sc_chart *c = m->chart;
    const sc_id n = c->state_count;
    const uint64_t mask = sc_event_mask(c, event);
    sc_record *record = event ? sc_recording(m) : NULL;     /* external selection only */

    m->enabled_count = 0;
    for (sc_id a = sc_bit_next(sc_block_configuration(m), 0, n); a < n;
         a = sc_bit_next(sc_block_configuration(m), a + 1, n)) {
        const sc_transition *t = first_enabled(m, a, event, mask, true, record);
        if (!t) continue;
        sc_id index = (sc_id)(t - c->transitions);
        /* enabledTransitions is an ordered set: an ancestor's transition may have been selected
         * already, from an earlier atomic state below it. */
        bool seen = false;
        if (!SC_CONFIG_NO_PARALLEL && t->source != a) {
            for (uint32_t k = m->enabled_count; k-- > 0 && !seen;)
                seen = sc_block_enabled(m)[k].transition == index;
        }
        /* At most one transition per active atomic state: with a legal configuration the list
         * never fills; the bound keeps any other from writing past it. */
        if (!seen && m->enabled_count < sc_enabled_capacity(m)) {
            sc_id domain = t->domain;
            if (!SC_CONFIG_NO_HISTORY && (t->flags & SC_TRANSITION_DYNAMIC_DOMAIN)) domain = dynamic_domain(m, t);
            sc_block_enabled(m)[m->enabled_count].transition = index;
            sc_block_enabled(m)[m->enabled_count].domain = domain;
            m->enabled_count++;
        }
    }
    /* One active atomic state without parallel states: one transition at most, no conflict. */
    if (!SC_CONFIG_NO_PARALLEL && m->enabled_count > 1) remove_conflicting_transitions(m);
}

bool sc_step_would_select(sc_machine *m, const sc_event *event, bool evaluate_guards) {
    const sc_chart *c = m->chart;
    const sc_id n = c->state_count;
    const uint64_t mask = sc_event_mask(c, event);
    for (sc_id a = sc_bit_next(sc_block_configuration(m), 0, n); a < n; a = sc_bit_next(sc_block_configuration(m), a + 1, n))
        if (first_enabled(m, a, event, mask, evaluate_guards, NULL)) return true;
    return false;
}

/* ---- exitStates ------------------------------------------------------------------------
 * computeExitSet: the active states inside the enabled transitions' domain ranges (disjoint,
 * increasing). First every history of an exited state records (deep: active atomic
 * descendants; shallow: active children), then states exit in reverse document order: onexit,
 * cancel invocations, leave the configuration. */
static void record_histories(sc_machine *m) {
#if !SC_CONFIG_NO_HISTORY
    const sc_chart *c = m->chart;
    for (uint32_t k = 0; k < m->enabled_count; k++) {
        sc_id d = sc_block_enabled(m)[k].domain;
        if (d == SC_NONE) continue;
        sc_id end = c->states[d].last_descendant + 1;
        for (sc_id s = sc_bit_next(sc_block_configuration(m), d + 1, end); s < end;
             s = sc_bit_next(sc_block_configuration(m), s + 1, end)) {
            if (!(c->states[s].flags & SC_STATE_HAS_HISTORY)) continue;
            SC_FOR_EACH_CHILD(c, s, h)
                if (sc_is_history(c->states[h].kind)) sc_history_record(m, h);
        }
    }
#else
    (void)m;
#endif
}

void sc_step_exit_state(sc_machine *m, sc_id s, const sc_event *event) {
    const sc_state *st = &m->chart->states[s];
    /* statesToInvoke.delete(s). cancelInvoke only reaches invocations that were started: a
     * state entered and exited within one macrostep was never invoked (as in exitInterpreter). */
    bool invoked = false;
    if (sc_state_invokes(st)) {
        invoked = !sc_bit_test(sc_block_invoke_pending(m), s);
        if (!invoked) {
            sc_bit_clear(sc_block_invoke_pending(m), s);     /* invokes_pending stays: see sc_internal.h */
        }
    }
    run_action(m, st->on_exit, event);
    if (invoked && m->host->invoke) m->host->invoke(m->host->context, m, s, false);
    configuration_remove(m, s);
    if (m->host->exited) m->host->exited(m->host->context, m, s);
    sc_record *record = sc_recording(m);
    if (record) record_note(record->exits, &record->exit_count, s);
}

static void exit_states(sc_machine *m, const sc_event *event) {
    const sc_chart *c = m->chart;
    if (!SC_CONFIG_NO_HISTORY && sc_history_count(m)) record_histories(m);
    for (uint32_t k = m->enabled_count; k-- > 0;) {
        sc_id d = sc_block_enabled(m)[k].domain;
        if (d == SC_NONE) continue;
        sc_id lo = d + 1;
        for (sc_id s = sc_bit_prev(sc_block_configuration(m), lo, c->states[d].last_descendant + 1); s != SC_NONE;
             s = sc_bit_prev(sc_block_configuration(m), lo, s))
            sc_step_exit_state(m, s, event);
    }
}

/* ---- computeEntrySet ---------------------------------------------------------------------
 * addDescendantStatesToEnter + addAncestorStatesToEnter, without recursion: each target
 * (history dereferenced) is added with its ancestors up to `stop`; then one forward scan in
 * document order completes parallel states (all children) and compound states with no child
 * in the set (default initial transition). Everything the scan adds lies after the state
 * being scanned, so a single pass sees it, and enterStates runs in that same pass. */
static void add_target(sc_machine *m, sc_id s, sc_id stop);

static void add_target_visit(sc_machine *m, sc_id s, void *stop) { add_target(m, s, *(const sc_id *)stop); }

static void add_target(sc_machine *m, sc_id s, sc_id stop) {
    const sc_chart *c = m->chart;
    const sc_state *st = &c->states[s];
    if (!SC_CONFIG_NO_HISTORY && sc_is_history(st->kind)) {
        if (effective_targets(m, s, false, add_target_visit, &stop)) sc_bit_set(sc_block_history_default(m), s);
        return;
    }
    sc_bit_set(sc_block_entry_set(m), s);
    for (sc_id a = st->parent; a != stop && a != SC_NONE && a != 0; a = c->states[a].parent)
        sc_bit_set(sc_block_entry_set(m), a);
}

static bool has_child_in(const sc_chart *c, const sc_word *set, sc_id s) {
    SC_FOR_EACH_CHILD(c, s, child)
        if (sc_bit_test(set, child)) return true;
    return false;
}

/* Completes the entry set below s; returns whether s is entered by default (run <initial>). */
static bool complete_entry_set(sc_machine *m, sc_id s) {
    const sc_chart *c = m->chart;
    const sc_state *st = &c->states[s];
    if (!SC_CONFIG_NO_PARALLEL && st->kind == SC_PARALLEL) {
        SC_FOR_EACH_CHILD(c, s, child)
            if (!sc_is_history(c->states[child].kind)) sc_bit_set(sc_block_entry_set(m), child);
    } else if (st->kind == SC_COMPOUND && !has_child_in(c, sc_block_entry_set(m), s)) {
        const sc_transition *init = &c->transitions[st->initial];
        for (uint32_t j = 0; j < init->target_count; j++)
            add_target(m, c->targets[init->targets_offset + j], s);
        return true;
    }
    return false;
}

/* ---- isInFinalState (done events only) ------------------------------------------------------ */
#if SC_HAS_DONE_EVENTS
static bool is_in_final_state(const sc_machine *m, sc_id s) {
    const sc_chart *c = m->chart;
    uint8_t kind = c->states[s].kind;
    if (kind == SC_COMPOUND) {
        SC_FOR_EACH_CHILD(c, s, child)
            if (c->states[child].kind == SC_FINAL && sc_bit_test(sc_block_configuration(m), child)) return true;
        return false;
    }
    if (!SC_CONFIG_NO_PARALLEL && kind == SC_PARALLEL) {
        SC_FOR_EACH_CHILD(c, s, child)
            if (!sc_is_history(c->states[child].kind) && !is_in_final_state(m, child)) return false;
        return true;
    }
    return false;
}
#endif

/* ---- enterStates -------------------------------------------------------------------------
 * Enter in document order: join the configuration, onentry, <initial> content when entered
 * by default, history default content, then done events for final states. */
static void enter_final_state(sc_machine *m, sc_id s) {
    const sc_chart *c = m->chart;
    sc_id parent = c->states[s].parent;
    if (parent == 0) {                      /* top-level final: running = false */
        m->halted = true;
        return;
    }
#if SC_HAS_DONE_EVENTS
    sc_event done = { c->states[parent].done_event, 0, 0 };
    /* donedata is evaluated only for an event that will carry it: a payload filled for a parent
     * without a done event would never reach host->release. */
    if (done.id != SC_NONE) {
        if ((c->states[s].flags & SC_STATE_HAS_DONEDATA) && m->host->done_data)
            m->host->done_data(m->host->context, m, s, &done);
        raise_core_event(m, done);
    }
    sc_id grandparent = c->states[parent].parent;
    if (!SC_CONFIG_NO_PARALLEL && grandparent != SC_NONE && c->states[grandparent].kind == SC_PARALLEL &&
        is_in_final_state(m, grandparent)) {
        sc_event pdone = { c->states[grandparent].done_event, 0, 0 };
        if (pdone.id != SC_NONE) raise_core_event(m, pdone);
    }
#endif
}

/* defaultHistoryContent lives for one enterStates only. A targeted history state can lie outside
 * the domain range [lo, hi): q1 -> P.h whose default is q2, both in Q, has domain Q, below P.
 * Its bit must not survive the microstep, or P's next entry would run the stale default content.
 * Only SC_TRANSITION_DYNAMIC_DOMAIN transitions target history states. */
static void clear_history_defaults(sc_machine *m, sc_id lo, sc_id hi) {
    const sc_chart *c = m->chart;
    sc_bits_clear_range(sc_block_history_default(m), lo, hi);
    for (uint32_t k = 0; k < m->enabled_count; k++) {
        const sc_transition *t = &c->transitions[sc_block_enabled(m)[k].transition];
        if (!(t->flags & SC_TRANSITION_DYNAMIC_DOMAIN)) continue;
        for (uint32_t j = 0; j < t->target_count; j++)
            sc_bit_clear(sc_block_history_default(m), c->targets[t->targets_offset + j]);
    }
}

void sc_step_enter_state(sc_machine *m, sc_id s, bool by_default, const sc_event *event) {
    const sc_chart *c = m->chart;
    const sc_state *st = &c->states[s];
    configuration_add(m, s);
    if (sc_state_invokes(st)) {
        sc_bit_set(sc_block_invoke_pending(m), s);
        sc_set_invokes_pending(m, true);
    }
    if (m->host->entered) m->host->entered(m->host->context, m, s);
    run_action(m, st->on_entry, event);
    if (by_default) run_action(m, c->transitions[st->initial].action, event);
    if (!SC_CONFIG_NO_HISTORY && (st->flags & SC_STATE_HAS_HISTORY)) {
        SC_FOR_EACH_CHILD(c, s, h) {
            if (!sc_is_history(c->states[h].kind) || !sc_bit_test(sc_block_history_default(m), h)) continue;
            run_action(m, c->transitions[c->states[h].initial].action, event);
        }
    }
    if (!SC_CONFIG_NO_FINAL && st->kind == SC_FINAL) enter_final_state(m, s);
    sc_record *record = sc_recording(m);
    if (record) {
        if (by_default && record->entry_count < SC_RECORD_MAX) record->entry_defaults |= UINT64_C(1) << record->entry_count;
        record_note(record->entries, &record->entry_count, s);
    }
}

static void enter_states(sc_machine *m, const sc_event *event) {
    const sc_chart *c = m->chart;
    sc_id lo = SC_NONE, hi = 0;             /* from the first domain range to the last */
    for (uint32_t k = 0; k < m->enabled_count; k++) {
        sc_id d = sc_block_enabled(m)[k].domain;
        if (d == SC_NONE) continue;
        const sc_transition *t = &c->transitions[sc_block_enabled(m)[k].transition];
        for (uint32_t j = 0; j < t->target_count; j++) add_target(m, c->targets[t->targets_offset + j], d);
        if (lo == SC_NONE) lo = d + 1;
        hi = c->states[d].last_descendant + 1;
    }
    if (lo == SC_NONE) return;
    /* Each state's completion adds only states after it, and entry actions cannot change the
     * entry set, so completing and entering in one pass equals W3C's two. */
    for (sc_id s = sc_bit_next(sc_block_entry_set(m), lo, hi); s < hi; s = sc_bit_next(sc_block_entry_set(m), s + 1, hi)) {
        sc_bit_clear(sc_block_entry_set(m), s);
        sc_step_enter_state(m, s, complete_entry_set(m, s), event);
    }
    if (!SC_CONFIG_NO_HISTORY && sc_history_count(m)) clear_history_defaults(m, lo, hi);
}

/* ---- target sets that history makes illegal ------------------------------------------------
 * sc_chart_check has checked every target set with histories replaced by their defaults; a
 * recorded value next to other targets can still put two children of one compound state in the
 * entry set. Such a transition is checked before anything is exited: each effective target
 * (records as this microstep will make them) is marked in entry_set (scratch, clear here) with
 * its ancestors up to the domain; a compound state, or the domain, that gets a second marked
 * child means an illegal configuration. The transition is then not taken, host->error is told,
 * and the others go on. */
typedef struct target_marks {
    sc_id domain;
    bool legal;
} target_marks;

static void mark_target(sc_machine *m, sc_id s, void *arg) {
    const sc_chart *c = m->chart;
    target_marks *marks = arg;
    for (sc_id x = s; marks->legal && x != marks->domain && x != 0; x = c->states[x].parent) {
        if (sc_bit_test(sc_block_entry_set(m), x)) return;       /* joins a chain marked before */
        sc_bit_set(sc_block_entry_set(m), x);
        sc_id p = c->states[x].parent;
        if (c->states[p].kind == SC_PARALLEL) continue;
        sc_id end = c->states[p].last_descendant + 1;   /* another child of p: marks outside x's subtree */
        if (sc_bit_next(sc_block_entry_set(m), p + 1, x) < x ||
            sc_bit_next(sc_block_entry_set(m), c->states[x].last_descendant + 1, end) < end)
            marks->legal = false;
    }
}

static void drop_illegal_target_sets(sc_machine *m) {
    const sc_chart *c = m->chart;
    bool dropped = false;
    for (uint32_t k = 0; k < m->enabled_count; k++) {
        const sc_transition *t = &c->transitions[sc_block_enabled(m)[k].transition];
        if (!(t->flags & SC_TRANSITION_DYNAMIC_DOMAIN) || t->target_count < 2) continue;
        target_marks marks = { sc_block_enabled(m)[k].domain, true };
        for (uint32_t j = 0; j < t->target_count; j++)
            effective_targets(m, c->targets[t->targets_offset + j], true, mark_target, &marks);
        sc_bits_clear_range(sc_block_entry_set(m), marks.domain + 1, c->states[marks.domain].last_descendant + 1);
        if (!marks.legal) {
            /* Dropped below, once all are judged (sc_chart_check keeps transition ids below
             * SC_ID_TOP_BIT, which marks it meanwhile). */
            sc_block_enabled(m)[k].transition |= SC_ID_TOP_BIT;
            dropped = true;
        }
    }
    if (!dropped) return;
    uint32_t kept = 0;
    for (uint32_t k = 0; k < m->enabled_count; k++) {
        sc_enabled e = sc_block_enabled(m)[k];
        if (!(e.transition & SC_ID_TOP_BIT)) {
            sc_block_enabled(m)[kept++] = e;
        } else if (m->host->error) {
            m->host->error(m->host->context, m, SC_ERR_BAD_TARGETS, (sc_id)(e.transition & ~SC_ID_TOP_BIT));
        }
    }
    m->enabled_count = kept;
}

/* ---- microstep: exitStates, executeTransitionContent, enterStates ---------------------- */
void sc_step_take_transition(sc_machine *m, sc_id t, const sc_event *event) {
    if (m->host->taken) m->host->taken(m->host->context, m, t, event);
    run_action(m, m->chart->transitions[t].action, event);
    sc_record *record = sc_recording(m);
    if (record) record_note(record->taken, &record->taken_count, t);
}

static void microstep(sc_machine *m, const sc_event *event) {
    const sc_chart *c = m->chart;
    for (uint32_t k = 0; !SC_CONFIG_NO_HISTORY && k < m->enabled_count; k++) {
        if (c->transitions[sc_block_enabled(m)[k].transition].flags & SC_TRANSITION_DYNAMIC_DOMAIN) {
            drop_illegal_target_sets(m);
            break;
        }
    }
    exit_states(m, event);
    for (uint32_t k = 0; k < m->enabled_count; k++) sc_step_take_transition(m, sc_block_enabled(m)[k].transition, event);
    enter_states(m, event);
}

/* ---- exitInterpreter ---------------------------------------------------------------------
 * Run onexit and cancel invocations in exit order. The configuration is kept so the state the
 * machine halted in can still be read. */
void sc_step_exit_interpreter(sc_machine *m) {
    const sc_chart *c = m->chart;
    m->halted = true;
    for (sc_id s = sc_bit_prev(sc_block_configuration(m), 0, c->state_count); s != SC_NONE;
         s = sc_bit_prev(sc_block_configuration(m), 0, s)) {
        const sc_state *st = &c->states[s];
        run_action(m, st->on_exit, NULL);
        if (sc_state_invokes(st) && m->host->invoke && !sc_bit_test(sc_block_invoke_pending(m), s))
            m->host->invoke(m->host->context, m, s, false);
    }
    if (sc_has_invoke(m)) sc_bits_clear_range(sc_block_invoke_pending(m), 0, c->state_count);
    sc_set_invokes_pending(m, false);
}

/* ---- mainEventLoop, inner part: complete the macrostep ---------------------------------
 * Eventless transitions first, then one internal event at a time, until neither enables
 * anything; then start the invocations of states entered during the macrostep, and go on if
 * that raised events. Bounded by max_steps so a runaway loop stops between two microsteps. */
static sc_status complete_macrostep(sc_machine *m) {
    const sc_chart *c = m->chart;
#if SC_KEEPS_STEPS_
    uint32_t steps = 0;             /* eventless microsteps taken + internal events consumed */
#endif
    for (;;) {
        while (!sc_macrostep_halted(m)) {
            if (sc_eventless_count(m)) select_transitions(m, NULL);
            else m->enabled_count = 0;
            if (!m->enabled_count && sc_internal_count(m) == 0) break;    /* macrostepDone */
            /* Counted only when there is work, so a macrostep of exactly max_steps steps
             * completes; the next one is refused before it starts (between two microsteps). */
#if SC_KEEPS_STEPS_                 /* else nothing loops: no eventless transition, no internal event */
            if (steps++ >= m->max_steps) return SC_ERR_RUNAWAY;
            if (SC_INTERRUPT_LOAD(m->interrupt)) return SC_ERR_INTERRUPTED;
#endif
            if (m->enabled_count) {
                microstep(m, NULL);
            } else {
#if !SC_CONFIG_NO_CONTENT
                sc_event internal;
                sc_queue_pop(&m->internal, sc_internal_slots(m), &internal);
                if (!sc_internal_count(m)) sc_shared_queue_release(m);     /* empty: the slots go back */
                select_transitions(m, &internal);
                if (m->enabled_count) microstep(m, &internal);
                sc_step_release(m, &internal);
#endif
            }
            if (sc_failure(m) != SC_OK && !m->halted) return take_failure(m);
        }
        if (sc_macrostep_halted(m)) {
            sc_set_failure(m, SC_OK);   /* a halted machine processes no more events: nothing was lost */
            sc_step_exit_interpreter(m);
            return SC_OK;
        }
        for (sc_id s = sc_invokes_pending(m) ? sc_bit_next(sc_block_invoke_pending(m), 0, c->state_count) : c->state_count;
             s < c->state_count; s = sc_bit_next(sc_block_invoke_pending(m), s + 1, c->state_count)) {
            sc_bit_clear(sc_block_invoke_pending(m), s);
            if (m->host->invoke) m->host->invoke(m->host->context, m, s, true);
        }
        sc_set_invokes_pending(m, false);
        if (sc_internal_count(m) == 0) return SC_OK;
    }
}

/* interpret(): enter the root's initial transition, then complete the first macrostep. */
sc_status sc_step_enter_initial(sc_machine *m) {
    const sc_chart *c = m->chart;
    sc_id initial = c->states[0].initial;
    sc_block_enabled(m)[0].transition = initial;
    sc_block_enabled(m)[0].domain = 0;
    m->enabled_count = 1;
    run_action(m, c->transitions[initial].action, NULL);
    enter_states(m, NULL);
    if (sc_failure(m) != SC_OK && !m->halted) return take_failure(m);
    return complete_macrostep(m);
}

/* mainEventLoop, outer part, for one external event: enabledTransitions =
 * selectTransitions(externalEvent); if not empty, microstep(enabledTransitions). */
bool sc_step_select(sc_machine *m, const sc_event *event) {
    select_transitions(m, event);
    return m->enabled_count != 0;
}

void sc_step_microstep(sc_machine *m, const sc_event *event) { microstep(m, event); }

bool sc_step_external_microstep(sc_machine *m, const sc_event *event) {
    if (!sc_step_select(m, event)) return false;
    microstep(m, event);
    return true;
}

/* The rest of an external event's macrostep, when anything is left to do. */
sc_status sc_step_complete(sc_machine *m, bool handled) {
    sc_status status = SC_OK;
    if (sc_failure(m) != SC_OK && !m->halted) status = take_failure(m);
    else if (sc_macrostep_halted(m) || sc_eventless_count(m) || sc_internal_count(m) || sc_invokes_pending(m))
        status = complete_macrostep(m);
    if (status < 0) return status;
    return handled ? SC_OK : SC_UNHANDLED;
}
