/*
 * sc_machine.c - machine life cycle (size, init, start, stop), the public entry points that
 * guard the algorithm (sc_step.c, through the plan cache of sc_plan.c when it is built in),
 * accessors and snapshots.
 */
#include "sc_machine.h"
#include "sc_plan.h"

/* Small: a slot is an sc_event (16 bytes, 12 on 32-bit targets), and most charts raise or post
 * a few events per macrostep. Hosts that raise more size the queues in sc_options or grow the
 * internal one from sc_host.queue_full (the Swift runtime does). A silent chart (see
 * chart_is_silent) raises and sends nothing itself: one external slot, for an event the host
 * posts before sc_machine_run, and no internal one. Nothing in the chart can fill that one (no
 * content, no done event, no error a host turns into an event), and a host that raises anyway is
 * refused at once (SC_ERR_QUEUE_FULL from sc_machine_raise; from a callback, from the entry point
 * too: never a lost event), or grows it from sc_host.queue_full. */
#define SC_DEFAULT_QUEUE_CAPACITY 8u
#define SC_SILENT_INTERNAL_CAPACITY 0u
#define SC_SILENT_EXTERNAL_CAPACITY 1u
#define SC_DEFAULT_MAX_STEPS 100000u

/* ---- layout ------------------------------------------------------------------------------- */

_Static_assert(SC_MACHINE_HEADER_BYTES == SC_MACHINE_HEADER_SIZE,
               "SC_MACHINE_HEADER_SIZE (sc_core.h) counts struct sc_machine's fields (sc_internal.h)");

_Static_assert(sizeof(sc_offset) == SC_OFFSET_BYTES_ && SC_ALIGNOF_(sc_offset) == SC_OFFSET_BYTES_,
               "SC_OFFSET_BYTES_ (sc_core.h) is sc_offset's size and alignment (sc_internal.h)");

typedef struct sc_layout {
    uint32_t words, history_count, atomic_count, internal_cap, external_cap, max_steps;
    uint64_t history_words;         /* the records' words: past 32 bits on a chart of many history states */
    uint32_t flags;
    uint32_t history_bit_words;     /* history_default, history_recorded: W words each, or 0 (no history) */
    uint32_t invoke_words;          /* invoke_pending: W words, or 0 (no state has invocations) */
    /* Where each array starts, bytes from the machine (the order of sc_internal.h's layout). */
    size_t words_at, index_at, enabled_at, external_at, internal_at, size;
} sc_layout;

/* The layout's byte counts. A narrow build's (ids below 32 bits: fewer than 65,533 states, so bit
 * arrays below 8 KiB and history records below 540 MB in all; queues below 65,536 slots) stay
 * below 2^32 however they add up; a wide one's are summed in 64 bits, so none wraps on a 32-bit
 * target. */
#if SC_CONFIG_ID_BITS < 32
typedef uint32_t sc_layout_size;
#else
typedef uint64_t sc_layout_size;
#endif

static sc_layout_size align_up(sc_layout_size n, sc_layout_size alignment) { return (n + alignment - 1u) / alignment * alignment; }

#if !SC_CONFIG_NO_PLAN_CACHE
/* Which observers a host has, a bit each: what the plans' quietness depends on. */
static uint8_t observers_of(const sc_host *host) {
    return (uint8_t)((host->entered ? 1u : 0u) | (host->exited ? 2u : 0u) | (host->taken ? 4u : 0u));
}
#endif

#define SC_MACHINE_KNOWN_FLAGS (SC_MACHINE_TRUSTED_CHART | SC_MACHINE_NO_PLANS)

/* Whether nothing in chart c queues an event by itself: no executable content (where <raise> and
 * <send> live) or content its tables vouch queues nothing (SC_CHART_QUIET_CONTENT), no done
 * events, no invocations, no history (whose transitions may fail, and an SCXML host raises
 * error.execution from sc_host.error). */
static bool chart_is_silent(const sc_chart *c) {
    bool quiet_content = (c->flags & SC_CHART_QUIET_CONTENT) != 0;
    for (sc_id s = 0; s < c->state_count; s++) {
        const sc_state *st = &c->states[s];
        if (!quiet_content && (st->on_entry != SC_NONE || st->on_exit != SC_NONE)) return false;
        if (st->done_event != SC_NONE) return false;
        if (st->flags & (SC_STATE_HAS_INVOKE | SC_STATE_HAS_HISTORY | SC_STATE_HAS_DONEDATA)) return false;
    }
    for (sc_id t = 0; !quiet_content && t < c->transition_count; t++)
        if (c->transitions[t].action != SC_NONE) return false;
    return true;
}

