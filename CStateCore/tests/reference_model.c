/*
 * reference_model.c - see reference_model.h. Function names and structure follow the
 * pseudo-code of SCXML 1.0 Appendix D line by line; efficiency is of no concern.
 */
#include "reference_model.h"

#include <stdio.h>
#include <string.h>

/* ---- OrderedSet of state or transition ids ----------------------------------------------- */

typedef struct oset {
    sc_id items[CB_MAX_TRANSITIONS > CB_MAX_STATES ? CB_MAX_TRANSITIONS : CB_MAX_STATES];
    uint32_t count;
} oset;

static bool oset_has(const oset *s, sc_id x) {
    for (uint32_t i = 0; i < s->count; i++)
        if (s->items[i] == x) return true;
    return false;
}

static void oset_add(oset *s, sc_id x) {
    if (!oset_has(s, x)) s->items[s->count++] = x;
}

static void oset_delete(oset *s, sc_id x) {
    uint32_t w = 0;
    for (uint32_t i = 0; i < s->count; i++)
        if (s->items[i] != x) s->items[w++] = s->items[i];
    s->count = w;
}

/* ---- tree predicates (parent pointers only) ----------------------------------------------- */

static const sc_state *S(const ref_machine *r, sc_id s) { return &r->b->states[s]; }

static bool is_history(const ref_machine *r, sc_id s) {
    return S(r, s)->kind == SC_HISTORY_SHALLOW || S(r, s)->kind == SC_HISTORY_DEEP;
}
static bool is_compound(const ref_machine *r, sc_id s) { return S(r, s)->kind == SC_COMPOUND; }
static bool is_parallel(const ref_machine *r, sc_id s) { return S(r, s)->kind == SC_PARALLEL; }
static bool is_final(const ref_machine *r, sc_id s) { return S(r, s)->kind == SC_FINAL; }
static bool is_atomic(const ref_machine *r, sc_id s) {
    return S(r, s)->kind == SC_ATOMIC || S(r, s)->kind == SC_FINAL;
}

/* isDescendant(s1, s2): s1 is a child, grandchild, ... of s2. */
static bool is_descendant(const ref_machine *r, sc_id s1, sc_id s2) {
    for (sc_id a = S(r, s1)->parent; a != SC_NONE; a = S(r, a)->parent)
        if (a == s2) return true;
    return false;
}

/* getChildStates: <state>, <parallel>, <final> children in document order. */
static uint32_t child_states(const ref_machine *r, sc_id s, sc_id *out) {
    uint32_t n = 0;
    for (sc_id c = 0; c < r->b->state_count; c++)
        if (c != 0 && S(r, c)->parent == s && !is_history(r, c)) out[n++] = c;
    return n;
}

/* getProperAncestors(s, stop): parent, grandparent, ... up to but excluding stop (SC_NONE: up
 * to and including the root). */
static uint32_t proper_ancestors(const ref_machine *r, sc_id s, sc_id stop, sc_id *out) {
    uint32_t n = 0;
    if (stop != SC_NONE && (stop == s || is_descendant(r, stop, s) || stop == S(r, s)->parent)) return 0;
    for (sc_id a = S(r, s)->parent; a != SC_NONE && a != stop; a = S(r, a)->parent) out[n++] = a;
    return n;
}

/* ---- executable content ------------------------------------------------------------------- */

static void trace_add(ref_machine *r, const char *token) {
    size_t len = strlen(r->trace);
    snprintf(r->trace + len, sizeof r->trace - len, "%s%s", len ? " " : "", token);
}

/* A done event the queue cannot take ends the macrostep once the microstep is complete. */
static void enqueue_done(ref_machine *r, sc_id event);

static sc_status take_failure(ref_machine *r) {
    sc_status failure = r->failure;
    r->failure = SC_OK;
    return failure;
}

static bool enqueue(ref_machine *r, sc_id event) {
    if (r->queue_count == REF_QUEUE) return false;
    r->queue[(r->queue_head + r->queue_count) % REF_QUEUE] = event;
    r->queue_count++;
    return true;
}

static void enqueue_done(ref_machine *r, sc_id event) {
    if (!enqueue(r, event) && r->failure == SC_OK) r->failure = SC_ERR_QUEUE_FULL;
}

static void execute_content(ref_machine *r, sc_id action) {
    if (action == SC_NONE) return;
    trace_add(r, r->b->action_name[action]);
    if (r->raise_on_action && r->raise_on_action[action] != SC_NONE && !enqueue(r, r->raise_on_action[action]))
        r->lost_event = true;
}

