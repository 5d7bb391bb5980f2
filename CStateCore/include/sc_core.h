/*
 * sc_core.h - CStateCore: a table-driven SCXML statechart core in C11.
 *
 * A compiled chart is a set of constant tables (sc_chart). A machine (sc_machine) is a
 * configuration bit array, history records and two event queues, all inside one block of
 * memory sized when the machine is created: the caller may supply that block (static
 * allocation in firmware) or let sc_machine_create() malloc it. Dispatching never allocates,
 * locks or blocks; behaviour (guards, executable content, observers) reaches the host through
 * the function pointers of sc_host.
 *
 * The semantics are those of the W3C SCXML Recommendation, Appendix D (the informative
 * interpretation algorithm): run-to-completion macrosteps, document-order selection,
 * conflict resolution, exit and entry sets via the transition domain, shallow and deep
 * history, done.state events, eventless transitions and internal/external transitions.
 *
 * Minimal use from C:
 *
 *     static const sc_state states[] = { ... };          // see the table layout below
 *     static const sc_chart chart = { ... };
 *     static const sc_host host = { .context = &app, .action = run_action };  // kept by reference
 *     sc_machine *m = sc_machine_create(&chart, &host, NULL);
 *     sc_machine_start(m);
 *     sc_event ev = { .id = EV_COIN };
 *     sc_machine_dispatch(m, ev);
 *     sc_machine_destroy(m);
 *
 * Every exported symbol is prefixed sc_. All indices are sc_id, uint32_t by default, so charts
 * with millions of states and transitions are representable (SC_CONFIG_ID_BITS narrows them for
 * small charts on small targets); bit arrays are sized per chart.
 */
#ifndef SC_CORE_H
#define SC_CORE_H

/*
 * Build configuration (define on the compiler's command line, the same for every file of the
 * core):
 *
 *   SC_CONFIG_NO_PLAN_CACHE=1   leave the microstep plan cache out (sc_plan.c): no cache in a
 *                               machine's block (sc_machine_size() tells what it holds) and less
 *                               code; every external event then runs the algorithm in full, with
 *                               the same behaviour and callbacks. Default 0: the cache is built
 *                               in (see sc_machine_set_host). CStateCore/README.md gives sizes.
 *
 *   SC_CONFIG_NO_PARALLEL=1     leave parallel states out (their completion and done events,
 *                               conflict removal between regions): a chart with an SC_PARALLEL
 *                               state is refused by sc_chart_check with SC_ERR_UNSUPPORTED.
 *   SC_CONFIG_NO_GUARDS=1       leave guards out (conditionMatch and its host call): a chart
 *                               whose transitions have a guard is refused by sc_chart_check (and
 *                               so by sc_machine_init/create) with SC_ERR_UNSUPPORTED.
 *   SC_CONFIG_NO_HISTORY=1      leave history states out (records, their defaults, transitions
 *                               to them; sc_history.c compiles to nothing): a chart with an
 *                               SC_HISTORY_SHALLOW or SC_HISTORY_DEEP state is refused.
 *   SC_CONFIG_NO_EVENTLESS=1    leave eventless transitions and done events out (the eventless
 *                               selection pass, done.state.<id>, isInFinalState, donedata): a
 *                               chart with a transition without events in a state's list, or a
 *                               final state below the root (done events), is refused.
 *   SC_CONFIG_NO_CONTENT=1      leave executable content and the internal queue out (the action
 *                               calls, sc_machine_raise and sc_machine_set_internal_queue, which
 *                               then return SC_ERR_UNSUPPORTED, the internal-event loop): a chart
 *                               with an on_entry, on_exit or transition action, or a final state
 *                               below the root (its done event is raised internally), is refused.
 *   SC_CONFIG_NO_INVOKE=1       leave invocations out (which states have invocations not started
 *                               yet, starting them at the end of a macrostep, cancelling them on
 *                               exit: the sc_host.invoke calls): a chart with a state flagged
 *                               SC_STATE_HAS_INVOKE is refused.
 *   SC_CONFIG_NO_FINAL=1        leave final states out (halting in a top-level final state and
 *                               exitInterpreter at the end of a macrostep, done events): a chart
 *                               with an SC_FINAL state is refused. sc_machine_stop still halts a
 *                               machine (and runs exitInterpreter), sc_machine_restore may restore
 *                               a halted one.
 *   SC_CONFIG_NO_DELAYED=1      the firmware has no timers: a chart flagged SC_CHART_DELAYED_SENDS
 *                               (its content starts and cancels timers) is refused. The core has
 *                               no clock of its own; the switch keeps such a chart out of a build
 *                               whose host provides none.
 *   SC_CONFIG_NO_QUEUE=1        leave the external queue out, for a firmware that dispatches one
 *                               event at a time: sc_machine_post and sc_machine_run return
 *                               SC_ERR_UNSUPPORTED, and so does sc_machine_dispatch from a callback
 *                               (where it would queue); sc_options.external_queue_capacity is not
 *                               used. With SC_CONFIG_NO_EVENTLESS and SC_CONFIG_NO_CONTENT as well
 *                               nothing loops (a call runs one microstep), so a machine keeps no
 *                               step bound (sc_options.max_steps) and no interrupt request
 *                               (sc_machine_interrupt does nothing).
 *   SC_CONFIG_NO_TABLE_CHECK=1  trust the tables' invariants: sc_chart_check (so sc_machine_size,
 *                               init and create) checks only what the build leaves out (the
 *                               switches above, the id width: SC_ERR_UNSUPPORTED, as always), not
 *                               the tree, ranges and target sets it otherwise proves, whose code
 *                               and messages are most of a small firmware's core. For tables
 *                               written by `statechart generate c`, which compiled them from a
 *                               chart that passed the full sc_chart_check, and compiled into the
 *                               firmware: tables that break an invariant then give undefined
 *                               behaviour, not SC_ERR_BAD_CHART. Hand-written or loaded tables
 *                               need the full check (the default; NAME_config.h sets this switch
 *                               only for a generated chart).
 *   SC_CONFIG_WORD_BITS=8|16|32|64  the width of sc_word, the words of a machine's bit arrays
 *                               (configuration, history records; default 64). Narrow words waste
 *                               fewer bytes on a small chart (a 3-state chart's configuration is
 *                               one byte with 8) and need no 64-bit shifts on a 32-bit core; wide
 *                               ones scan a large chart faster. Below 64 needs
 *                               SC_CONFIG_NO_PLAN_CACHE=1 (its keys are 64-bit words).
 *   SC_CONFIG_ID_BITS=8|16|32   the width of sc_id (default 32). Narrower ids shrink the tables,
 *                               the enabled list and, with 16 bits or fewer, sc_event to 8 bytes
 *                               on a 32-bit target (sc_event_flags is then 16 bits). A chart whose
 *                               counts or pools reach the three reserved ids at the top of the
 *                               width (SC_NONE, SC_EVENT_ANY, SC_EVENT_UNKNOWN) is refused.
 *                               The machine's header then keeps 16-bit offsets and queue
 *                               positions: the block up to its queue slots stays below 64 KiB
 *                               (sc_machine_size() 0, sc_machine_init SC_ERR_NO_MEMORY past it)
 *                               and a queue below 65,536 slots (sc_options and
 *                               sc_machine_set_internal_queue beyond it: SC_ERR_BAD_ARGUMENT).
 *
 *     cc -std=c11 -Os -DSC_CONFIG_NO_PLAN_CACHE=1 -ICStateCore/include -c CStateCore/sc_*.c
 */