/* The layout of a machine for chart c with options o: SC_OK, SC_ERR_BAD_ARGUMENT (unknown flags)
 * or what sc_chart_check returned (SC_ERR_BAD_CHART, SC_ERR_UNSUPPORTED). */
static sc_status compute_layout(const sc_chart *c, const sc_options *o, sc_layout *l) {
    uint32_t flags = o ? o->flags : 0;
    if (flags & ~(uint32_t)SC_MACHINE_KNOWN_FLAGS) return SC_ERR_BAD_ARGUMENT;
    /* SC_MACHINE_TRUSTED_CHART: the caller has checked this chart; SC_CONFIG_NO_TABLE_CHECK: the
     * build runs generated tables, whose NAME.c stops the compiler (#error) on a build that leaves
     * out a feature they use (sc_core.h). */
    bool trusted = SC_CONFIG_NO_TABLE_CHECK || (flags & SC_MACHINE_TRUSTED_CHART);
    sc_status checked = trusted ? SC_OK : sc_chart_check(c, NULL);
    if (checked != SC_OK) return checked;
    memset(l, 0, sizeof *l);
    l->flags = flags;
    l->words = (uint32_t)SC_BIT_WORDS(c->state_count);
    uint32_t atomic = 0, parallel_bound = 1;
    for (sc_id s = 0; s < c->state_count; s++) {
        const sc_state *st = &c->states[s];
        if (!SC_CONFIG_NO_PARALLEL && sc_is_atomic(st->kind)) atomic++;   /* else A is 1 (below) */
        if (!SC_CONFIG_NO_PARALLEL && st->kind == SC_PARALLEL) {   /* each region beyond the first: one more */
            uint32_t regions = 0;
            SC_FOR_EACH_CHILD(c, s, child) regions++;
            parallel_bound += regions - 1;
        }
#if !SC_CONFIG_NO_HISTORY
        if (sc_is_history(st->kind)) {
            l->history_count++;
            l->history_words += sc_history_record_words(c, s);
        }
#endif
        if (sc_state_invokes(st)) l->invoke_words = l->words;
    }
    if (l->history_count) l->history_bit_words = l->words;
    l->atomic_count = SC_CONFIG_NO_PARALLEL ? 1u : atomic < parallel_bound ? atomic : parallel_bound;
    /* The queues' defaults (a build with neither queue has none to default). */
    bool silent = SC_CONFIG_NO_CONTENT && SC_CONFIG_NO_QUEUE ? true : chart_is_silent(c);
    uint32_t default_internal = silent ? SC_SILENT_INTERNAL_CAPACITY : SC_DEFAULT_QUEUE_CAPACITY;
    uint32_t default_external = silent ? SC_SILENT_EXTERNAL_CAPACITY : SC_DEFAULT_QUEUE_CAPACITY;
    l->internal_cap = o && o->internal_queue_capacity ? o->internal_queue_capacity : default_internal;
    l->external_cap = o && o->external_queue_capacity ? o->external_queue_capacity : default_external;
    if (l->external_cap == SC_QUEUE_NONE || SC_CONFIG_NO_QUEUE) l->external_cap = 0;   /* a ring of no slots: always full */
    if (l->internal_cap == SC_QUEUE_NONE) l->internal_cap = 0;     /* the host supplies the slots */
    if (SC_CONFIG_NO_CONTENT) l->internal_cap = 0;      /* no internal queue: nothing raises */
    l->max_steps = o && o->max_steps ? o->max_steps : SC_DEFAULT_MAX_STEPS;
    if (l->internal_cap > SC_OFFSET_MAX || l->external_cap > SC_OFFSET_MAX) return SC_ERR_BAD_ARGUMENT;
    /* Each array at its element's alignment, as SC_MACHINE_SIZE (sc_core.h) adds them up. */
    sc_layout_size at = SC_MACHINE_HEADER_BYTES + sc_plan_layout(c, l->words, NULL);
    l->words_at = (size_t)(at = align_up(at, SC_ALIGNOF_(sc_word)));
    at += ((sc_layout_size)l->words * 2u + l->history_bit_words * 2u + l->invoke_words + (sc_layout_size)l->history_words) * sizeof(sc_word);
    l->index_at = (size_t)(at = align_up(at, sizeof(sc_offset)));
    at += (sc_layout_size)l->history_count * 2u * sizeof(sc_offset);
    l->enabled_at = (size_t)(at = align_up(at, SC_ALIGNOF_(sc_id)));
    /* The header keeps the offsets up to here in sc_offset (16 bits with narrow ids): the slots
     * after them are found from enabled_at and their capacity, so they may reach past it. */
    if (at > SC_OFFSET_MAX) return SC_ERR_NO_MEMORY;
    at += (sc_layout_size)l->atomic_count * sizeof(sc_enabled);
    l->external_at = (size_t)(at = align_up(at, SC_ALIGNOF_(sc_event)));
    at += (sc_layout_size)l->external_cap * sizeof(sc_event);
    l->internal_at = (size_t)at;
    at += (sc_layout_size)l->internal_cap * sizeof(sc_event);
#if SC_CONFIG_ID_BITS >= 32           /* a narrow build's sizes stay below 2^32 (sc_layout_size) */
    if (at > UINT32_MAX || at > SIZE_MAX) return SC_ERR_NO_MEMORY;
#endif
    l->size = (size_t)at;
    return SC_OK;
}