/* ---- transitions -------------------------------------------------------------------------- */

static const sc_transition *T(const ref_machine *r, sc_id t) { return &r->b->transitions[t]; }
static sc_id target(const ref_machine *r, sc_id t, uint32_t k) { return r->b->targets[T(r, t)->targets_offset + k]; }

/* nameMatch: a descriptor matches the event when it is "*" or a token prefix of its name. */
static bool name_match(const ref_machine *r, sc_id t, sc_id event) {
    for (uint32_t k = 0; k < T(r, t)->event_count; k++) {
        sc_id d = r->b->descriptors[T(r, t)->events_offset + k];
        if (d == SC_EVENT_ANY) return true;
        if (event >= r->b->event_count) continue;
        for (sc_id e = event; e != SC_NONE; e = r->b->events[e].prefix)
            if (e == d) return true;
    }
    return false;
}

static bool condition_match(const ref_machine *r, sc_id t) {
    return T(r, t)->guard == SC_NONE || r->guards[T(r, t)->guard];
}

static void effective_targets(const ref_machine *r, sc_id t, oset *out) {
    for (uint32_t k = 0; k < T(r, t)->target_count; k++) {
        sc_id s = target(r, t, k);
        if (is_history(r, s)) {
            if (r->history_recorded[s]) {
                for (sc_id v = 0; v < r->b->state_count; v++)
                    if (r->history_value[s][v]) oset_add(out, v);
            } else {
                effective_targets(r, S(r, s)->initial, out);
            }
        } else {
            oset_add(out, s);
        }
    }
}

/* findLCCA(stateList): the nearest compound (or root) proper ancestor of the head that has every
 * other state as a descendant. */
static sc_id find_lcca(const ref_machine *r, sc_id head, const oset *tail) {
    sc_id anc[CB_MAX_STATES];
    uint32_t n = proper_ancestors(r, head, SC_NONE, anc);
    for (uint32_t i = 0; i < n; i++) {
        if (anc[i] != 0 && !is_compound(r, anc[i])) continue;
        bool all = true;
        for (uint32_t k = 0; k < tail->count; k++)
            if (!is_descendant(r, tail->items[k], anc[i])) all = false;
        if (all) return anc[i];
    }
    return 0;
}

static sc_id transition_domain(const ref_machine *r, sc_id t) {
    oset ts = { .count = 0 };
    effective_targets(r, t, &ts);
    if (ts.count == 0) return SC_NONE;
    if (t == S(r, 0)->initial) return 0;    /* the <scxml> element's initial transition */
    sc_id src = T(r, t)->source;
    if ((T(r, t)->flags & SC_TRANSITION_INTERNAL) && is_compound(r, src)) {
        bool all = true;
        for (uint32_t k = 0; k < ts.count; k++)
            if (!is_descendant(r, ts.items[k], src)) all = false;
        if (all) return src;
    }
    return find_lcca(r, src, &ts);
}

/* domains: the microstep's domains (see microstep), or NULL to compute them now. */
static void compute_exit_set(const ref_machine *r, const oset *transitions, const sc_id *domains, bool *out) {
    memset(out, 0, sizeof(bool) * CB_MAX_STATES);
    for (uint32_t i = 0; i < transitions->count; i++) {
        sc_id t = transitions->items[i];
        if (T(r, t)->target_count == 0) continue;
        sc_id domain = domains ? domains[i] : transition_domain(r, t);
        for (sc_id s = 0; s < r->b->state_count; s++)
            if (r->active[s] && is_descendant(r, s, domain)) out[s] = true;
    }
}

static void remove_conflicting_transitions(const ref_machine *r, oset *enabled) {
    oset filtered = { .count = 0 };
    bool exit1[CB_MAX_STATES], exit2[CB_MAX_STATES];
    for (uint32_t i = 0; i < enabled->count; i++) {
        sc_id t1 = enabled->items[i];
        bool preempted = false;
        oset to_remove = { .count = 0 };
        oset one = { .items = { t1 }, .count = 1 };
        compute_exit_set(r, &one, NULL, exit1);
        for (uint32_t j = 0; j < filtered.count; j++) {
            sc_id t2 = filtered.items[j];
            oset two = { .items = { t2 }, .count = 1 };
            compute_exit_set(r, &two, NULL, exit2);
            bool intersect = false;
            for (sc_id s = 0; s < r->b->state_count; s++)
                if (exit1[s] && exit2[s]) intersect = true;
            if (!intersect) continue;
            if (is_descendant(r, T(r, t1)->source, T(r, t2)->source)) {
                oset_add(&to_remove, t2);
            } else {
                preempted = true;
                break;
            }
        }
        if (!preempted) {
            for (uint32_t k = 0; k < to_remove.count; k++) oset_delete(&filtered, to_remove.items[k]);
            oset_add(&filtered, t1);
        }
    }
    *enabled = filtered;
}