#ifndef SC_CONFIG_NO_PLAN_CACHE
#define SC_CONFIG_NO_PLAN_CACHE 0
#endif
#ifndef SC_CONFIG_NO_GUARDS
#define SC_CONFIG_NO_GUARDS 0
#endif
#ifndef SC_CONFIG_NO_PARALLEL
#define SC_CONFIG_NO_PARALLEL 0
#endif
#ifndef SC_CONFIG_NO_HISTORY
#define SC_CONFIG_NO_HISTORY 0
#endif
#ifndef SC_CONFIG_NO_EVENTLESS
#define SC_CONFIG_NO_EVENTLESS 0
#endif
#ifndef SC_CONFIG_NO_CONTENT
#define SC_CONFIG_NO_CONTENT 0
#endif
#ifndef SC_CONFIG_NO_INVOKE
#define SC_CONFIG_NO_INVOKE 0
#endif
#ifndef SC_CONFIG_NO_FINAL
#define SC_CONFIG_NO_FINAL 0
#endif
#ifndef SC_CONFIG_NO_DELAYED
#define SC_CONFIG_NO_DELAYED 0
#endif
#ifndef SC_CONFIG_NO_TABLE_CHECK
#define SC_CONFIG_NO_TABLE_CHECK 0
#endif
#ifndef SC_CONFIG_NO_QUEUE
#define SC_CONFIG_NO_QUEUE 0
#endif
/* Which of a machine's counters and marks a build keeps, by the features that use them
 * (struct sc_machine in sc_internal.h, SC_MACHINE_HEADER_SIZE below): the step bound and the
 * interrupt request where something loops, a microstep's failure where a done event may not fit
 * its queue, the lost-event mark where a raise or post can be refused. */
#define SC_KEEPS_STEPS_ (!SC_CONFIG_NO_EVENTLESS || !SC_CONFIG_NO_CONTENT || !SC_CONFIG_NO_QUEUE)
#define SC_KEEPS_FAILURE_ (!SC_CONFIG_NO_EVENTLESS && !SC_CONFIG_NO_CONTENT && !SC_CONFIG_NO_FINAL)
#define SC_KEEPS_LOST_EVENT_ (!SC_CONFIG_NO_CONTENT || !SC_CONFIG_NO_QUEUE)
#ifndef SC_CONFIG_ID_BITS
#define SC_CONFIG_ID_BITS 32
#endif
#if SC_CONFIG_ID_BITS != 8 && SC_CONFIG_ID_BITS != 16 && SC_CONFIG_ID_BITS != 32
#error "SC_CONFIG_ID_BITS must be 8, 16 or 32"
#endif
#ifndef SC_CONFIG_WORD_BITS
#define SC_CONFIG_WORD_BITS 64
#endif
#if SC_CONFIG_WORD_BITS != 8 && SC_CONFIG_WORD_BITS != 16 && SC_CONFIG_WORD_BITS != 32 && SC_CONFIG_WORD_BITS != 64
#error "SC_CONFIG_WORD_BITS must be 8, 16, 32 or 64"
#endif
#if SC_CONFIG_WORD_BITS != 64 && !SC_CONFIG_NO_PLAN_CACHE
#error "SC_CONFIG_WORD_BITS below 64 needs SC_CONFIG_NO_PLAN_CACHE=1 (the plan cache keys configurations by 64-bit words)"
#endif
#if SC_CONFIG_ID_BITS != 32 && !SC_CONFIG_NO_PLAN_CACHE
#error "SC_CONFIG_ID_BITS below 32 needs SC_CONFIG_NO_PLAN_CACHE=1 (the plan cache's sizes in SC_MACHINE_SIZE are for 32-bit ids)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------
 * Ids and status codes
 * ------------------------------------------------------------------------------------- */

/** Index of a state, transition, event, guard or action: SC_CONFIG_ID_BITS wide (default 32). */
/* SC_NONE ("no such thing": no parent, no action, no guard, a targetless transition's domain) is
 * the largest sc_id; SC_EVENT_ANY (the descriptor "*", matching every event) and SC_EVENT_UNKNOWN
 * (an event whose name, and no prefix of it, the chart knows: matches "*" only) are the two below
 * it, so every count of a chart stays below SC_EVENT_UNKNOWN (sc_chart_check). Plain literals, so
 * Swift imports them. */
#if SC_CONFIG_ID_BITS == 8
typedef uint8_t sc_id;
#define SC_NONE ((sc_id)0xFFu)
#define SC_EVENT_ANY ((sc_id)0xFEu)
#define SC_EVENT_UNKNOWN ((sc_id)0xFDu)
#elif SC_CONFIG_ID_BITS == 16
typedef uint16_t sc_id;
#define SC_NONE ((sc_id)0xFFFFu)
#define SC_EVENT_ANY ((sc_id)0xFFFEu)
#define SC_EVENT_UNKNOWN ((sc_id)0xFFFDu)
#else
typedef uint32_t sc_id;
#define SC_NONE ((sc_id)0xFFFFFFFFu)
#define SC_EVENT_ANY ((sc_id)0xFFFFFFFEu)
#define SC_EVENT_UNKNOWN ((sc_id)0xFFFFFFFDu)
#endif

/** A word of a machine's bit arrays (the configuration: bit s of word s / SC_CONFIG_WORD_BITS is
 * state s): SC_CONFIG_WORD_BITS wide (default 64). */
#if SC_CONFIG_WORD_BITS == 8
typedef uint8_t sc_word;
#elif SC_CONFIG_WORD_BITS == 16
typedef uint16_t sc_word;
#elif SC_CONFIG_WORD_BITS == 32
typedef uint32_t sc_word;
#else
typedef uint64_t sc_word;
#endif

/** Words of a bit array of n bits (a configuration: n = sc_chart.state_count). */
#define SC_BIT_WORDS(n) (((size_t)(n) + (SC_CONFIG_WORD_BITS - 1u)) / SC_CONFIG_WORD_BITS)

/** sc_event.flags: 32 bits, or 16 with ids of 16 bits or fewer, so an event is 8 bytes on a
 * 32-bit target. */
#if SC_CONFIG_ID_BITS < 32
typedef uint16_t sc_event_flags;
#else
typedef uint32_t sc_event_flags;
#endif

