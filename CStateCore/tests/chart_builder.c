/*
 * chart_builder.c - see chart_builder.h. Derived fields are computed the way the W3C
 * algorithm defines them (document order, findLCCA, getTransitionDomain), independently of the
 * core, so the tests check the core against the algorithm rather than against itself.
 */
#include "chart_builder.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_error(cb_builder *b, const char *format, ...) {
    if (b->error[0]) return;                /* keep the first problem */
    va_list args;
    va_start(args, format);
    vsnprintf(b->error, sizeof b->error, format, args);
    va_end(args);
}

static void copy_name(char *dst, const char *src) {
    snprintf(dst, CB_NAME, "%s", src);
}

cb_builder *cb_new(void) {
    cb_builder *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    for (uint32_t s = 0; s < CB_MAX_STATES; s++) b->initial_raw[s] = SC_NONE;
    copy_name(b->state_name[0], "scxml");
    b->states[0].parent = SC_NONE;
    b->states[0].kind = SC_COMPOUND;
    b->states[0].on_entry = SC_NONE;
    b->states[0].on_exit = SC_NONE;
    b->states[0].done_event = SC_NONE;
    b->state_count = 1;
    return b;
}

void cb_free(cb_builder *b) { free(b); }

sc_id cb_find_state(const cb_builder *b, const char *name) {
    for (sc_id s = 0; s < b->state_count; s++)
        if (strcmp(b->state_name[s], name) == 0) return s;
    return SC_NONE;
}

sc_id cb_find_event(const cb_builder *b, const char *name) {
    for (sc_id e = 0; e < b->event_count; e++)
        if (strcmp(b->event_name[e], name) == 0) return e;
    return SC_NONE;
}

sc_id cb_find_guard(const cb_builder *b, const char *name) {
    for (sc_id g = 0; g < b->guard_count; g++)
        if (strcmp(b->guard_name[g], name) == 0) return g;
    return SC_NONE;
}

sc_id cb_find_transition(const cb_builder *b, const char *label) {
    for (sc_id t = 0; t < b->chart.transition_count; t++)
        if (strcmp(b->transition_name[t], label) == 0) return t;
    return SC_NONE;
}

static sc_id need_state(cb_builder *b, const char *name) {
    sc_id s = cb_find_state(b, name);
    if (s == SC_NONE) set_error(b, "unknown state '%s'", name);
    return s;
}

static sc_id new_action(cb_builder *b, const char *prefix, const char *name) {
    if (b->action_count == CB_MAX_ACTIONS) {
        set_error(b, "too many actions");
        return SC_NONE;
    }
    snprintf(b->action_name[b->action_count], CB_NAME, "%s%s", prefix, name);
    return b->action_count++;
}

sc_id cb_state(cb_builder *b, const char *parent, sc_state_kind kind, const char *name) {
    if (b->finished) set_error(b, "cb_state after cb_finish");
    if (b->state_count == CB_MAX_STATES) {
        set_error(b, "too many states");
        return SC_NONE;
    }
    if (cb_find_state(b, name) != SC_NONE) set_error(b, "duplicate state '%s'", name);
    sc_id p = parent ? need_state(b, parent) : 0;
    sc_id s = b->state_count++;
    copy_name(b->state_name[s], name);
    sc_state *st = &b->states[s];
    memset(st, 0, sizeof *st);
    st->parent = p == SC_NONE ? 0 : p;
    st->kind = (uint8_t)kind;
    st->initial = SC_NONE;
    st->done_event = SC_NONE;
    st->on_entry = new_action(b, "enter:", name);
    st->on_exit = new_action(b, "exit:", name);
    return s;
}

void cb_flags(cb_builder *b, const char *state, uint8_t flags) {
    sc_id s = need_state(b, state);
    if (s != SC_NONE) b->extra_flags[s] |= flags;
}

sc_id cb_event(cb_builder *b, const char *name) {
    sc_id found = cb_find_event(b, name);
    if (found != SC_NONE) return found;
    sc_id prefix = SC_NONE;
    const char *dot = strrchr(name, '.');
    if (dot) {
        char head[CB_NAME];
        size_t n = (size_t)(dot - name);
        if (n >= CB_NAME) n = CB_NAME - 1;
        memcpy(head, name, n);
        head[n] = '\0';
        prefix = cb_event(b, head);         /* prefixes are interned first: prefix < id */
    }
    if (b->event_count == CB_MAX_EVENTS) {
        set_error(b, "too many events");
        return SC_NONE;
    }
    sc_id e = b->event_count++;
    copy_name(b->event_name[e], name);
    b->events[e].prefix = prefix;
    return e;
}

