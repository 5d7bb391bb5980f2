/*
 * reference_model.h - a deliberately naive, literal transcription of the W3C SCXML
 * interpretation algorithm (Appendix D) over a chart_builder description, used to check the
 * core on random charts. It shares nothing with the core but the chart's tree (parent, kind),
 * the transition lists and the event prefix chains: domains, LCCAs, exit and entry sets are
 * recomputed from parent pointers with ordered sets, exactly as the pseudo-code says.
 *
 * Deliberate departures from the literal pseudo-code, each matching the core's documented rules:
 *  - when a history state is dereferenced, addAncestorStatesToEnter(value, history.parent) adds
 *    ancestors only below the transition's domain. When the domain lies below the history's parent
 *    (q1 -> P.h whose value is q2, both in Q: domain Q), Appendix D re-adds the active Q (running
 *    its onentry again) and, if an active parallel state lies on that path, default-enters its
 *    "missing" regions next to the active ones: an illegal configuration;
 *  - getTransitionDomain is evaluated once per microstep, before exitStates records history,
 *    and used for both the exit and the entry set (Appendix D re-evaluates it in computeEntrySet;
 *    an internal transition to an ancestor's history can then get a smaller domain than the one
 *    its states were exited with, leaving exited ancestors out of the configuration);
 *  - cancelInvoke is reported only for invocations that were started;
 *  - the macrostep is bounded by max_steps (eventless microsteps + internal events consumed);
 *  - the internal queue has a capacity: <raise> into a full queue fails, the macrostep goes on,
 *    and start or dispatch then returns SC_ERR_QUEUE_FULL unless it returns an error already; a
 *    done event that does not fit ends the macrostep with SC_ERR_QUEUE_FULL once its microstep
 *    is complete.
 * Trace tokens are those of test_core.c's harness.
 */
#ifndef REFERENCE_MODEL_H
#define REFERENCE_MODEL_H

#include "chart_builder.h"

#define REF_QUEUE 64

typedef struct ref_machine {
    const cb_builder *b;
    const bool *guards;                      /* guard values by guard id */
    const sc_id *raise_on_action;            /* action id -> event raised by that content, or SC_NONE */
    uint32_t max_steps;
    bool active[CB_MAX_STATES];
    bool history_recorded[CB_MAX_STATES];
    bool history_value[CB_MAX_STATES][CB_MAX_STATES];
    bool to_invoke[CB_MAX_STATES];
    bool invoked[CB_MAX_STATES];
    sc_id queue[REF_QUEUE];
    uint32_t queue_head, queue_count;
    bool running, halted;
    sc_status failure;                       /* SC_ERR_QUEUE_FULL: a done event did not fit */
    bool lost_event;                         /* a raise did not fit: reported when the call ends */
    char trace[65536];
} ref_machine;

/** Initialises the model (not started). */
void ref_init(ref_machine *r, const cb_builder *b, const bool *guards, const sc_id *raise_on_action,
              uint32_t max_steps);

/** interpret(): enter the initial configuration and complete the first macrostep. */
sc_status ref_start(ref_machine *r);

/** One external event (SC_EVENT_UNKNOWN allowed), then complete the macrostep. */
sc_status ref_dispatch(ref_machine *r, sc_id event);

#endif /* REFERENCE_MODEL_H */