/** Result of an sc_ call. Negative values are errors, non-negative values are outcomes. */
typedef enum sc_status {
    SC_OK = 0,               /**< the event enabled at least one transition (or the call succeeded) */
    SC_UNHANDLED = 1,        /**< the external event enabled no transition */
    SC_QUEUED = 2,           /**< called during a macrostep: the event went to the external queue */
    SC_HALTED = 3,           /**< the machine has reached a top-level final state; event ignored */
    SC_ERR_RUNAWAY = -1,     /**< a macrostep exceeded max_steps; stopped between two microsteps */
    SC_ERR_QUEUE_FULL = -2,  /**< an event queue was full; the event was not queued */
    SC_ERR_BAD_CHART = -3,   /**< the tables break an invariant (see sc_chart_check) */
    SC_ERR_NO_MEMORY = -4,   /**< allocation failed, or the supplied block is too small */
    SC_ERR_BAD_ARGUMENT = -5,/**< an id out of range, a NULL pointer */
    SC_ERR_NOT_STARTED = -6, /**< sc_machine_start() has not run yet */
    SC_ERR_BUSY = -7,        /**< the call is not allowed from inside a callback */
    SC_ERR_INTERRUPTED = -8, /**< sc_machine_interrupt() stopped the macrostep between two microsteps */
    SC_ERR_BAD_TARGETS = -9, /**< a transition's targets, history resolved, cannot be active together:
                                  it was not taken (reported through sc_host.error) */
    SC_ERR_UNSUPPORTED = -10 /**< the tables use a feature this build of the core leaves out
                                  (SC_CONFIG_NO_*; sc_chart_check names the table and index) */
} sc_status;

/** A short English description of a status code ("runaway eventless loop", ...). */
const char *sc_status_text(sc_status status);

/* ---------------------------------------------------------------------------------------
 * Chart tables
 *
 * States are listed in document order, index 0 being the <scxml> root (kind SC_COMPOUND,
 * parent SC_NONE). Because of document order, the descendants of state s are exactly the
 * states s+1 .. last_descendant: "is d a descendant of s" is a range test, the children of s
 * are found by hopping from s+1 over each child's subtree, and the exit set of a transition
 * is "every active state in its domain's range". Two transitions' exit sets intersect exactly
 * when one domain lies in the range of the other, so no per-transition bit arrays are needed
 * and the tables stay linear in the chart's size.
 *
 * Transitions are listed grouped by source state, in document order within each state;
 * state.first_transition/transition_count select a state's group. A state's <initial> (or
 * 'initial' attribute, or first child by default) and a history state's default are also
 * transitions, referenced by state.initial and not part of the state's group.
 * ------------------------------------------------------------------------------------- */

typedef enum sc_state_kind {
    SC_ATOMIC = 0,
    SC_COMPOUND = 1,
    SC_PARALLEL = 2,
    SC_FINAL = 3,
    SC_HISTORY_SHALLOW = 4,
    SC_HISTORY_DEEP = 5
} sc_state_kind;

/* sc_state.flags */
#define SC_STATE_HAS_INVOKE   0x01u /**< host->invoke is called when the state is entered/exited */
#define SC_STATE_HAS_HISTORY  0x02u /**< has a <history> child (checked on exit and entry) */
#define SC_STATE_HAS_DONEDATA 0x04u /**< final state: host->done_data fills the done event's data */

/* Bit 63 of the event masks stands for "has an eventless transition". */
#define SC_MASK_EVENTLESS (UINT64_C(1) << 63)

typedef struct sc_state {
    sc_id parent;           /**< SC_NONE for the root only */
    sc_id last_descendant;  /**< descendants are (index, last_descendant]; == index for leaves */
    sc_id first_transition; /**< this state's transitions: [first_transition, +transition_count) */
    uint32_t transition_count;
    sc_id initial;          /**< compound: default-entry transition; history: default transition */
    sc_id on_entry;         /**< action id run on entry, or SC_NONE */
    sc_id on_exit;          /**< action id run on exit, or SC_NONE */
    sc_id done_event;       /**< compound/parallel: id of "done.state.<id>", else SC_NONE */
    uint64_t own_mask;      /**< filter: OR of sc_event_bit() of this state's descriptors */
    uint64_t path_mask;     /**< own_mask OR'ed over this state and all its ancestors */
    uint8_t kind;           /**< sc_state_kind */
    uint8_t flags;          /**< SC_STATE_* */
    uint16_t depth;         /**< 0 for the root */
    uint32_t reserved;      /**< zero */
} sc_state;

/* sc_transition.flags */
#define SC_TRANSITION_INTERNAL       0x01u /**< type="internal" */
#define SC_TRANSITION_DYNAMIC_DOMAIN 0x02u /**< targets a history state: domain computed when taken */

typedef struct sc_transition {
    sc_id source;
    sc_id domain;           /**< precomputed transition domain; SC_NONE when targetless */
    uint32_t targets_offset;/**< targets are chart->targets[targets_offset .. +target_count) */
    uint32_t target_count;  /**< 0: targetless */
    uint32_t events_offset; /**< descriptors are chart->descriptors[events_offset .. +event_count) */
    uint32_t event_count;   /**< 0: eventless */
    sc_id guard;            /**< guard id passed to host->guard, or SC_NONE (always enabled) */
    sc_id action;           /**< action id run when the transition is taken, or SC_NONE */
    uint32_t flags;         /**< SC_TRANSITION_* */
    uint32_t reserved;      /**< zero */
} sc_transition;

/**
 * An interned event name. Events are matched by id, never by string: the descriptor "a.b"
 * matches event "a.b.c" because "a.b" is on the prefix chain of "a.b.c" (prefix = the name
 * without its last dot-separated token).
 */
typedef struct sc_event_info {
    sc_id prefix;           /**< id of this name minus its last token, or SC_NONE */
    uint32_t reserved;      /**< zero */
    uint64_t mask;          /**< OR of sc_event_bit() over this id and its prefix chain */
} sc_event_info;

typedef struct sc_chart {
    uint32_t state_count;
    uint32_t transition_count;
    uint32_t event_count;
    uint32_t target_pool_count;
    uint32_t descriptor_pool_count;
    uint32_t flags;                     /**< SC_CHART_* bits; other bits zero */
    const sc_state *states;
    const sc_transition *transitions;
    const sc_event_info *events;
    const sc_id *targets;               /**< transition target pool */
    const sc_id *descriptors;           /**< event descriptor pool: event ids or SC_EVENT_ANY */
    const char *const *state_names;     /**< optional (may be NULL): ids for diagnostics */
    const char *const *event_names;     /**< optional (may be NULL) */
} sc_chart;

/**
 * sc_chart.flags: the chart's executable content never queues an event on the machine running
 * it: the host's action (and guard) callbacks never call sc_machine_raise(), sc_machine_post()
 * or sc_machine_dispatch() for this chart's machines. The core then gives its machines the
 * default queues of a silent chart (see sc_options): no internal slot and one external one
 * instead of 8 + 8 (15 sc_event slots less per machine). It changes only those
 * defaults: a host that raises anyway, or posts more than a slot, gets SC_ERR_QUEUE_FULL (or
 * grows the internal queue from sc_host.queue_full), never a lost event (from a callback the
 * entry point returns it too). `statechart generate c` sets it for documents whose generated guards and
 * actions are all empty (their content would be C that may raise error.execution):
 *
 *     const sc_chart turnstile_chart = { ..., .flags = SC_CHART_QUIET_CONTENT };
 */
