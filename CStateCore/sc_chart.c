/*
 * sc_chart.c - validation of chart tables (sc_chart_check, sc_chart_can_be_active_together) and
 * the event-filter masks (sc_chart_fill_masks).
 *
 * sc_chart_check() is the guard between untrusted tables (hand-written, generated, loaded)
 * and the algorithm: once it passes, every index the algorithm follows is in range, the tree
 * is properly nested in document order, every transition's domain covers its source and
 * targets, and every target set can be active together, so no input can make the machine read
 * out of bounds, loop, or enter an illegal configuration.
 *
 * It works in passes so that each one may rely on the earlier ones and none can loop: the
 * tree's shape (index ranges only, no walks), then transitions and pools, then each state
 * (child walks, now known to advance), then target sets (ancestor walks, now known to end).
 */
#include "sc_internal.h"

static sc_status fail(sc_chart_error *error, const char *message, const char *table, uint32_t index) {
    if (error) {
        error->message = message;
        error->table = table;
        error->index = index;
    }
    return SC_ERR_BAD_CHART;
}

/* The mask bits a state's own transitions need (eventless ones included). */
static uint64_t required_own_mask(const sc_chart *c, sc_id s) {
    const sc_state *st = &c->states[s];
    uint64_t mask = 0;
    for (uint32_t k = 0; k < st->transition_count; k++) {
        const sc_transition *t = &c->transitions[st->first_transition + k];
        if (t->event_count == 0) mask |= SC_MASK_EVENTLESS;
        for (uint32_t j = 0; j < t->event_count; j++) mask |= sc_event_bit(c->descriptors[t->events_offset + j]);
    }
    return mask;
}

static sc_status check_tables(const sc_chart *c, sc_chart_error *error, bool complete);

sc_status sc_chart_fill_masks(const sc_chart *chart, sc_state *states, sc_event_info *events) {
    /* Everything filling reads must be in range; masks (being filled) and whether targets can be
     * active together (not read here) are left to sc_chart_check. */
    sc_status status = check_tables(chart, NULL, false);
    if (status != SC_OK) return status;
    if (events) {
        for (sc_id e = 0; e < chart->event_count; e++) {
            uint64_t mask = sc_event_bit(e);
            if (events[e].prefix < e) mask |= events[events[e].prefix].mask;
            events[e].mask = mask;
        }
    }
    if (states) {
        for (sc_id s = 0; s < chart->state_count; s++) {
            states[s].own_mask = required_own_mask(chart, s);
            states[s].path_mask = states[s].own_mask;
            if (states[s].parent < s) states[s].path_mask |= states[states[s].parent].path_mask;
        }
    }
    return SC_OK;
}

static bool targets_ok(const sc_chart *c, const sc_transition *t) {
    if ((uint64_t)t->targets_offset + t->target_count > c->target_pool_count) return false;
    for (uint32_t j = 0; j < t->target_count; j++) {
        sc_id s = c->targets[t->targets_offset + j];
        if (s == 0 || s >= c->state_count) return false;
    }
    return true;
}

/* A table that uses what this build leaves out (SC_CONFIG_NO_*): SC_ERR_UNSUPPORTED. */
static sc_status unsupported(sc_chart_error *error, const char *message, const char *table, uint32_t index) {
    fail(error, message, table, index);
    return SC_ERR_UNSUPPORTED;
}

/* More entries than sc_id can number: a feature of a wider build with narrow ids, else a table
 * no memory can hold. */
static sc_status too_many(sc_chart_error *error, const char *message, const char *table) {
    return SC_CONFIG_ID_BITS < 32 ? unsupported(error, message, table, 0) : fail(error, message, table, 0);
}

/* What the tables use that this build leaves out (SC_CONFIG_NO_*, ids wider than
 * SC_CONFIG_ID_BITS): SC_ERR_UNSUPPORTED, naming the table and index. Reads only entries the
 * counts cover (the arrays are known non-NULL), so it runs before the invariants are known and
 * is all sc_chart_check does with SC_CONFIG_NO_TABLE_CHECK. */