/* Splits a space-separated list into at most CB_MAX_LIST words; returns the count. */
static uint32_t split(cb_builder *b, const char *text, char words[CB_MAX_LIST][CB_NAME]) {
    uint32_t n = 0;
    if (!text) return 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ') p++;
        if (!*p) break;
        const char *end = p;
        while (*end && *end != ' ') end++;
        if (n == CB_MAX_LIST) {
            set_error(b, "list too long: '%s'", text);
            break;
        }
        size_t len = (size_t)(end - p);
        if (len >= CB_NAME) len = CB_NAME - 1;
        memcpy(words[n], p, len);
        words[n][len] = '\0';
        n++;
        p = end;
    }
    return n;
}

static cb_raw_transition *new_raw(cb_builder *b, sc_id source, const char *targets) {
    if (b->finished) set_error(b, "transition added after cb_finish");
    if (b->raw_count == CB_MAX_TRANSITIONS) {
        set_error(b, "too many transitions");
        return NULL;
    }
    cb_raw_transition *r = &b->raw[b->raw_count++];
    memset(r, 0, sizeof *r);
    r->source = source;
    r->guard = SC_NONE;
    r->action = SC_NONE;
    char words[CB_MAX_LIST][CB_NAME];
    uint32_t n = split(b, targets, words);
    for (uint32_t k = 0; k < n; k++) {
        sc_id t = need_state(b, words[k]);
        r->targets[r->target_count++] = t == SC_NONE ? 0 : t;
    }
    return r;
}

void cb_trans(cb_builder *b, const char *source, const char *events, const char *targets,
              uint32_t flags, const char *guard, const char *label) {
    sc_id s = need_state(b, source);
    cb_raw_transition *r = new_raw(b, s == SC_NONE ? 0 : s, targets);
    if (!r) return;
    char words[CB_MAX_LIST][CB_NAME];
    uint32_t n = split(b, events, words);
    for (uint32_t k = 0; k < n; k++) {
        char *w = words[k];
        size_t len = strlen(w);
        if (strcmp(w, "*") == 0) {
            r->descriptors[r->descriptor_count++] = SC_EVENT_ANY;
            continue;
        }
        /* SCXML: "a.*" and "a." mean the same as "a". */
        if (len >= 2 && strcmp(w + len - 2, ".*") == 0) w[len - 2] = '\0';
        else if (len >= 1 && w[len - 1] == '.') w[len - 1] = '\0';
        r->descriptors[r->descriptor_count++] = cb_event(b, w);
    }
    r->flags = flags;
    if (guard) {
        sc_id g = cb_find_guard(b, guard);
        if (g == SC_NONE) {
            if (b->guard_count == CB_MAX_GUARDS) set_error(b, "too many guards");
            else {
                g = b->guard_count++;
                copy_name(b->guard_name[g], guard);
            }
        }
        r->guard = g;
    }
    if (label) {
        copy_name(r->name, label);
        r->action = new_action(b, "take:", label);
    }
}

void cb_initial(cb_builder *b, const char *state, const char *targets, bool with_action) {
    sc_id s = need_state(b, state);
    if (s == SC_NONE) return;
    uint8_t kind = b->states[s].kind;
    if (kind != SC_COMPOUND && kind != SC_HISTORY_SHALLOW && kind != SC_HISTORY_DEEP) {
        set_error(b, "cb_initial on '%s', neither compound nor history", state);
        return;
    }
    if (b->initial_raw[s] != SC_NONE) set_error(b, "second cb_initial on '%s'", state);
    b->initial_raw[s] = b->raw_count;
    cb_raw_transition *r = new_raw(b, s, targets);
    if (!r) return;
    bool history = kind != SC_COMPOUND;
    snprintf(r->name, CB_NAME, "%s:%s", history ? "hist" : "init", state);
    if (with_action) r->action = new_action(b, history ? "hist:" : "init:", state);
}