#define SC_CHART_QUIET_CONTENT 0x1u

/**
 * sc_chart.flags: the chart's executable content starts and cancels timers (<send> with a delay,
 * <cancel>), which the host provides. A core built with SC_CONFIG_NO_DELAYED (a firmware with no
 * timers) refuses the chart. `statechart generate c` sets it for such documents.
 */
#define SC_CHART_DELAYED_SENDS 0x2u

/** The filter bit an event or descriptor id contributes to own_mask/path_mask/event masks. */
static inline uint64_t sc_event_bit(sc_id id) {
    return id == SC_EVENT_ANY ? ~SC_MASK_EVENTLESS : (UINT64_C(1) << (id % 63u));
}

/** What sc_chart_check found wrong: the offending table and index. */
typedef struct sc_chart_error {
    const char *message;    /**< static string: what invariant is broken */
    const char *table;      /**< "states", "transitions", "events", "targets", "descriptors", or
                                 "chart" for sc_chart.flags */
    uint32_t index;
} sc_chart_error;

/**
 * Verifies every invariant the machine relies on, so hand-built or corrupted tables give an
 * error instead of undefined behaviour, in bounded time on any table: O(states + transitions +
 * pools), plus, per transition, O(targets^2 x depth) to check that its targets (each history
 * counted by its default targets) can be active together. A root whose initial transition
 * targets two of its children, or a transition to "a1 b1" where both lie in one compound state,
 * is rejected. Returns SC_OK, or SC_ERR_BAD_CHART (or SC_ERR_UNSUPPORTED: a feature this build
 * leaves out, SC_CONFIG_NO_*) with *error filled (error may be NULL).
 */
sc_status sc_chart_check(const sc_chart *chart, sc_chart_error *error);

/**
 * Whether states `a` and `b` of a chart that passed sc_chart_check can be active at once: one
 * contains the other, or their lowest common ancestor is a parallel state. (False: they lie in
 * two children of one compound state.) False for ids out of range.
 *
 *     if (!sc_chart_can_be_active_together(&chart, S_A1, S_B1)) reject("a1 and b1 exclude each other");
 */
bool sc_chart_can_be_active_together(const sc_chart *chart, sc_id a, sc_id b);

/**
 * Computes the filter masks of mutable tables being built by hand: events[e].mask from the
 * prefix chains, and states[s].own_mask/path_mask from the transitions' descriptors.
 * `states` and `events` alias chart->states and chart->events (either may be NULL to skip).
 * The tables are checked first as sc_chart_check does, masks aside: SC_ERR_BAD_CHART (nothing
 * written) when they are inconsistent, else SC_OK.
 */
sc_status sc_chart_fill_masks(const sc_chart *chart, sc_state *states, sc_event_info *events);

/* ---------------------------------------------------------------------------------------
 * Events
 * ------------------------------------------------------------------------------------- */

/** An event instance: an interned id plus an opaque word the host uses for payloads. */
typedef struct sc_event {
    sc_id id;               /**< sc_event_info index, or SC_EVENT_UNKNOWN */
    sc_event_flags flags;   /**< host-defined (e.g. internal/external/platform origin) */
    uintptr_t data;         /**< host-defined payload handle, carried untouched */
} sc_event;

/* ---------------------------------------------------------------------------------------
 * Host callbacks
 * ------------------------------------------------------------------------------------- */

typedef struct sc_machine sc_machine;

/**
 * Behaviour supplied by the host. Only `guard` (when the chart has guards) and `action` (when it
 * has actions) are required; every other pointer may be NULL. `event` is the event that
 * triggered the current microstep, or NULL for eventless microsteps and the initial entry.
 * Callbacks may call sc_machine_raise(), sc_machine_post(), sc_machine_dispatch() (which then
 * queues) and the read-only accessors; they must not call start/restore/destroy.
 */
typedef struct sc_host {
    void *context;
    /** Returns true when the guard `guard` holds. */
    bool (*guard)(void *context, sc_machine *machine, sc_id guard, const sc_event *event);
    /** Runs executable content `action` (entry, exit, transition, initial or history content). */
    void (*action)(void *context, sc_machine *machine, sc_id action, const sc_event *event);
    /** Observer: `state` was added to the configuration (before its on_entry action). */
    void (*entered)(void *context, sc_machine *machine, sc_id state);
    /** Observer: `state` was removed from the configuration (after its on_exit action). */
    void (*exited)(void *context, sc_machine *machine, sc_id state);
    /** Observer: transition `transition` is being taken (just before its action). */
    void (*taken)(void *context, sc_machine *machine, sc_id transition, const sc_event *event);
    /** Start (`start` true) or cancel the invocations of a state flagged SC_STATE_HAS_INVOKE. */
    void (*invoke)(void *context, sc_machine *machine, sc_id state, bool start);
    /** Fill `done->data` for a final state flagged SC_STATE_HAS_DONEDATA. */
    void (*done_data)(void *context, sc_machine *machine, sc_id final_state, sc_event *done);
    /** The core has finished with an event from one of its queues (payload may be released). */
    void (*release)(void *context, sc_machine *machine, const sc_event *event);
    /**
     * Optional: transition `transition` could not be taken because of `status`; the machine
     * stays in a legal configuration and goes on. Today: SC_ERR_BAD_TARGETS, a transition to a
     * history state whose recorded value, with the other targets, cannot be active together.
     * SCXML hosts raise error.execution here (sc_machine_raise is allowed):
     *
     *     static void on_error(void *ctx, sc_machine *m, sc_status status, sc_id transition) {
     *         (void)ctx; (void)status; (void)transition;
     *         sc_machine_raise(m, (sc_event){ .id = EV_ERROR_EXECUTION });
     *     }
     */
    void (*error)(void *context, sc_machine *machine, sc_status status, sc_id transition);
    /**
     * Optional: the internal queue is full and an event is about to be refused. The host may
     * call sc_machine_set_internal_queue() with larger storage; the core then retries once.
     * Without it (or if the queue stays full) sc_machine_raise() returns SC_ERR_QUEUE_FULL (from
     * a callback, the entry point running the macrostep then returns it too), and a done event
     * the core raises ends the macrostep with SC_ERR_QUEUE_FULL.
     */
    void (*queue_full)(void *context, sc_machine *machine);
} sc_host;

/* ---------------------------------------------------------------------------------------
 * Machines
 * ------------------------------------------------------------------------------------- */

/**
 * Sizes of a machine. Each queue slot is one sc_event (16 bytes; 12 on 32-bit targets). The
 * defaults are small, for firmware: 8 + 8 slots, or for a silent chart, one that queues nothing
 * by itself (no executable content, where <raise> and <send> live, or content that queues
 * nothing: SC_CHART_QUIET_CONTENT; no done events, invocations or history states), no internal
 * slot and one external one: nothing in the chart raises, and the external slot takes one event
 * the host posts before sc_machine_run(). A host that raises into a silent chart's machine
 * anyway gets SC_ERR_QUEUE_FULL from sc_machine_raise() (from a callback, from the entry point
 * running the macrostep too), unless it grows the queue from sc_host.queue_full or asks for
 * slots here. A chart
 * that raises more events in one macrostep than the internal queue holds needs a larger
 * capacity here, or a host that grows the queue from sc_host.queue_full; nothing is dropped
 * either way (SC_ERR_QUEUE_FULL).
 */