static sc_status check_features(const sc_chart *c, sc_chart_error *error) {
    const char *S = "states", *T = "transitions";
    if (SC_CONFIG_NO_DELAYED && (c->flags & SC_CHART_DELAYED_SENDS))
        return unsupported(error, "delayed sends (SC_CHART_DELAYED_SENDS), in a core built with SC_CONFIG_NO_DELAYED",
                           "chart", 0);
    /* Every id stays below the three reserved at the top of sc_id, transitions below its top bit:
     * with narrow ids (SC_CONFIG_ID_BITS) a chart beyond that needs a wider build. */
    if (c->state_count >= SC_EVENT_UNKNOWN) return too_many(error, "too many states for SC_CONFIG_ID_BITS", S);
    if (c->transition_count > SC_ID_TOP_BIT)
        return too_many(error, "too many transitions for SC_CONFIG_ID_BITS (they stay below its top bit)", T);
    if (c->event_count >= SC_EVENT_UNKNOWN) return too_many(error, "too many events for SC_CONFIG_ID_BITS", "events");
    for (sc_id s = 0; s < c->state_count; s++) {
        const sc_state *st = &c->states[s];
        if (SC_CONFIG_NO_PARALLEL && st->kind == SC_PARALLEL)
            return unsupported(error, "a parallel state, in a core built with SC_CONFIG_NO_PARALLEL", S, s);
        if (SC_CONFIG_NO_HISTORY && sc_is_history(st->kind))
            return unsupported(error, "a history state, in a core built with SC_CONFIG_NO_HISTORY", S, s);
        if (SC_CONFIG_NO_CONTENT && (st->on_entry != SC_NONE || st->on_exit != SC_NONE))
            return unsupported(error, "executable content (on_entry, on_exit), in a core built with SC_CONFIG_NO_CONTENT", S, s);
        if (SC_CONFIG_NO_INVOKE && (st->flags & SC_STATE_HAS_INVOKE))
            return unsupported(error, "a state with invocations, in a core built with SC_CONFIG_NO_INVOKE", S, s);
        if (SC_CONFIG_NO_FINAL && st->kind == SC_FINAL)
            return unsupported(error, "a final state, in a core built with SC_CONFIG_NO_FINAL", S, s);
        /* Entering a final state below the root raises done.state.<parent>: an internal event. */
        if (!SC_HAS_DONE_EVENTS && st->kind == SC_FINAL && st->parent != 0)
            return unsupported(error, "a final state below the root (done events), in a core built with "
                               "SC_CONFIG_NO_EVENTLESS or SC_CONFIG_NO_CONTENT", S, s);
    }
    for (sc_id i = 0; i < c->transition_count; i++) {
        const sc_transition *t = &c->transitions[i];
        if (SC_CONFIG_NO_GUARDS && t->guard != SC_NONE)
            return unsupported(error, "a guard, in a core built with SC_CONFIG_NO_GUARDS", T, i);
        if (SC_CONFIG_NO_CONTENT && t->action != SC_NONE)
            return unsupported(error, "executable content (an action), in a core built with SC_CONFIG_NO_CONTENT", T, i);
    }
    /* A state's own transitions (not an <initial> or history default) need an event. */
    for (sc_id s = 0; SC_CONFIG_NO_EVENTLESS && s < c->state_count; s++) {
        const sc_state *st = &c->states[s];
        for (uint32_t k = 0; k < st->transition_count; k++) {
            uint64_t i = (uint64_t)st->first_transition + k;
            if (i < c->transition_count && c->transitions[i].event_count == 0)
                return unsupported(error, "an eventless transition, in a core built with SC_CONFIG_NO_EVENTLESS", T, (uint32_t)i);
        }
    }
    return SC_OK;
}

static sc_status check_transition(const sc_chart *c, sc_id i, sc_chart_error *error) {
    const char *T = "transitions";
    const sc_transition *t = &c->transitions[i];
    if (t->source >= c->state_count) return fail(error, "source out of range", T, i);
    if (!targets_ok(c, t)) return fail(error, "target pool range or target id out of range", T, i);
    if ((uint64_t)t->events_offset + t->event_count > c->descriptor_pool_count)
        return fail(error, "descriptor pool range out of range", T, i);
    for (uint32_t j = 0; j < t->event_count; j++) {
        sc_id d = c->descriptors[t->events_offset + j];
        if (d != SC_EVENT_ANY && d >= c->event_count) return fail(error, "descriptor is not an event id", T, i);
    }
    bool targets_history = false;
    for (uint32_t j = 0; j < t->target_count; j++)
        if (sc_is_history(c->states[c->targets[t->targets_offset + j]].kind)) targets_history = true;
    if (targets_history != !!(t->flags & SC_TRANSITION_DYNAMIC_DOMAIN))
        return fail(error, "SC_TRANSITION_DYNAMIC_DOMAIN must be set exactly when a target is a history state", T, i);
    if (t->target_count == 0) {
        if (t->domain != SC_NONE) return fail(error, "targetless transition must have domain SC_NONE", T, i);
        return SC_OK;
    }
    sc_id d = t->domain;
    if (d >= c->state_count || (d != 0 && c->states[d].kind != SC_COMPOUND))
        return fail(error, "domain must be a compound state or the root", T, i);
    if (t->source != d && !sc_is_descendant(c, t->source, d))
        return fail(error, "domain does not contain the source", T, i);
    for (uint32_t j = 0; j < t->target_count; j++)
        if (!sc_is_descendant(c, c->targets[t->targets_offset + j], d))
            return fail(error, "domain does not contain every target", T, i);
    return SC_OK;
}