/* selectTransitions(event) / selectEventlessTransitions() (eventless: event == SC_NONE). */
static void select_transitions(const ref_machine *r, sc_id event, oset *enabled) {
    enabled->count = 0;
    for (sc_id state = 0; state < r->b->state_count; state++) {
        if (!r->active[state] || !is_atomic(r, state)) continue;
        sc_id chain[CB_MAX_STATES];
        uint32_t n = 0;
        chain[n++] = state;
        n += proper_ancestors(r, state, SC_NONE, chain + 1);
        for (uint32_t i = 0; i < n; i++) {
            const sc_state *s = S(r, chain[i]);
            bool found = false;
            for (uint32_t k = 0; k < s->transition_count && !found; k++) {
                sc_id t = s->first_transition + k;
                bool matches = event == SC_NONE ? T(r, t)->event_count == 0
                                                : T(r, t)->event_count != 0 && name_match(r, t, event);
                if (matches && condition_match(r, t)) {
                    oset_add(enabled, t);
                    found = true;
                }
            }
            if (found) break;
        }
    }
    remove_conflicting_transitions(r, enabled);
}

/* ---- exitStates --------------------------------------------------------------------------- */

static void exit_states(ref_machine *r, const oset *enabled, const sc_id *domains) {
    bool to_exit[CB_MAX_STATES];
    compute_exit_set(r, enabled, domains, to_exit);
    const sc_id n = r->b->state_count;
    for (sc_id s = 0; s < n; s++)
        if (to_exit[s]) r->to_invoke[s] = false;
    for (sc_id s = n; s-- > 0;) {                       /* exitOrder: reverse document order */
        if (!to_exit[s]) continue;
        for (sc_id h = 0; h < n; h++) {
            if (!is_history(r, h) || S(r, h)->parent != s) continue;
            bool deep = S(r, h)->kind == SC_HISTORY_DEEP;
            for (sc_id s0 = 0; s0 < n; s0++)
                r->history_value[h][s0] = r->active[s0] &&
                    (deep ? is_atomic(r, s0) && is_descendant(r, s0, s) : S(r, s0)->parent == s && s0 != 0);
            r->history_recorded[h] = true;
        }
    }
    for (sc_id s = n; s-- > 0;) {
        if (!to_exit[s]) continue;
        execute_content(r, S(r, s)->on_exit);
        if ((S(r, s)->flags & SC_STATE_HAS_INVOKE) && r->invoked[s]) {
            char token[CB_NAME + 8];
            snprintf(token, sizeof token, "cancel:%s", r->b->state_name[s]);
            trace_add(r, token);
            r->invoked[s] = false;
        }
        r->active[s] = false;
    }
}

/* ---- enterStates -------------------------------------------------------------------------- */

typedef struct entry_sets {
    sc_id domain;                           /* of the transition being processed */
    oset to_enter;
    oset default_entry;
    sc_id default_history_content[CB_MAX_STATES];   /* by parent: the history's default transition */
} entry_sets;

static void add_descendant_states_to_enter(const ref_machine *r, sc_id state, entry_sets *e);

static bool some_descendant_in(const ref_machine *r, const oset *set, sc_id child) {
    for (uint32_t i = 0; i < set->count; i++)
        if (is_descendant(r, set->items[i], child)) return true;
    return false;
}

static void add_ancestor_states_to_enter(const ref_machine *r, sc_id state, sc_id ancestor, entry_sets *e) {
    sc_id anc[CB_MAX_STATES];
    uint32_t n = proper_ancestors(r, state, ancestor, anc);
    for (uint32_t i = 0; i < n; i++) {
        /* Departure: never at or above the transition's domain (see reference_model.h). */
        if (!is_descendant(r, anc[i], e->domain)) break;
        oset_add(&e->to_enter, anc[i]);
        if (is_parallel(r, anc[i])) {
            sc_id kids[CB_MAX_STATES];
            uint32_t k = child_states(r, anc[i], kids);
            for (uint32_t j = 0; j < k; j++)
                if (!some_descendant_in(r, &e->to_enter, kids[j])) add_descendant_states_to_enter(r, kids[j], e);
        }
    }
}