typedef struct sc_options {
    uint32_t internal_queue_capacity;   /**< 0: 8 (a silent chart: none); SC_QUEUE_NONE: no slots in the
                                             block (the host supplies them: sc_machine_set_internal_queue,
                                             sc_machine_share_internal_queue) */
    uint32_t external_queue_capacity;   /**< 0: 8 (a silent chart: 1); SC_QUEUE_NONE: no external queue */
    uint32_t max_steps;                 /**< microsteps + internal events per macrostep; 0: 100000 */
    uint32_t flags;                     /**< SC_MACHINE_* bits; 0: none (any other bit:
                                             SC_ERR_BAD_ARGUMENT, see sc_machine_init) */
} sc_options;

/**
 * sc_options.flags: the chart is trusted. sc_machine_size(), sc_machine_init() and
 * sc_machine_create() then skip sc_chart_check(), which is O(chart) and often dominates the cost
 * of making a machine of a large chart. The caller vouches that sc_chart_check() returned SC_OK
 * for this very chart (the same tables, unchanged since): a chart that would fail the check gives
 * undefined behaviour (out-of-range reads, endless loops), not an error. Check once, then make
 * many machines:
 *
 *     if (sc_chart_check(&chart, &error) != SC_OK) return report(&error);
 *     sc_options options = { .flags = SC_MACHINE_TRUSTED_CHART };
 *     for (size_t i = 0; i < count; i++) machines[i] = sc_machine_create(&chart, &host, &options);
 */
#define SC_MACHINE_TRUSTED_CHART 0x1u

/**
 * sc_options.flags: the machine never records or replays a plan (the microstep cache described
 * at sc_machine_set_host): every external event runs the full algorithm, with the same behaviour
 * and callbacks. For comparing the fast paths against the algorithm, and for debugging; slower.
 * (Builds with SC_CONFIG_NO_PLAN_CACHE=1 behave so always.)
 *
 *     sc_options reference = { .flags = SC_MACHINE_NO_PLANS };
 */
#define SC_MACHINE_NO_PLANS 0x2u

/**
 * sc_options.external_queue_capacity for a host that queues the events its callbacks send on
 * its own (the Swift runtime does, in a queue that grows), or a firmware that dispatches one event
 * at a time: the machine has no external queue, so one job is not done by two queues.
 * sc_machine_post() and sc_machine_dispatch() from a callback then return SC_ERR_QUEUE_FULL (the
 * event stays the caller's). As internal_queue_capacity: no internal slots in the block, for a
 * host that supplies them (sc_machine_set_internal_queue, sc_machine_share_internal_queue);
 * until it does, a raise is refused (SC_ERR_QUEUE_FULL).
 *
 *     sc_options options = { .external_queue_capacity = SC_QUEUE_NONE };
 */
#define SC_QUEUE_NONE UINT32_MAX

/**
 * Bytes of memory a machine for `chart` needs with `options` (NULL: defaults), or 0 when the
 * chart fails sc_chart_check (not checked with SC_MACHINE_TRUSTED_CHART or in a build with
 * SC_CONFIG_NO_TABLE_CHECK), options->flags has an unknown bit or a capacity is out of range. The
 * block must be aligned for uint64_t.
 */
size_t sc_machine_size(const sc_chart *chart, const sc_options *options);

/*
 * SC_MACHINE_SIZE: sc_machine_size() as an integer constant expression of the build it is
 * compiled in (pointer and sc_event sizes of the target, SC_CONFIG_* switches), so a firmware
 * sizes a static block exactly, with no host's figure copied in. Its arguments are facts of the
 * chart and the queue capacities, which `statechart generate c` writes as NAME_MACHINE_SIZE:
 *
 *   states                 sc_chart.state_count
 *   atomic_states          atomic and final states
 *   max_active_atomic      most atomic states active at once: 1 + the sum over parallel states of
 *                          (regions - 1), at most atomic_states
 *   events                 sc_chart.event_count
 *   history_states         history states
 *   history_record_words   sum over history states h of SC_BIT_WORDS(descendants of h's parent)
 *   has_invoke             1 when a state has SC_STATE_HAS_INVOKE, else 0
 *   has_parallel           1 when a state is SC_PARALLEL, else 0
 *   has_guards             1 when a transition has a guard, else 0
 *   internal_slots, external_slots   the capacities the machine gets (sc_options, defaults
 *                          resolved; 0 for SC_QUEUE_NONE; internal_slots counts for nothing
 *                          with SC_CONFIG_NO_CONTENT, which has no internal queue, external_slots
 *                          nothing with SC_CONFIG_NO_QUEUE)
 *
 *     static uint64_t block[(SC_MACHINE_SIZE(3, 2, 1, 2, 0, 0, 0, 0, 0, 0, 1) + 7u) / 8u];
 *
 * It mirrors the block's layout (sc_internal.h) term by term: the core's tests compare it with
 * sc_machine_size() on many charts, and the generated-C suite on every generated one, so a change
 * of the layout that forgets it fails them.
 */
#ifdef __cplusplus
#define SC_ALIGNOF_(type) alignof(type)
#else
#define SC_ALIGNOF_(type) _Alignof(type)
#endif
#define SC_ALIGN_(n, a) ((((size_t)(n)) + ((size_t)(a) - 1u)) / (size_t)(a) * (size_t)(a))
#define SC_SIZE_ROUND8_(n) SC_ALIGN_(n, 8u)
#define SC_SIZE_WORDS_(states) SC_BIT_WORDS(states)
/* Offsets into a block and queue positions: 16 bits with narrow ids (a block below 64 KiB, queues
 * below 65,536 slots: sc_machine_size, sc_machine_set_internal_queue), else 32. */
#define SC_OFFSET_BYTES_ (SC_CONFIG_ID_BITS < 32 ? 2u : 4u)
/* The header, struct sc_machine (sc_internal.h), field by field, sorted by size so only its end is
 * padded: pointers (chart, host; the plan cache's two; the internal queue's slots), 32-bit fields
 * (the step bound; with the plan cache W and the configuration's offset), offsets and queue
 * positions (with history the history index's and enabled list's offsets, three per queue), ids
 * (the enabled list's count; its capacity with parallel states; the eventless counter) and bytes
 * (busy, flags; invocations pending with invocations; the failure, interrupt and lost-event marks, the observers
 * of the plans, where kept: SC_KEEPS_*_ above); then, to the plan
 * cache's 8 bytes or the bit arrays' sc_word. */