size_t sc_machine_size(const sc_chart *chart, const sc_options *options) {
    sc_layout l;
    if (!chart || compute_layout(chart, options, &l) != SC_OK) return 0;
    return l.size;
}

/* Lays a machine out in `memory` (checked: at least l->size bytes, 8-aligned) for a chart that
 * passed sc_chart_check as part of computing `l` (or that the caller vouches for). */
static sc_machine *init_with_layout(void *memory, const sc_chart *chart, const sc_host *host, const sc_layout *layout) {
    const sc_layout l = *layout;
    memset(memory, 0, l.size);
    uint8_t *block = memory;
    sc_machine *m = (sc_machine *)(void *)block;
    m->chart = chart;
    m->host = host;
#if !SC_CONFIG_NO_PLAN_CACHE
    m->observers = observers_of(host);
#endif
#if !SC_CONFIG_NO_PARALLEL
    m->enabled_capacity = (sc_id)l.atomic_count;
#endif
#if SC_KEEPS_STEPS_
    m->max_steps = l.max_steps;
#endif
    m->no_plans = (l.flags & SC_MACHINE_NO_PLANS) != 0;
#if !SC_CONFIG_NO_PLAN_CACHE
    m->words = l.words;
    m->configuration_at = (uint32_t)l.words_at;
#endif
    assert(sc_block_configuration(m) == (sc_word *)(void *)(block + l.words_at) && sc_machine_words(m) == l.words);
    /* The bit arrays, in the order sc_block_entry_set() and the others find them: the
     * configuration and entry set, then the history ones (only with history states) and
     * invoke_pending (only with invocations), then the history records. */
#if !SC_CONFIG_NO_INVOKE
    m->has_invoke = l.invoke_words != 0;
#endif
#if !SC_CONFIG_NO_HISTORY
    m->history_index_at = (sc_offset)l.index_at;
    m->enabled_at = (sc_offset)l.enabled_at;
#endif
    assert(sc_block_enabled(m) == (sc_enabled *)(void *)(block + l.enabled_at) && sc_enabled_capacity(m) == l.atomic_count);
    assert(sc_history_count(m) == l.history_count);
    assert(sc_block_history_records(m) == (sc_word *)(void *)(block + l.words_at) +
                                              (size_t)l.words * 2u + l.history_bit_words * 2u + l.invoke_words);
#if !SC_CONFIG_NO_QUEUE
    assert(sc_block_external_slots(m) == (sc_event *)(void *)(block + l.external_at));
    m->external.capacity = (sc_offset)l.external_cap;
#endif
#if !SC_CONFIG_NO_CONTENT
    m->internal_storage.slots = (sc_event *)(void *)(block + l.internal_at);
    m->internal.capacity = (sc_offset)l.internal_cap;
#endif
#if !SC_CONFIG_NO_HISTORY
    sc_history_index_build(m);
#endif
    sc_step_count_configuration(m);
    sc_plan_layout(m->chart, sc_machine_words(m), m);
    sc_plan_track(m);
    sc_plan_gate(m);
    return m;
}