static void add_descendant_states_to_enter(const ref_machine *r, sc_id state, entry_sets *e) {
    const sc_id n = r->b->state_count;
    if (is_history(r, state)) {
        sc_id parent = S(r, state)->parent;
        if (r->history_recorded[state]) {
            for (sc_id v = 0; v < n; v++)
                if (r->history_value[state][v]) add_descendant_states_to_enter(r, v, e);
            for (sc_id v = 0; v < n; v++)
                if (r->history_value[state][v]) add_ancestor_states_to_enter(r, v, parent, e);
        } else {
            sc_id t = S(r, state)->initial;
            e->default_history_content[parent] = t;
            for (uint32_t k = 0; k < T(r, t)->target_count; k++) add_descendant_states_to_enter(r, target(r, t, k), e);
            for (uint32_t k = 0; k < T(r, t)->target_count; k++) add_ancestor_states_to_enter(r, target(r, t, k), parent, e);
        }
        return;
    }
    oset_add(&e->to_enter, state);
    if (is_compound(r, state)) {
        oset_add(&e->default_entry, state);
        sc_id t = S(r, state)->initial;
        for (uint32_t k = 0; k < T(r, t)->target_count; k++) add_descendant_states_to_enter(r, target(r, t, k), e);
        for (uint32_t k = 0; k < T(r, t)->target_count; k++) add_ancestor_states_to_enter(r, target(r, t, k), state, e);
    } else if (is_parallel(r, state)) {
        sc_id kids[CB_MAX_STATES];
        uint32_t k = child_states(r, state, kids);
        for (uint32_t j = 0; j < k; j++)
            if (!some_descendant_in(r, &e->to_enter, kids[j])) add_descendant_states_to_enter(r, kids[j], e);
    }
}

static void compute_entry_set(const ref_machine *r, const oset *transitions, const sc_id *domains, entry_sets *e) {
    for (uint32_t i = 0; i < transitions->count; i++) {
        sc_id t = transitions->items[i];
        e->domain = domains[i];
        for (uint32_t k = 0; k < T(r, t)->target_count; k++) add_descendant_states_to_enter(r, target(r, t, k), e);
        sc_id ancestor = domains[i];
        oset ts = { .count = 0 };
        effective_targets(r, t, &ts);
        for (uint32_t k = 0; k < ts.count; k++) add_ancestor_states_to_enter(r, ts.items[k], ancestor, e);
    }
}

static bool is_in_final_state(const ref_machine *r, sc_id s) {
    sc_id kids[CB_MAX_STATES];
    uint32_t n = child_states(r, s, kids);
    if (is_compound(r, s)) {
        for (uint32_t i = 0; i < n; i++)
            if (is_final(r, kids[i]) && r->active[kids[i]]) return true;
        return false;
    }
    if (is_parallel(r, s)) {
        for (uint32_t i = 0; i < n; i++)
            if (!is_in_final_state(r, kids[i])) return false;
        return true;
    }
    return false;
}

static void enter_states(ref_machine *r, const oset *enabled, const sc_id *domains) {
    static entry_sets e;                    /* large; the model is not re-entrant anyway */
    memset(&e, 0, sizeof e);
    for (sc_id s = 0; s < CB_MAX_STATES; s++) e.default_history_content[s] = SC_NONE;
    compute_entry_set(r, enabled, domains, &e);
    for (sc_id s = 0; s < r->b->state_count; s++) {  /* entryOrder: document order */
        if (!oset_has(&e.to_enter, s)) continue;
        if (r->active[s]) trace_add(r, "!model-reenters-an-active-state");
        r->active[s] = true;
        r->to_invoke[s] = true;
        execute_content(r, S(r, s)->on_entry);
        if (oset_has(&e.default_entry, s)) execute_content(r, T(r, S(r, s)->initial)->action);
        if (e.default_history_content[s] != SC_NONE) execute_content(r, T(r, e.default_history_content[s])->action);
        if (is_final(r, s)) {
            sc_id parent = S(r, s)->parent;
            if (parent == 0) {
                r->running = false;
            } else {
                sc_id grandparent = S(r, parent)->parent;
                if (S(r, parent)->done_event != SC_NONE) enqueue_done(r, S(r, parent)->done_event);
                if (grandparent != SC_NONE && is_parallel(r, grandparent) && is_in_final_state(r, grandparent) &&
                    S(r, grandparent)->done_event != SC_NONE)
                    enqueue_done(r, S(r, grandparent)->done_event);
            }
        }
    }
}