/* The tree's shape, from index ranges alone: parents precede children, subtrees nest. States
 * are checked in order, so the parent's range is already known good. */
static sc_status check_shape(const sc_chart *c, sc_id s, sc_chart_error *error) {
    const char *S = "states";
    const sc_state *st = &c->states[s];
    if (st->kind > SC_HISTORY_DEEP) return fail(error, "unknown kind", S, s);
    if (st->last_descendant < s || st->last_descendant >= c->state_count)
        return fail(error, "last_descendant out of range", S, s);
    if (s == 0) {
        if (st->parent != SC_NONE || st->kind != SC_COMPOUND || st->depth != 0)
            return fail(error, "state 0 must be the root: compound, no parent, depth 0", S, s);
        if (st->last_descendant != c->state_count - 1) return fail(error, "root must contain every state", S, s);
    } else {
        const sc_state *parent = st->parent < s ? &c->states[st->parent] : NULL;
        if (!parent) return fail(error, "parent must precede its child in document order", S, s);
        if (st->last_descendant > parent->last_descendant) return fail(error, "subtree overruns its parent's", S, s);
        if (st->depth != parent->depth + 1) return fail(error, "depth must be the parent's depth + 1", S, s);
        if (parent->kind != SC_COMPOUND && parent->kind != SC_PARALLEL)
            return fail(error, "parent must be compound or parallel", S, s);
        if (st->last_descendant < parent->last_descendant && c->states[st->last_descendant + 1].parent != st->parent)
            return fail(error, "state after this subtree must be a sibling", S, s);
    }
    if (st->last_descendant > s && c->states[s + 1].parent != s)
        return fail(error, "first state after a parent must be its child", S, s);
    return SC_OK;
}

static sc_status check_state(const sc_chart *c, sc_id s, sc_chart_error *error, bool complete) {
    const bool masks = complete;
    const char *S = "states";
    const sc_state *st = &c->states[s];
    bool leaf = st->last_descendant == s;
    bool container = st->kind == SC_COMPOUND || st->kind == SC_PARALLEL;
    if (leaf == container) return fail(error, "compound and parallel states need children; others have none", S, s);
    if ((uint64_t)st->first_transition + st->transition_count > c->transition_count)
        return fail(error, "transition range out of range", S, s);
    for (uint32_t k = 0; k < st->transition_count; k++)
        if (c->transitions[st->first_transition + k].source != s)
            return fail(error, "transition in this state's range has another source", S, s);
    if (masks && (required_own_mask(c, s) & ~st->own_mask) != 0)
        return fail(error, "own_mask lacks bits of its descriptors (use sc_chart_fill_masks)", S, s);
    /* The root too: selection tests an atomic state's path_mask before walking up to the root,
     * so root transitions whose bits are missing from its path_mask would never be selected. */
    if (masks && ((st->own_mask & ~st->path_mask) || (s && (c->states[st->parent].path_mask & ~st->path_mask))))
        return fail(error, "path_mask must include own_mask and the parent's path_mask", S, s);
    if (st->done_event != SC_NONE && st->done_event >= c->event_count)
        return fail(error, "done_event out of range", S, s);
    if (container) {
        bool has_state_child = false;
        SC_FOR_EACH_CHILD(c, s, child)
            if (!sc_is_history(c->states[child].kind)) has_state_child = true;
        if (!has_state_child) return fail(error, "compound and parallel states need a non-history child", S, s);
    }
    if (st->kind == SC_COMPOUND || sc_is_history(st->kind)) {
        if (st->initial >= c->transition_count) return fail(error, "initial/default transition out of range", S, s);
        const sc_transition *t = &c->transitions[st->initial];
        if (t->target_count == 0) return fail(error, "initial/default transition needs a target", S, s);
        sc_id scope = sc_is_history(st->kind) ? st->parent : s;
        for (uint32_t j = 0; j < t->target_count; j++) {
            sc_id target = c->targets[t->targets_offset + j];
            if (!sc_is_descendant(c, target, scope))
                return fail(error, "initial/default target must be a descendant", S, s);
            if (sc_is_history(st->kind) && sc_is_history(c->states[target].kind))
                return fail(error, "history default transition must not target a history state", S, s);
            /* A history's value is only known at run time; next to other targets of an initial
             * transition it could make an illegal configuration that no transition stands for. */
            if (complete && sc_is_history(c->states[target].kind) && t->target_count > 1)
                return fail(error, "an initial transition that targets a history state must have no other target", S, s);
        }
    }
    if (sc_is_history(st->kind) && st->parent == 0) return fail(error, "history cannot be a child of the root", S, s);
    if (st->kind == SC_FINAL && c->states[st->parent].kind != SC_COMPOUND)
        return fail(error, "final state must be a child of a compound state or the root", S, s);
    bool has_history = false;
    if (container) {
        SC_FOR_EACH_CHILD(c, s, child)
            if (sc_is_history(c->states[child].kind)) has_history = true;
    }
    if (has_history != !!(st->flags & SC_STATE_HAS_HISTORY))
        return fail(error, "SC_STATE_HAS_HISTORY must be set exactly when a child is a history state", S, s);
    return SC_OK;
}