sc_status sc_machine_init(sc_machine **out, void *memory, size_t size, const sc_chart *chart,
                          const sc_host *host, const sc_options *options) {
    if (!out || !memory || !chart || !host) return SC_ERR_BAD_ARGUMENT;
    *out = NULL;
    sc_layout l;
    sc_status status = compute_layout(chart, options, &l);
    if (status != SC_OK) return status;
    if (size < l.size || ((uintptr_t)memory & 7u)) return SC_ERR_NO_MEMORY;
    *out = init_with_layout(memory, chart, host, &l);
    return SC_OK;
}

sc_status sc_machine_set_host(sc_machine *m, const sc_host *host) {
    if (!m || !host) return SC_ERR_BAD_ARGUMENT;
    /* Plans are kept quiet or not by the observers installed when they are recorded: when the
     * observers come or go, record afresh. Compared with the presence noted then, not with
     * m->host: the caller may have edited the very struct the machine uses. The other callbacks
     * are not part of what a plan records (the actions it runs are ids in the chart). */
    m->host = host;
#if !SC_CONFIG_NO_PLAN_CACHE
    uint8_t observers = observers_of(host);
    if (observers != m->observers) {
        m->observers = observers;
        sc_plan_forget(m);
    }
#endif
    if (!m->busy) sc_plan_gate(m);      /* a release callback closes the fast path */
    return SC_OK;
}

#if !SC_CONFIG_NO_CONTENT || !SC_CONFIG_NO_QUEUE
static void release_queue(sc_machine *m, sc_queue *q, const sc_event *slots) {
    sc_event e;
    while (sc_queue_pop(q, slots, &e))
        if (m->host->release) m->host->release(m->host->context, m, &e);
}
#endif

/* Both queues, released in order: internal, then external. */
static void release_queues(sc_machine *m) {
    (void)m;                        /* no queue at all in the smallest builds */
#if !SC_CONFIG_NO_CONTENT
    release_queue(m, &m->internal, sc_internal_slots(m));
    sc_shared_queue_release(m);
#endif
#if !SC_CONFIG_NO_QUEUE
    release_queue(m, &m->external, sc_block_external_slots(m));
#endif
}

void sc_machine_release_queued(sc_machine *m) { release_queues(m); }

/* ---- entry points ------------------------------------------------------------------------- */

/* Callbacks run between these two: sc_machine_dispatch's fast path is closed while they do (a
 * callback's dispatch queues), and opened again when the machine is idle and nothing is pending. */
static void enter_busy(sc_machine *m) {
    m->busy = true;
    sc_plan_close(m);
}

static void leave_busy(sc_machine *m) {
    m->busy = false;
    sc_plan_gate(m);
}

/* The status an entry point that ran callbacks returns: an event a callback raised or posted
 * that the queue refused (lost_event, set by sc_machine_raise or sc_machine_post) turns a status
 * that is not an error already into SC_ERR_QUEUE_FULL, as the Swift runtime's pendingError does;
 * the mark is cleared either way. The macrostep itself went on (the events that fit were
 * processed in order). */
static sc_status finish_entry(sc_machine *m, sc_status status) {
#if SC_KEEPS_LOST_EVENT_
    if (m->lost_event) {
        m->lost_event = false;
        if (status >= 0) status = SC_ERR_QUEUE_FULL;
    }
#else
    (void)m;
#endif
    return status;
}

/* A raise or post refused while callbacks run: no caller of the entry point would learn of it
 * (generated content ignores the status), so the machine keeps the mark for finish_entry. */
#if SC_KEEPS_LOST_EVENT_
static sc_status refuse_event(sc_machine *m) {
    if (m->busy) m->lost_event = true;
    return SC_ERR_QUEUE_FULL;
}
#endif

sc_status sc_machine_start(sc_machine *m) {
    if (!m) return SC_ERR_BAD_ARGUMENT;
    if (m->busy) return SC_ERR_BUSY;
    if (m->started) return SC_ERR_BAD_ARGUMENT;
    if (sc_shared_queue_held_by_other(m)) return SC_ERR_BUSY;
    m->started = true;
    enter_busy(m);
    sc_status status = sc_step_enter_initial(m);
    sc_plan_track(m);
    leave_busy(m);
    return finish_entry(m, status);
}

/* One external event's macrostep (busy is set): its microstep, from a plan when the cache holds
 * one, then the rest of the macrostep. */
static sc_status process_external(sc_machine *m, const sc_event *event) {
    bool handled = sc_plan_take_event(m, event);
    sc_step_release(m, event);
    return sc_plan_complete(m, handled);
}