#define SC_HEADER_ALIGN_ (SC_ALIGNOF_(void *) > 4u ? SC_ALIGNOF_(void *) : 4u)
#define SC_MACHINE_HEADER_SIZE                                                                      \
    SC_ALIGN_(SC_ALIGN_((2u + (SC_CONFIG_NO_PLAN_CACHE ? 0u : 2u) + (SC_CONFIG_NO_CONTENT ? 0u : 1u)) * sizeof(void *) \
                        + ((SC_KEEPS_STEPS_ ? 1u : 0u) + (SC_CONFIG_NO_PLAN_CACHE ? 0u : 2u)) * sizeof(uint32_t) \
                        + ((SC_CONFIG_NO_HISTORY ? 0u : 2u) + (SC_CONFIG_NO_QUEUE ? 0u : 3u)             \
                           + (SC_CONFIG_NO_CONTENT ? 0u : 3u)) * SC_OFFSET_BYTES_                        \
                        + (1u + (SC_CONFIG_NO_PARALLEL ? 0u : 1u) + (SC_CONFIG_NO_EVENTLESS ? 0u : 1u)) * sizeof(sc_id) \
                        + (SC_CONFIG_NO_INVOKE ? 2u : 3u) + (SC_KEEPS_FAILURE_ ? 1u : 0u) + (SC_KEEPS_STEPS_ ? 1u : 0u)               \
                        + (SC_KEEPS_LOST_EVENT_ ? 1u : 0u) + (SC_CONFIG_NO_PLAN_CACHE ? 0u : 1u),        \
                        SC_HEADER_ALIGN_),                                                                \
              SC_CONFIG_NO_PLAN_CACHE ? SC_ALIGNOF_(sc_word) : 8u)
#if SC_CONFIG_NO_PLAN_CACHE
#define SC_PLAN_CACHE_SIZE_(states, atomic_states, events, has_parallel, has_guards, has_invoke) ((size_t)0)
#else
/* sc_plan.h: a 16-byte header, 4 ways x sets plans of 24 bytes, as many 72-byte steps with guards
 * or invocations (or more than 4 configuration words), and for 2-4 configuration words a key and
 * a next configuration per plan. Sets: 4 with parallel states, else enough for (atomic x events)
 * pairs. */
#define SC_PLAN_SETS_(atomic_states, events, has_parallel)                                   \
    ((has_parallel) ? 4u                                                                     \
     : (size_t)(atomic_states) * ((events) ? (size_t)(events) : 1u) <= 4u ? 1u               \
     : (size_t)(atomic_states) * ((events) ? (size_t)(events) : 1u) <= 8u ? 2u : 4u)
#define SC_PLAN_KEY_WORDS_(states) \
    (SC_SIZE_WORDS_(states) > 1u && SC_SIZE_WORDS_(states) <= 4u ? SC_SIZE_WORDS_(states) : 0u)
#define SC_PLAN_CACHE_SIZE_(states, atomic_states, events, has_parallel, has_guards, has_invoke)     \
    SC_SIZE_ROUND8_(16u + 4u * SC_PLAN_SETS_(atomic_states, events, has_parallel) *                  \
                              (24u + ((has_guards) || (has_invoke) || SC_SIZE_WORDS_(states) > 4u ? 72u : 0u) \
                               + 16u * SC_PLAN_KEY_WORDS_(states)))
#endif
/* The block after the header (sc_internal.h), each array at its element's alignment: the bit
 * arrays and history records (sc_word), the history index (offsets), the enabled list (ids), the
 * queues' slots (sc_event). */
#define SC_BLOCK_INDEX_AT_(states, atomic_states, events, history_states, history_record_words,     \
                           has_invoke, has_parallel, has_guards)                                     \
    SC_ALIGN_(SC_MACHINE_HEADER_SIZE + SC_PLAN_CACHE_SIZE_(states, atomic_states, events, has_parallel, has_guards, has_invoke) \
              + ((2u + ((history_states) ? 2u : 0u) + ((has_invoke) ? 1u : 0u)) * SC_SIZE_WORDS_(states) \
                 + (size_t)(history_record_words)) * sizeof(sc_word),                                  \
              SC_OFFSET_BYTES_)
#define SC_BLOCK_SLOTS_AT_(states, atomic_states, max_active_atomic, events, history_states,          \
                           history_record_words, has_invoke, has_parallel, has_guards)                 \
    SC_ALIGN_(SC_ALIGN_(SC_BLOCK_INDEX_AT_(states, atomic_states, events, history_states, history_record_words, \
                                           has_invoke, has_parallel, has_guards)                       \
                        + (size_t)(history_states) * 2u * SC_OFFSET_BYTES_, SC_ALIGNOF_(sc_id))        \
              + (size_t)(max_active_atomic) * 2u * sizeof(sc_id), SC_ALIGNOF_(sc_event))
#define SC_MACHINE_SIZE(states, atomic_states, max_active_atomic, events, history_states,            \
                        history_record_words, has_invoke, has_parallel, has_guards, internal_slots,  \
                        external_slots)                                                              \
    (SC_BLOCK_SLOTS_AT_(states, atomic_states, max_active_atomic, events, history_states,            \
                        history_record_words, has_invoke, has_parallel, has_guards)                  \
     + (SC_CONFIG_NO_QUEUE ? 0u : (size_t)(external_slots) * sizeof(sc_event))                       \
     + (SC_CONFIG_NO_CONTENT ? 0u : (size_t)(internal_slots) * sizeof(sc_event)))

/**
 * Builds a machine inside the caller's block `memory` of `size` bytes (static allocation).
 * `chart` and `host` must outlive the machine. The machine keeps `host` by reference, not a
 * copy (machines of a program share one table instead of each carrying one): the struct must stay
 * where it is and unchanged while the machine uses it; to change callbacks, see
 * sc_machine_set_host(). Machines with the same callbacks and context may share one struct:
 *
 *     static const sc_host host = { .context = &app, .action = run_action };   // not a local
 *     static uint64_t block[SIZE / 8];                 // SIZE >= sc_machine_size(&chart, NULL)
 *     sc_machine *m;
 *     if (sc_machine_init(&m, block, sizeof block, &chart, &host, NULL) != SC_OK) fail();
 *
 * The machine is not started. Returns SC_OK, SC_ERR_BAD_CHART (SC_ERR_UNSUPPORTED: a feature
 * this build leaves out), SC_ERR_NO_MEMORY (block too small) or
 * SC_ERR_BAD_ARGUMENT (a NULL pointer, or an unknown bit in options->flags).
 */
sc_status sc_machine_init(sc_machine **machine, void *memory, size_t size, const sc_chart *chart,
                          const sc_host *host, const sc_options *options);

/** malloc()s and initialises a machine; NULL when the chart is invalid, options->flags has an
 * unknown bit or memory runs out. `host` is kept by reference, as by sc_machine_init(). With
 * sc_machine_destroy, the core's only use of the heap (sc_machine_alloc.c): a firmware that
 * calls neither links no malloc or free. */
sc_machine *sc_machine_create(const sc_chart *chart, const sc_host *host, const sc_options *options);

/** Frees a machine made by sc_machine_create(). Releases queued events. No actions run. */
void sc_machine_destroy(sc_machine *machine);