/* Departure: getTransitionDomain is evaluated once, before exitStates records history, and used by
 * both computeExitSet and computeEntrySet. Appendix D evaluates it again in computeEntrySet, with
 * the history just recorded; for an internal transition from a compound state to a history state
 * of an ancestor the domain can then shrink to the source, so states exited by exitStates are not
 * re-entered (an illegal configuration). */
static void microstep(ref_machine *r, const oset *enabled) {
    sc_id domains[CB_MAX_TRANSITIONS] = { 0 };
    for (uint32_t i = 0; i < enabled->count; i++) domains[i] = transition_domain(r, enabled->items[i]);
    exit_states(r, enabled, domains);
    for (uint32_t i = 0; i < enabled->count; i++) execute_content(r, T(r, enabled->items[i])->action);
    enter_states(r, enabled, domains);
}

static void exit_interpreter(ref_machine *r) {
    r->halted = true;
    for (sc_id s = r->b->state_count; s-- > 0;) {
        if (!r->active[s]) continue;
        execute_content(r, S(r, s)->on_exit);
        if ((S(r, s)->flags & SC_STATE_HAS_INVOKE) && r->invoked[s]) {
            char token[CB_NAME + 8];
            snprintf(token, sizeof token, "cancel:%s", r->b->state_name[s]);
            trace_add(r, token);
            r->invoked[s] = false;
        }
        /* The core keeps the configuration readable after halting; so does the model. */
    }
}

/* mainEventLoop up to the wait for the next external event. */
static sc_status complete_macrostep(ref_machine *r) {
    uint32_t steps = 0;
    for (;;) {
        while (r->running) {
            oset enabled;
            select_transitions(r, SC_NONE, &enabled);
            if (enabled.count == 0 && r->queue_count == 0) break;     /* macrostepDone */
            if (steps++ >= r->max_steps) return SC_ERR_RUNAWAY;
            if (enabled.count == 0) {
                sc_id internal = r->queue[r->queue_head];
                r->queue_head = (r->queue_head + 1) % REF_QUEUE;
                r->queue_count--;
                select_transitions(r, internal, &enabled);
            }
            if (enabled.count) microstep(r, &enabled);
            if (r->failure != SC_OK && r->running) return take_failure(r);
        }
        if (!r->running) {
            r->failure = SC_OK;
            exit_interpreter(r);
            return SC_OK;
        }
        for (sc_id s = 0; s < r->b->state_count; s++) {
            if (!r->to_invoke[s]) continue;
            r->to_invoke[s] = false;
            if (!(S(r, s)->flags & SC_STATE_HAS_INVOKE)) continue;
            char token[CB_NAME + 8];
            snprintf(token, sizeof token, "invoke:%s", r->b->state_name[s]);
            trace_add(r, token);
            r->invoked[s] = true;
        }
        if (r->queue_count == 0) return SC_OK;
    }
}

void ref_init(ref_machine *r, const cb_builder *b, const bool *guards, const sc_id *raise_on_action,
              uint32_t max_steps) {
    memset(r, 0, sizeof *r);
    r->b = b;
    r->guards = guards;
    r->raise_on_action = raise_on_action;
    r->max_steps = max_steps;
}

/* A raise that did not fit turns a status that is not an error into SC_ERR_QUEUE_FULL. */
static sc_status report_lost(ref_machine *r, sc_status status) {
    if (!r->lost_event) return status;
    r->lost_event = false;
    return status < 0 ? status : SC_ERR_QUEUE_FULL;
}

sc_status ref_start(ref_machine *r) {
    r->running = true;
    oset initial = { .items = { S(r, 0)->initial }, .count = 1 };
    sc_id domain = 0;
    enter_states(r, &initial, &domain);
    if (r->failure != SC_OK && r->running) return report_lost(r, take_failure(r));
    return report_lost(r, complete_macrostep(r));
}

sc_status ref_dispatch(ref_machine *r, sc_id event) {
    if (r->halted) return SC_HALTED;
    oset enabled;
    select_transitions(r, event, &enabled);
    bool handled = enabled.count > 0;
    if (handled) microstep(r, &enabled);
    sc_status status = r->failure != SC_OK && r->running ? take_failure(r) : complete_macrostep(r);
    if (status < 0) return report_lost(r, status);
    return report_lost(r, handled ? SC_OK : SC_UNHANDLED);
}