/* The general path of sc_machine_dispatch, out of line so the plan path spills nothing. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static sc_status dispatch_event(sc_machine *m, sc_event event) {
    if (m->busy) return sc_machine_post(m, event);
    if (!m->started) return SC_ERR_NOT_STARTED;
    if (sc_shared_queue_held_by_other(m)) return SC_ERR_BUSY;
    if (m->halted) {
        if (m->host->release) m->host->release(m->host->context, m, &event);
        return SC_HALTED;
    }
    enter_busy(m);
    sc_status status = process_external(m, &event);
    leave_busy(m);
    return finish_entry(m, status);
}

#if !SC_CONFIG_NO_PLAN_CACHE
/* sc_machine_dispatch with its fast path open and a plan found that is not a whole macrostep by
 * itself (not SC_PLAN_ENDS: steps, guards, or eventless transitions after it): the plan
 * is used without a second lookup. Out of line, so the fast path neither spills the event nor
 * saves registers for the callbacks. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static sc_status dispatch_planned(sc_machine *m, sc_plan *plan, sc_event event) {
    enter_busy(m);
    bool handled = sc_plan_replay(m, plan, &event);
    sc_step_release(m, &event);
    sc_status status = sc_plan_complete(m, handled);
    leave_busy(m);
    return finish_entry(m, status);
}
#endif

#if !SC_CONFIG_NO_PLAN_CACHE
/* A plan found on the fast path: an SC_PLAN_ENDS_* plan is the whole dispatch, and a MASKS plan
 * notes where the next configuration's plans are. */
static SC_ALWAYS_INLINE sc_status dispatch_fast(sc_machine *m, sc_plan_cache *cache, sc_plan *plan, sc_event event) {
    if (plan->flags == SC_PLAN_ENDS_MASKS) {
        SC_PLAN_COUNT(replays[SC_PLAN_MASKS]);
        SC_PLAN_COUNT(fast_masks);
        sc_plan_apply_masks(m, plan, plan);
        m->fast_set = sc_plan_set_at(cache, plan->next_set);
        return SC_OK;
    }
    if (plan->flags == SC_PLAN_ENDS_UNHANDLED) {
        SC_PLAN_COUNT(replays[SC_PLAN_UNHANDLED]);
        SC_PLAN_COUNT(fast_unhandled);
        return SC_UNHANDLED;
    }
    return dispatch_planned(m, plan, event);
}

/* The fast path of multi-word machines (their keys are compared word by word). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static sc_status dispatch_words(sc_machine *m, sc_plan *set, sc_event event) {
    sc_plan_cache *cache = sc_plan_cache_of(m);
    sc_plan *plan = sc_plan_find(m, cache, set, event.id);
    return plan ? dispatch_fast(m, cache, plan, event) : dispatch_event(m, event);
}
#endif

sc_status sc_machine_dispatch(sc_machine *m, sc_event event) {
    if (!m) return SC_ERR_BAD_ARGUMENT;
#if SC_CONFIG_NO_PLAN_CACHE
    return dispatch_event(m, event);
#else
    /* The fast path: fast_set is not NULL only when nothing but a plan can be needed (a started
     * machine, idle, not halted, nothing pending, no release callback; sc_plan_gate), and then
     * holds the current configuration's plans: its ways are searched for the event. Every other
     * case leaves by a tail call, so this path saves no register. */
    sc_plan *set = m->fast_set;
    if (!set) return dispatch_event(m, event);
    sc_plan_cache *cache = sc_plan_cache_of(m);
    if (cache->key_words) return dispatch_words(m, set, event);
    for (uint32_t w = 0; w < SC_PLAN_WAYS; w++)
        if (set[w].event == event.id && set[w].key == cache->key) return dispatch_fast(m, cache, &set[w], event);
    return dispatch_event(m, event);
#endif
}

void sc_machine_interrupt(sc_machine *m, bool interrupt) {
#if SC_KEEPS_STEPS_
    if (m) SC_INTERRUPT_STORE(m->interrupt, interrupt);
#else
    (void)m, (void)interrupt;       /* nothing loops in this build: a call is one microstep */
#endif
}

sc_status sc_machine_raise(sc_machine *m, sc_event event) {
    if (!m) return SC_ERR_BAD_ARGUMENT;
#if SC_CONFIG_NO_CONTENT
    (void)event;
    return SC_ERR_UNSUPPORTED;      /* no internal queue in this build */
#else
    if (sc_shared_queue_held_by_other(m)) return SC_ERR_BUSY;     /* its slots hold another's events */
    sc_plan_close(m);       /* an event pending: the next dispatch runs the algorithm */
    return sc_queue_raise(m, event) ? SC_OK : refuse_event(m);
#endif
}