/**
 * Replaces the host callbacks and context, also from inside a callback; the next call the core
 * makes uses the new ones. As with sc_machine_init(), the machine keeps `host` by reference: it
 * must stay valid and unchanged while the machine uses it. A host that edits the struct the
 * machine uses calls this afterwards with the same pointer, before the core next runs, so the
 * machine sees which observers came or went:
 *
 *     app->host.entered = on_entered;          // app->host is the struct m uses
 *     sc_machine_set_host(m, &app->host);
 * Install observers (entered, exited, taken),
 * and `release` when events carry payloads, only while needed: a machine caches the microsteps
 * it has taken, and replays a cached microstep that makes no callback by copying in the
 * configuration it leads to. Installing or removing an observer drops the cache. Returns SC_OK, or
 * SC_ERR_BAD_ARGUMENT for NULL arguments.
 */
sc_status sc_machine_set_host(sc_machine *machine, const sc_host *host);

/**
 * Enters the initial configuration (the root's initial transition) and completes that
 * macrostep: eventless transitions and raised events run until the machine is stable.
 * Returns SC_OK or an error; SC_ERR_QUEUE_FULL also when a callback's raise or post was
 * refused (see sc_machine_raise), the macrostep complete all the same.
 */
sc_status sc_machine_start(sc_machine *machine);

/**
 * Processes one external event: selects and takes its transitions, then runs eventless
 * transitions and internal events until stable, then starts pending invocations.
 * Called from inside a callback, the event is appended to the external queue instead
 * (SC_QUEUED); it stays there until the host calls sc_machine_run() (the outer
 * sc_machine_dispatch() does not drain the external queue).
 * Returns SC_OK, SC_UNHANDLED, SC_QUEUED, SC_HALTED or an error. SC_ERR_QUEUE_FULL: a
 * callback's raise, post or dispatch was refused by a full queue (see sc_machine_raise); the
 * macrostep was completed all the same, and the machine goes on:
 *
 *     sc_status s = sc_machine_dispatch(m, (sc_event){ .id = EV_BUTTON });
 *     if (s == SC_ERR_QUEUE_FULL) log_lost_event();   // size the queues up (sc_options)
 */
sc_status sc_machine_dispatch(sc_machine *machine, sc_event event);

/**
 * Sets (`interrupt` true) or clears the machine's interrupt request; callable from any thread,
 * also while another thread runs a macrostep (the request is an atomic flag, the only field of
 * a machine another thread may touch). While it is set, a macrostep stops before its next
 * eventless microstep or internal event with SC_ERR_INTERRUPTED, in a legal configuration, as
 * a runaway one does at max_steps. It stays set until cleared, so the host clears it before
 * it next wants work done. Hosts use it for a wall-clock timeout: the core has no clock. In a
 * build where nothing loops (SC_CONFIG_NO_EVENTLESS, SC_CONFIG_NO_CONTENT and SC_CONFIG_NO_QUEUE:
 * every call runs one microstep) there is nothing to stop, and it does nothing.
 */
void sc_machine_interrupt(sc_machine *machine, bool interrupt);

/**
 * Appends `event` to the internal queue (SCXML <raise>). When the queue is full, the host's
 * queue_full callback may grow it; if it stays full, SC_ERR_QUEUE_FULL (the event is not queued
 * and stays the caller's).
 *
 * From a callback (the machine busy) a refused event is also never lost unreported, even when
 * the callback ignores this status (generated content does): the macrostep goes on with the
 * events that fit, in order, and the entry point running it (sc_machine_start,
 * sc_machine_dispatch or sc_machine_run) returns SC_ERR_QUEUE_FULL once it is over, unless it
 * returns another error (sc_machine_stop, whose exit discards the queues anyway, does not).
 * The Swift runtime's `raise` behaves the same (MachineError.queueFull).
 */
sc_status sc_machine_raise(sc_machine *machine, sc_event event);

/**
 * Moves the internal queue into `storage` (`capacity` events, capacity >= the events queued),
 * keeping their order; the machine uses that storage from then on, until the next call. The
 * storage must stay valid until the machine is destroyed or given other storage (the block's
 * own slots are not used again). Allowed from callbacks, typically from sc_host.queue_full:
 *
 *     static void grow(void *context, sc_machine *m) {
 *         app *a = context;
 *         uint32_t capacity = a->capacity * 2;
 *         sc_event *bigger = malloc(capacity * sizeof *bigger);
 *         if (bigger && sc_machine_set_internal_queue(m, bigger, capacity) == SC_OK) {
 *             free(a->storage);                    // the core no longer uses it
 *             a->storage = bigger, a->capacity = capacity;
 *         } else free(bigger);
 *     }
 *
 * Returns SC_OK, or SC_ERR_BAD_ARGUMENT (nothing changed) for a NULL machine or storage or a
 * capacity below the number of queued events.
 */
sc_status sc_machine_set_internal_queue(sc_machine *machine, sc_event *storage, uint32_t capacity);

/**
 * Slots that the internal queues of several machines take turns on. A machine's internal queue
 * holds events only while a macrostep runs (and after one stopped with an error, until the next
 * drains them), so machines whose macrosteps do not overlap, as firmware dispatching from one
 * loop has them, need one set of slots between them rather than one each (sc_options'
 * internal_queue_capacity = SC_QUEUE_NONE then gives their blocks none). The core lends the
 * slots to one machine at a time: to a machine raising into them while nobody holds them, back
 * when its macrostep has taken the last of its events (or its queues are released: stop,
 * restore, destroy). While another machine holds them, a machine's
 * sc_machine_start, dispatch, run and stop return SC_ERR_BUSY without doing anything, and its
 * sc_machine_raise SC_ERR_BUSY: no machine ever reads another's event. So from a callback, send
 * to another machine with sc_machine_post, not sc_machine_dispatch. Set `slots` and `capacity`
 * (1 to 65,535 with ids below 32 bits) before sharing it and leave them unchanged while machines
 * use it; `holder` is the core's (NULL at first). It must outlive the machines sharing it.
 *
 *     static sc_event slots[8];
 *     static sc_shared_queue shared = { .slots = slots, .capacity = 8 };
 *     static const sc_options options = { .internal_queue_capacity = SC_QUEUE_NONE };
 *     ... sc_machine_init(&a, ..., &options) and sc_machine_init(&b, ..., &options) ...
 *     sc_machine_share_internal_queue(a, &shared);
 *     sc_machine_share_internal_queue(b, &shared);
 */
typedef struct sc_shared_queue {
    sc_event *slots;
    uint32_t capacity;
    sc_machine *holder;     /**< the machine whose events are in the slots, or NULL */
} sc_shared_queue;

/**
 * Makes `machine`'s internal queue take turns on `queue`'s slots with the other machines sharing
 * it (see sc_shared_queue), until sc_machine_set_internal_queue() gives it storage of its own.
 * SC_OK, or SC_ERR_BAD_ARGUMENT (nothing changed) for NULL pointers, no slots or a capacity out
 * of range, or events in the machine's internal queue; SC_ERR_BUSY inside a callback;
 * SC_ERR_UNSUPPORTED with SC_CONFIG_NO_CONTENT (no internal queue).
 */