/* ---- derived fields ------------------------------------------------------------------------ */

static bool is_descendant(const cb_builder *b, sc_id d, sc_id s) {
    for (sc_id a = b->states[d].parent; a != SC_NONE; a = b->states[a].parent)
        if (a == s) return true;
    return false;
}

static bool is_history_kind(uint8_t kind) { return kind == SC_HISTORY_SHALLOW || kind == SC_HISTORY_DEEP; }

/* findLCCA([head] + tail): the nearest proper ancestor of head that is compound (or the root)
 * and has every state of tail as a descendant. */
static sc_id find_lcca(const cb_builder *b, sc_id head, const sc_id *tail, uint32_t n) {
    for (sc_id a = b->states[head].parent; a != SC_NONE; a = b->states[a].parent) {
        if (a != 0 && b->states[a].kind != SC_COMPOUND) continue;
        bool all = true;
        for (uint32_t k = 0; k < n; k++)
            if (!is_descendant(b, tail[k], a)) all = false;
        if (all) return a;
    }
    return 0;
}

/* getTransitionDomain with the literal targets (history states not dereferenced: that is the
 * core's job for SC_TRANSITION_DYNAMIC_DOMAIN transitions). */
static sc_id transition_domain(const cb_builder *b, const cb_raw_transition *r) {
    if (r->target_count == 0) return SC_NONE;
    bool inside = true;
    for (uint32_t k = 0; k < r->target_count; k++)
        if (!is_descendant(b, r->targets[k], r->source)) inside = false;
    if ((r->flags & SC_TRANSITION_INTERNAL) && b->states[r->source].kind == SC_COMPOUND && inside)
        return r->source;
    return find_lcca(b, r->source, r->targets, r->target_count);
}

static bool emit(cb_builder *b, const cb_raw_transition *r, sc_id domain, uint32_t *tpool, uint32_t *dpool) {
    sc_id i = b->chart.transition_count;
    if (i == CB_MAX_TRANSITIONS || *tpool + r->target_count > CB_MAX_POOL ||
        *dpool + r->descriptor_count > CB_MAX_POOL) {
        set_error(b, "table overflow");
        return false;
    }
    sc_transition *t = &b->transitions[i];
    memset(t, 0, sizeof *t);
    t->source = r->source;
    t->domain = domain;
    t->targets_offset = *tpool;
    t->target_count = r->target_count;
    t->events_offset = *dpool;
    t->event_count = r->descriptor_count;
    t->guard = r->guard;
    t->action = r->action;
    t->flags = r->flags;
    for (uint32_t k = 0; k < r->target_count; k++) {
        b->targets[(*tpool)++] = r->targets[k];
        if (is_history_kind(b->states[r->targets[k]].kind)) t->flags |= SC_TRANSITION_DYNAMIC_DOMAIN;
    }
    for (uint32_t k = 0; k < r->descriptor_count; k++) b->descriptors[(*dpool)++] = r->descriptors[k];
    copy_name(b->transition_name[i], r->name);
    b->chart.transition_count++;
    return true;
}