sc_status sc_machine_set_internal_queue(sc_machine *m, sc_event *storage, uint32_t capacity) {
    if (!m || !storage || capacity < sc_internal_count(m) || capacity == 0 || capacity > SC_OFFSET_MAX)
        return SC_ERR_BAD_ARGUMENT;
#if SC_CONFIG_NO_CONTENT
    return SC_ERR_UNSUPPORTED;      /* no internal queue in this build */
#else
    /* The events are copied out of the old slots into the new ones: they must not overlap. */
    sc_event *slots = sc_internal_slots(m);
    uintptr_t new_begin = (uintptr_t)storage, new_end = (uintptr_t)(storage + capacity);
    uintptr_t old_begin = (uintptr_t)slots, old_end = (uintptr_t)(slots + m->internal.capacity);
    if (new_begin < old_end && old_begin < new_end) return SC_ERR_BAD_ARGUMENT;
    sc_queue_move(&m->internal, slots, storage, capacity);
    sc_shared_queue_leave(m);       /* its events are no longer in the shared slots */
    m->shares_queue = false;
    m->internal_storage.slots = storage;
    return SC_OK;
#endif
}

sc_status sc_machine_share_internal_queue(sc_machine *m, sc_shared_queue *queue) {
    if (!m || !queue || !queue->slots || queue->capacity == 0 || queue->capacity > SC_OFFSET_MAX)
        return SC_ERR_BAD_ARGUMENT;
#if SC_CONFIG_NO_CONTENT
    return SC_ERR_UNSUPPORTED;      /* no internal queue in this build */
#else
    if (m->busy) return SC_ERR_BUSY;
    if (sc_internal_count(m)) return SC_ERR_BAD_ARGUMENT;   /* its events would have no slots */
    sc_shared_queue_leave(m);       /* its events are no longer in the shared slots */
    m->shares_queue = true;
    m->internal_storage.shared = queue;
    m->internal = (sc_queue){ .capacity = (sc_offset)queue->capacity };
    return SC_OK;
#endif
}

sc_status sc_machine_post(sc_machine *m, sc_event event) {
    if (!m) return SC_ERR_BAD_ARGUMENT;
#if SC_CONFIG_NO_QUEUE
    (void)event;
    return SC_ERR_UNSUPPORTED;      /* no external queue in this build */
#else
    if (sc_queue_push(&m->external, sc_block_external_slots(m), event)) return m->busy ? SC_QUEUED : SC_OK;
    /* SC_QUEUE_NONE: the host queues what its callbacks send itself, and hears of it here. */
    return m->external.capacity ? refuse_event(m) : SC_ERR_QUEUE_FULL;
#endif
}

sc_status sc_machine_run(sc_machine *m) {
    if (!m) return SC_ERR_BAD_ARGUMENT;
#if SC_CONFIG_NO_QUEUE
    return SC_ERR_UNSUPPORTED;      /* no external queue in this build: nothing to run */
#else
    if (m->busy || sc_shared_queue_held_by_other(m)) return SC_ERR_BUSY;
    if (!m->started) return SC_ERR_NOT_STARTED;
    sc_event event;
    uint32_t processed = 0;
    while (!m->halted && m->external.count) {
        /* A chart that posts to itself in every macrostep would keep this loop going forever. */
        if (processed++ >= m->max_steps) return finish_entry(m, SC_ERR_RUNAWAY);
        sc_queue_pop(&m->external, sc_block_external_slots(m), &event);
        enter_busy(m);
        sc_status status = process_external(m, &event);
        leave_busy(m);
        if (status < 0) return finish_entry(m, status);
    }
    /* A refused raise or post is reported once the queue is drained: the machine went on. */
    if (m->halted) {
        release_queue(m, &m->external, sc_block_external_slots(m));
        return finish_entry(m, SC_HALTED);
    }
    return finish_entry(m, SC_OK);
#endif
}

bool sc_machine_can_handle(sc_machine *m, sc_event event, bool evaluate_guards) {
    if (!m || !m->started || m->halted) return false;
    /* Busy while guards run, so a guard that sends to the machine queues instead of starting a
     * macrostep inside the query. */
    if (m->busy) return sc_step_would_select(m, &event, evaluate_guards);
    enter_busy(m);
    bool handled = sc_step_would_select(m, &event, evaluate_guards);
    leave_busy(m);
    return handled;
}