/* The static effective targets of a transition (getEffectiveTargetStates with every history
 * replaced by its default targets), one at a time. */
typedef struct target_cursor {
    const sc_chart *chart;
    const sc_transition *t;
    uint32_t j;         /* index into t's targets */
    uint32_t d;         /* index into the default targets of history target j */
} target_cursor;

static sc_id next_target(target_cursor *cur) {
    const sc_chart *c = cur->chart;
    const sc_transition *t = cur->t;
    while (cur->j < t->target_count) {
        sc_id s = c->targets[t->targets_offset + cur->j];
        if (!sc_is_history(c->states[s].kind)) {
            cur->j++;
            return s;
        }
        const sc_transition *def = &c->transitions[c->states[s].initial];
        if (cur->d < def->target_count) return c->targets[def->targets_offset + cur->d++];
        cur->d = 0;
        cur->j++;
    }
    return SC_NONE;
}

/* Targets that cannot be active together make an illegal configuration (two children of one
 * compound state). Each pair is compared: O(targets^2 x depth) for a transition, bounded. */
static bool targets_enterable_together(const sc_chart *c, const sc_transition *t) {
    if (t->target_count == 0) return true;
    target_cursor a = { c, t, 0, 0 };
    for (sc_id x = next_target(&a); x != SC_NONE; x = next_target(&a)) {
        target_cursor b = a;
        for (sc_id y = next_target(&b); y != SC_NONE; y = next_target(&b))
            if (!sc_can_be_active_together(c, x, y)) return false;
    }
    return true;
}

/* complete: also the masks and whether target sets can be active together (sc_chart_check);
 * else only what sc_chart_fill_masks needs to read the tables safely. */
static sc_status check_tables(const sc_chart *c, sc_chart_error *error, bool complete) {
    const bool masks = complete;
    if (!c || !c->states || c->state_count < 2)
        return fail(error, "a chart needs the root and at least one state", "states", 0);
    if (c->transition_count && !c->transitions) return fail(error, "transitions missing", "transitions", 0);
    if (c->event_count && !c->events) return fail(error, "events missing", "events", 0);
    if (c->target_pool_count && !c->targets) return fail(error, "target pool missing", "targets", 0);
    if (c->descriptor_pool_count && !c->descriptors) return fail(error, "descriptor pool missing", "descriptors", 0);
    sc_status features = check_features(c, error);
    if (features != SC_OK) return features;
    for (sc_id e = 0; e < c->event_count; e++) {
        const sc_event_info *ev = &c->events[e];
        if (ev->prefix != SC_NONE && ev->prefix >= e)
            return fail(error, "an event's prefix must be interned before it", "events", e);
        uint64_t need = sc_event_bit(e) | (ev->prefix != SC_NONE ? c->events[ev->prefix].mask : 0);
        if (masks && (need & ~ev->mask))
            return fail(error, "mask lacks bits of its prefix chain (use sc_chart_fill_masks)", "events", e);
    }
    for (sc_id s = 0; s < c->state_count; s++) {
        sc_status st = check_shape(c, s, error);
        if (st != SC_OK) return st;
    }
    /* Transitions before the rest of the states: check_state reads their targets. */
    for (sc_id i = 0; i < c->transition_count; i++) {
        sc_status st = check_transition(c, i, error);
        if (st != SC_OK) return st;
    }
    for (sc_id s = 0; s < c->state_count; s++) {
        sc_status st = check_state(c, s, error, masks);
        if (st != SC_OK) return st;
    }
    for (sc_id i = 0; complete && i < c->transition_count; i++)
        if (!targets_enterable_together(c, &c->transitions[i]))
            return fail(error, "targets cannot be active together (history states counted by their default targets)",
                        "transitions", i);
    return SC_OK;
}

sc_status sc_chart_check(const sc_chart *c, sc_chart_error *error) {
#if SC_CONFIG_NO_TABLE_CHECK
    /* The invariants are the generator's to keep (sc_core.h); what the build leaves out is not. */
    if (!c || !c->states || c->state_count < 2 || (c->transition_count && !c->transitions))
        return fail(error, "a chart needs the root and at least one state", "states", 0);
    return check_features(c, error);
#else
    return check_tables(c, error, true);
#endif
}

bool sc_chart_can_be_active_together(const sc_chart *c, sc_id a, sc_id b) {
    return c && a < c->state_count && b < c->state_count && sc_can_be_active_together(c, a, b);
}
