/*
 * chart_builder.h - builds CStateCore chart tables in mutable arrays from a compact,
 * name-based description, so the tests read like the SCXML they stand for.
 *
 *     cb_builder *b = cb_new();
 *     cb_state(b, NULL, SC_COMPOUND, "s1");         // children in document order (preorder)
 *     cb_state(b, "s1", SC_ATOMIC, "s11");
 *     cb_state(b, NULL, SC_ATOMIC, "s2");
 *     cb_trans(b, "s11", "go", "s2", 0, NULL, "t1");  // source, descriptors, targets, flags, guard, label
 *     cb_finish(b);                                 // computes every derived field and the masks
 *
 * Conventions the tests rely on:
 *  - state 0 is the <scxml> root, named "scxml"; it has no entry/exit actions;
 *  - every other state gets two actions named "enter:<name>" and "exit:<name>";
 *  - a transition with label L gets the action "take:L" (no label: no action);
 *  - cb_initial(b, s, targets, true) gives s's initial transition (compound: <initial>, history:
 *    the default transition) the action "init:<s>" resp. "hist:<s>";
 *  - compound states without cb_initial default to their first non-history child;
 *  - every compound/parallel state except the root gets the done event "done.state.<name>";
 *  - domains follow W3C getTransitionDomain (internal + compound source + all targets inside:
 *    the source; else findLCCA); SC_TRANSITION_DYNAMIC_DOMAIN is set when a target is a history.
 *
 * The tables stay writable after cb_finish so tests can corrupt them for sc_chart_check.
 */
#ifndef CHART_BUILDER_H
#define CHART_BUILDER_H

#include "sc_core.h"

#include <stdbool.h>
#include <stdint.h>

#define CB_MAX_STATES 320
#define CB_MAX_TRANSITIONS 400
#define CB_MAX_EVENTS 160
#define CB_MAX_POOL 1024
#define CB_MAX_ACTIONS 1024
#define CB_MAX_GUARDS 32
#define CB_MAX_LIST 8
#define CB_NAME 48

typedef struct cb_raw_transition {
    sc_id source;
    sc_id targets[CB_MAX_LIST];
    uint32_t target_count;
    sc_id descriptors[CB_MAX_LIST];
    uint32_t descriptor_count;
    uint32_t flags;
    sc_id guard;
    sc_id action;
    char name[CB_NAME];
} cb_raw_transition;

typedef struct cb_builder {
    /* The tables handed to the core. */
    sc_state states[CB_MAX_STATES];
    sc_transition transitions[CB_MAX_TRANSITIONS];
    sc_event_info events[CB_MAX_EVENTS];
    sc_id targets[CB_MAX_POOL];
    sc_id descriptors[CB_MAX_POOL];
    const char *state_names[CB_MAX_STATES];
    const char *event_names[CB_MAX_EVENTS];
    sc_chart chart;

    /* Names. */
    char state_name[CB_MAX_STATES][CB_NAME];
    char event_name[CB_MAX_EVENTS][CB_NAME];
    char action_name[CB_MAX_ACTIONS][CB_NAME];
    char guard_name[CB_MAX_GUARDS][CB_NAME];
    char transition_name[CB_MAX_TRANSITIONS][CB_NAME]; /* final order; "" for unlabelled */
    uint32_t state_count, event_count, action_count, guard_count;

    /* The description before cb_finish. */
    cb_raw_transition raw[CB_MAX_TRANSITIONS];
    uint32_t raw_count;
    sc_id initial_raw[CB_MAX_STATES];       /* raw index of cb_initial's transition, or SC_NONE */
    uint8_t extra_flags[CB_MAX_STATES];     /* SC_STATE_HAS_INVOKE / SC_STATE_HAS_DONEDATA */
    bool finished;
    char error[160];                        /* first problem met, "" if none */
} cb_builder;

/** A fresh builder holding only the root "scxml" (calloc'ed; free with cb_free). */
cb_builder *cb_new(void);
void cb_free(cb_builder *b);

/** Appends a state in document order; parent NULL means the root. Returns its id. */
sc_id cb_state(cb_builder *b, const char *parent, sc_state_kind kind, const char *name);

/** ORs SC_STATE_HAS_INVOKE / SC_STATE_HAS_DONEDATA into a state's flags. */
void cb_flags(cb_builder *b, const char *state, uint8_t flags);

/** Interns an event name (and its dot prefixes). Returns its id. */
sc_id cb_event(cb_builder *b, const char *name);

/**
 * Adds a transition of `source`. `events`: space-separated descriptors ("*" any, "a.*" = "a"),
 * NULL or "" for eventless. `targets`: space-separated state names, NULL or "" for targetless.
 * `guard`: a guard name or NULL. `label`: names the transition and its action "take:<label>".
 */
void cb_trans(cb_builder *b, const char *source, const char *events, const char *targets,
              uint32_t flags, const char *guard, const char *label);

/** The initial transition of a compound state (or the root, "scxml") or a history's default. */
void cb_initial(cb_builder *b, const char *state, const char *targets, bool with_action);

/** Computes the derived fields and fills b->chart. False (and b->error) on a bad description. */
bool cb_finish(cb_builder *b);

/* Look-ups; SC_NONE when unknown. */
sc_id cb_find_state(const cb_builder *b, const char *name);
sc_id cb_find_event(const cb_builder *b, const char *name);
sc_id cb_find_guard(const cb_builder *b, const char *name);
sc_id cb_find_transition(const cb_builder *b, const char *label);

#endif /* CHART_BUILDER_H */