sc_status sc_machine_stop(sc_machine *m) {
    if (!m) return SC_ERR_BAD_ARGUMENT;
    if (m->busy || sc_shared_queue_held_by_other(m)) return SC_ERR_BUSY;
    if (!m->started) return SC_ERR_NOT_STARTED;
    if (m->halted) return SC_HALTED;
    enter_busy(m);
    sc_step_exit_interpreter(m);
    leave_busy(m);
    /* exitInterpreter discards the queues: an event refused meanwhile is no worse off than
     * those released here, so it is not reported. */
#if SC_KEEPS_LOST_EVENT_
    m->lost_event = false;
#endif
    release_queues(m);
    return SC_OK;
}

/* ---- accessors -------------------------------------------------------------------------- */

bool sc_machine_is_active(const sc_machine *m, sc_id state) {
    return m && state < m->chart->state_count && sc_bit_test(sc_block_configuration(m), state);
}
bool sc_machine_is_started(const sc_machine *m) { return m && m->started; }
bool sc_machine_is_halted(const sc_machine *m) { return m && m->halted; }
bool sc_machine_is_busy(const sc_machine *m) { return m && m->busy; }
const sc_chart *sc_machine_chart(const sc_machine *m) { return m ? m->chart : NULL; }
void *sc_machine_context(const sc_machine *m) { return m ? m->host->context : NULL; }
uint32_t sc_machine_configuration_words(const sc_machine *m) { return m ? sc_machine_words(m) : 0; }
const sc_word *sc_machine_configuration(const sc_machine *m) { return m ? sc_block_configuration(m) : NULL; }
uint32_t sc_machine_dropped_events(const sc_machine *m) { (void)m; return 0; }

uint32_t sc_machine_active_states(const sc_machine *m, bool atomic_only, sc_id *out, uint32_t capacity) {
    if (!m) return 0;
    const sc_chart *c = m->chart;
    uint32_t n = 0;
    for (sc_id s = sc_bit_next(sc_block_configuration(m), 0, c->state_count); s < c->state_count;
         s = sc_bit_next(sc_block_configuration(m), s + 1, c->state_count)) {
        if (atomic_only && !sc_is_atomic(c->states[s].kind)) continue;
        if (out && n < capacity) out[n] = s;
        n++;
    }
    return n;
}

/* ---- snapshots ---------------------------------------------------------------------------- */

uint32_t sc_machine_history(const sc_machine *m, sc_id h, sc_id *out, uint32_t capacity) {
    if (!m || h >= m->chart->state_count || !sc_is_history(m->chart->states[h].kind)) return UINT32_MAX;
#if SC_CONFIG_NO_HISTORY
    (void)out, (void)capacity;
    return UINT32_MAX;      /* unreachable: sc_chart_check refused every history state */
#else
    if (!sc_bit_test(sc_block_history_recorded(m), h)) return 0;
    sc_history_cursor cur = sc_history_open(m, h);
    uint32_t n = 0;
    for (sc_id s = sc_history_next(&cur); s != SC_NONE; s = sc_history_next(&cur)) {
        if (out && n < capacity) out[n] = s;
        n++;
    }
    return n;
#endif
}

uint32_t sc_machine_internal_count(const sc_machine *m) { return m ? sc_internal_count(m) : 0; }

sc_event sc_machine_internal_event(const sc_machine *m, uint32_t index) {
    sc_event none = { SC_NONE, 0, 0 };
    if (!m || index >= sc_internal_count(m)) return none;
#if SC_CONFIG_NO_CONTENT
    return none;
#else
    return sc_queue_at(&m->internal, sc_internal_slots(m), index);
#endif
}

/* A legal configuration: every state's parent is active (or the root); the root and every
 * active compound state have exactly one active child; every active parallel state has all of
 * its children active; the root and history states are never active. */
static bool is_legal_configuration(const sc_chart *c, const sc_word *config) {
    for (sc_id s = 0; s < c->state_count; s++) {
        const sc_state *st = &c->states[s];
        bool active = s == 0 || sc_bit_test(config, s);
        if (s == 0 && sc_bit_test(config, 0)) return false;
        if (!active) continue;
        if (sc_is_history(st->kind)) return false;
        if (s != 0 && st->parent != 0 && !sc_bit_test(config, st->parent)) return false;
        uint32_t children = 0, on = 0;
        SC_FOR_EACH_CHILD(c, s, child) {
            if (sc_is_history(c->states[child].kind)) continue;
            children++;
            if (sc_bit_test(config, child)) on++;
        }
        if (st->kind == SC_COMPOUND && on != 1) return false;
        if (st->kind == SC_PARALLEL && on != children) return false;
    }
    return true;
}