bool cb_finish(cb_builder *b) {
    if (b->finished) return !b->error[0];
    const uint32_t n = b->state_count;

    /* Tree shape: document order means every state's parent precedes it and a state's
     * descendants follow it contiguously. */
    for (sc_id s = 0; s < n; s++) {
        b->states[s].last_descendant = s;
        b->states[s].depth = 0;
        b->states[s].flags = b->extra_flags[s];
    }
    for (sc_id s = n - 1; s > 0; s--) {
        sc_id p = b->states[s].parent;
        if (b->states[p].last_descendant < b->states[s].last_descendant)
            b->states[p].last_descendant = b->states[s].last_descendant;
    }
    for (sc_id s = 1; s < n; s++) {
        sc_id p = b->states[s].parent;
        if (p >= s) set_error(b, "state '%s' precedes its parent", b->state_name[s]);
        b->states[s].depth = (uint16_t)(b->states[p].depth + 1);
        if (is_history_kind(b->states[s].kind)) b->states[p].flags |= SC_STATE_HAS_HISTORY;
    }
    for (sc_id s = 1; s < n; s++) {       /* preorder: (s, last] are exactly the descendants */
        for (sc_id d = s + 1; d <= b->states[s].last_descendant; d++)
            if (!is_descendant(b, d, s)) set_error(b, "states not in document order near '%s'", b->state_name[d]);
    }

    /* Done events: "done.state.<id>" for every compound and parallel state below the root. */
    for (sc_id s = 1; s < n; s++) {
        uint8_t kind = b->states[s].kind;
        if (kind == SC_COMPOUND || kind == SC_PARALLEL) {
            char name[CB_NAME + 16];
            snprintf(name, sizeof name, "done.state.%s", b->state_name[s]);
            b->states[s].done_event = cb_event(b, name);
        }
    }

    /* Default initial transitions: the first child state in document order. */
    for (sc_id s = 0; s < n; s++) {
        if (b->states[s].kind != SC_COMPOUND || b->initial_raw[s] != SC_NONE) continue;
        sc_id first = SC_NONE;
        for (sc_id c = s + 1; c <= b->states[s].last_descendant; c = b->states[c].last_descendant + 1)
            if (!is_history_kind(b->states[c].kind)) { first = c; break; }
        if (first == SC_NONE) {
            set_error(b, "compound state '%s' has no child state", b->state_name[s]);
            continue;
        }
        b->initial_raw[s] = b->raw_count;
        cb_raw_transition *r = new_raw(b, s, NULL);
        if (!r) break;
        r->targets[r->target_count++] = first;
        snprintf(r->name, CB_NAME, "init:%s", b->state_name[s]);
    }
    for (sc_id s = 0; s < n; s++)
        if (is_history_kind(b->states[s].kind) && b->initial_raw[s] == SC_NONE)
            set_error(b, "history '%s' needs cb_initial (its default transition)", b->state_name[s]);
    b->finished = true;                     /* from here on nothing is added to the description */
    if (b->error[0]) return false;

    /* Transitions grouped by source in state order (document order kept within a state), then the
     * initial/default transitions, which belong to no group. */
    bool is_initial[CB_MAX_TRANSITIONS] = { false };
    for (sc_id s = 0; s < n; s++)
        if (b->initial_raw[s] != SC_NONE) is_initial[b->initial_raw[s]] = true;
    uint32_t tpool = 0, dpool = 0;
    b->chart.transition_count = 0;
    for (sc_id s = 0; s < n; s++) {
        b->states[s].first_transition = b->chart.transition_count;
        b->states[s].transition_count = 0;
        for (uint32_t k = 0; k < b->raw_count; k++) {
            const cb_raw_transition *r = &b->raw[k];
            if (is_initial[k] || r->source != s) continue;
            if (!emit(b, r, transition_domain(b, r), &tpool, &dpool)) return false;
            b->states[s].transition_count++;
        }
    }
    for (sc_id s = 0; s < n; s++) {
        if (b->initial_raw[s] == SC_NONE) continue;
        const cb_raw_transition *r = &b->raw[b->initial_raw[s]];
        b->states[s].initial = b->chart.transition_count;
        /* A compound state's initial transition lies inside it (domain = the state itself);
         * a history default transition is taken from the history state: findLCCA. */
        sc_id domain = b->states[s].kind == SC_COMPOUND ? s : find_lcca(b, s, r->targets, r->target_count);
        if (!emit(b, r, domain, &tpool, &dpool)) return false;
    }

    for (sc_id s = 0; s < n; s++) b->state_names[s] = b->state_name[s];
    for (sc_id e = 0; e < b->event_count; e++) b->event_names[e] = b->event_name[e];
    b->chart.state_count = n;
    b->chart.event_count = b->event_count;
    b->chart.target_pool_count = tpool;
    b->chart.descriptor_pool_count = dpool;
    b->chart.flags = 0;
    b->chart.states = b->states;
    b->chart.transitions = b->transitions;
    b->chart.events = b->events;
    b->chart.targets = b->targets;
    b->chart.descriptors = b->descriptors;
    b->chart.state_names = b->state_names;
    b->chart.event_names = b->event_names;
    if (sc_chart_fill_masks(&b->chart, b->states, b->events) != SC_OK && !b->error[0])
        snprintf(b->error, sizeof b->error, "sc_chart_fill_masks refused the tables");
    return !b->error[0];
}