sc_status sc_machine_share_internal_queue(sc_machine *machine, sc_shared_queue *queue);

/**
 * Appends `event` to the external queue (SCXML <send> to self). SC_ERR_QUEUE_FULL when full;
 * from a callback, the entry point running the macrostep then returns it too, as for
 * sc_machine_raise (not with SC_QUEUE_NONE, whose host queues its callbacks' events itself).
 */
sc_status sc_machine_post(sc_machine *machine, sc_event event);

/**
 * Processes queued external events, one macrostep each, until the queue is empty or the
 * machine halts. Returns the first error met, else SC_OK (or SC_HALTED once halted). At most
 * max_steps events per call: a chart that posts an event to itself in every macrostep would
 * never empty the queue, so past that the call returns SC_ERR_RUNAWAY, the rest still queued.
 * A callback's raise or post refused by a full queue does not stop the loop: the call returns
 * SC_ERR_QUEUE_FULL once the queue is empty (see sc_machine_raise).
 */
sc_status sc_machine_run(sc_machine *machine);

/**
 * Whether `event`, dispatched now, would enable a transition: selectTransitions as a question,
 * over the current configuration (an active atomic state's own transitions, then its
 * ancestors', by name match). With `evaluate_guards` the guards of matching transitions run
 * (through sc_host.guard, with the machine busy: a guard that dispatches only queues), so they
 * should be free of side effects; without, a matching name is enough. Nothing else runs and the
 * machine does not change. False for a NULL machine, one not started, or one halted. Allowed
 * from callbacks. O(active atomic states x depth x transitions per state). A guard that raises
 * or posts anyway does so as from any callback: the event waits for the next macrostep, and
 * one the queue refuses is reported by the next sc_machine_start/dispatch/run
 * (SC_ERR_QUEUE_FULL), which can_handle, answering a boolean, cannot do.
 *
 *     sc_event coin = { .id = EV_COIN };
 *     if (!sc_machine_can_handle(m, coin, true)) show_disabled(BUTTON_COIN);
 */
bool sc_machine_can_handle(sc_machine *machine, sc_event event, bool evaluate_guards);

/**
 * Exits every active state in reverse document order (on_exit actions, invocations cancelled)
 * as SCXML's exitInterpreter does, and halts the machine. The configuration keeps the states
 * the machine halted in, so it can still be read. A halted machine ignores further events.
 */
sc_status sc_machine_stop(sc_machine *machine);

/* Read-only accessors; O(1) unless stated. */
bool sc_machine_is_active(const sc_machine *machine, sc_id state);
bool sc_machine_is_started(const sc_machine *machine);
bool sc_machine_is_halted(const sc_machine *machine);
bool sc_machine_is_busy(const sc_machine *machine);
const sc_chart *sc_machine_chart(const sc_machine *machine);
void *sc_machine_context(const sc_machine *machine);
/** Number of words (sc_word, SC_CONFIG_WORD_BITS bits each) in the configuration bit array. */
uint32_t sc_machine_configuration_words(const sc_machine *machine);
/** The configuration: bit s % SC_CONFIG_WORD_BITS of word s / SC_CONFIG_WORD_BITS is set while
 * state s is active. */
const sc_word *sc_machine_configuration(const sc_machine *machine);
/**
 * Writes up to `capacity` active states (atomic only when `atomic_only`) in document order
 * into `out`; returns how many there are in total. O(states / 64 + active states).
 */
uint32_t sc_machine_active_states(const sc_machine *machine, bool atomic_only, sc_id *out,
                                  uint32_t capacity);
/**
 * Deprecated, always 0: the core no longer drops events. A done event it cannot queue ends the
 * macrostep with SC_ERR_QUEUE_FULL instead (see sc_host.queue_full).
 */
uint32_t sc_machine_dropped_events(const sc_machine *machine);

/* ---------------------------------------------------------------------------------------
 * Snapshots: read and restore the dynamic state without running any action.
 * ------------------------------------------------------------------------------------- */

/**
 * Writes the recorded value of history state `history` (document order) into `out`;
 * returns the number of states recorded, 0 when none is, or UINT32_MAX if `history` is
 * not a history state.
 */
uint32_t sc_machine_history(const sc_machine *machine, sc_id history, sc_id *out, uint32_t capacity);

/** Number of events in the internal queue; sc_machine_internal_event(m, i) reads entry i. */
uint32_t sc_machine_internal_count(const sc_machine *machine);
sc_event sc_machine_internal_event(const sc_machine *machine, uint32_t index);

/**
 * Replaces the dynamic state of a machine that is not inside a callback: the configuration
 * (`states`, any order; ancestors are not added implicitly) and the machine counts as started.
 * History records and queues are cleared; set them with sc_machine_restore_history() and
 * sc_machine_raise(). Fails with SC_ERR_BAD_ARGUMENT (machine unchanged) when the set is not
 * one sc_machine_check_configuration() accepts, SC_ERR_BUSY inside a callback.
 */
sc_status sc_machine_restore(sc_machine *machine, const sc_id *states, uint32_t count, bool halted);

/**
 * The rule sc_machine_restore() applies, as a question (the machine does not change): SC_OK when
 * `states` (any order, repeats allowed) is a legal configuration of the machine's chart: every
 * listed state's parent is listed (or is the root); the root and every listed compound state
 * have exactly one listed child; every listed parallel state has all its children listed;
 * neither the root nor a history state is listed. Else SC_ERR_BAD_ARGUMENT (also for an id out
 * of range), or SC_ERR_BUSY inside a callback (the check uses the machine's scratch bits). Hosts
 * that restore more than the configuration check everything first, so a refused snapshot
 * changes nothing:
 *
 *     if (sc_machine_check_configuration(m, saved.states, saved.count) != SC_OK ||
 *         sc_machine_check_history(m, S_H, saved.history, saved.history_count) != SC_OK)
 *         return reject_snapshot();
 *     sc_machine_restore(m, saved.states, saved.count, false);
 *     sc_machine_restore_history(m, S_H, saved.history, saved.history_count);
 */
sc_status sc_machine_check_configuration(sc_machine *machine, const sc_id *states, uint32_t count);

/**
 * The rule sc_machine_restore_history() applies, as a question: SC_OK when `history` is a history
 * state and `states` is a value exitStates could record for it: for a deep history, atomic
 * descendants of its parent; for a shallow one, children of its parent; never history states;
 * all able to be active together (count 0: no record). Else SC_ERR_BAD_ARGUMENT.
 */
sc_status sc_machine_check_history(const sc_machine *machine, sc_id history, const sc_id *states,
                                   uint32_t count);

/**
 * Sets the recorded value of history state `history` (count 0: forgets it). SC_ERR_BAD_ARGUMENT
 * (nothing changed) when sc_machine_check_history() refuses it, SC_ERR_BUSY inside a callback.
 */
sc_status sc_machine_restore_history(sc_machine *machine, sc_id history, const sc_id *states,
                                     uint32_t count);

#ifdef __cplusplus
}
#endif
#endif /* SC_CORE_H */