/* Builds `states` into entry_set (scratch, clear between microsteps) and judges it; on SC_OK the
 * candidate is left there for the caller to take (and clear), else entry_set is clear again. */
static sc_status stage_configuration(sc_machine *m, const sc_id *states, uint32_t count) {
    if (!m || (count && !states)) return SC_ERR_BAD_ARGUMENT;
    if (m->busy) return SC_ERR_BUSY;
    const sc_chart *c = m->chart;
    for (uint32_t i = 0; i < count; i++) {
        if (states[i] >= c->state_count) {
            sc_bits_clear_range(sc_block_entry_set(m), 0, c->state_count);
            return SC_ERR_BAD_ARGUMENT;
        }
        sc_bit_set(sc_block_entry_set(m), states[i]);
    }
    if (is_legal_configuration(c, sc_block_entry_set(m))) return SC_OK;
    sc_bits_clear_range(sc_block_entry_set(m), 0, c->state_count);
    return SC_ERR_BAD_ARGUMENT;
}

sc_status sc_machine_check_configuration(sc_machine *m, const sc_id *states, uint32_t count) {
    sc_status status = stage_configuration(m, states, count);
    if (status == SC_OK) sc_bits_clear_range(sc_block_entry_set(m), 0, m->chart->state_count);
    return status;
}

sc_status sc_machine_restore(sc_machine *m, const sc_id *states, uint32_t count, bool halted) {
    sc_status status = stage_configuration(m, states, count);
    if (status != SC_OK) return status;
    const sc_chart *c = m->chart;
    memcpy(sc_block_configuration(m), sc_block_entry_set(m), (size_t)sc_machine_words(m) * sizeof(sc_word));
    sc_bits_clear_range(sc_block_entry_set(m), 0, c->state_count);
    release_queues(m);
#if SC_KEEPS_LOST_EVENT_
    m->lost_event = false;
#endif
    if (sc_block_history_recorded(m)) memset(sc_block_history_recorded(m), 0, (size_t)sc_machine_words(m) * sizeof(sc_word));
    if (sc_has_invoke(m)) memset(sc_block_invoke_pending(m), 0, (size_t)sc_machine_words(m) * sizeof(sc_word));
    sc_set_invokes_pending(m, false);
    sc_step_count_configuration(m);
    m->started = true;
    m->halted = halted;
    sc_plan_track(m);
    sc_plan_gate(m);
    return SC_OK;
}

sc_status sc_machine_check_history(const sc_machine *m, sc_id h, const sc_id *states, uint32_t count) {
    if (!m || (count && !states)) return SC_ERR_BAD_ARGUMENT;
    const sc_chart *c = m->chart;
    if (h >= c->state_count || !sc_is_history(c->states[h].kind)) return SC_ERR_BAD_ARGUMENT;
    sc_id p = c->states[h].parent;
    bool deep = c->states[h].kind == SC_HISTORY_DEEP;
    for (uint32_t i = 0; i < count; i++) {
        sc_id s = states[i];
        if (!sc_is_descendant(c, s, p) || sc_is_history(c->states[s].kind)) return SC_ERR_BAD_ARGUMENT;
        if (deep ? !sc_is_atomic(c->states[s].kind) : c->states[s].parent != p) return SC_ERR_BAD_ARGUMENT;
    }
    /* A record must be a value exitStates could make: states that can be active together. */
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t j = i + 1; j < count; j++)
            if (!sc_can_be_active_together(c, states[i], states[j])) return SC_ERR_BAD_ARGUMENT;
    return SC_OK;
}

sc_status sc_machine_restore_history(sc_machine *m, sc_id h, const sc_id *states, uint32_t count) {
    if (!m || (count && !states)) return SC_ERR_BAD_ARGUMENT;
    if (m->busy) return SC_ERR_BUSY;
    sc_status status = sc_machine_check_history(m, h, states, count);
    if (status != SC_OK) return status;
#if !SC_CONFIG_NO_HISTORY
    sc_history_set(m, h, states, count);
#endif
    return SC_OK;
}
