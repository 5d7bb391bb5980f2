/* INTERIM hand-written stand-in (see microwave.h). */
#include "microwave.h"

#define EVENTLESS SC_MASK_EVENTLESS

static const sc_state states[] = {
    /* parent, last, first_t, count, initial, entry, exit, done, own_mask, path_mask, kind, flags, depth */
    {SC_NONE, 11, 0, 0, 8, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_COMPOUND, 0, 0, 0},
    {0, 10, 0, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0x400, 0x400, SC_PARALLEL, 0, 1, 0},
    {1, 7, 1, 0, 9, SC_NONE, SC_NONE, SC_NONE, 0, 0x400, SC_COMPOUND, 0, 2, 0},
    {2, 3, 1, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0x2, 0x402, SC_ATOMIC, 0, 3, 0},
    {2, 7, 2, 1, 10, SC_NONE, SC_NONE, microwave_EVENT_done_state_on, 0x4, 0x404, SC_COMPOUND, 0, 3, 0},
    {4, 5, 3, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, EVENTLESS, EVENTLESS | 0x404, SC_ATOMIC, 0, 4, 0},
    {4, 6, 4, 2, SC_NONE, 0, 1, SC_NONE, EVENTLESS | 0x10, EVENTLESS | 0x414, SC_ATOMIC, 0, 4, 0},
    {4, 7, 6, 0, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0, 0x404, SC_FINAL, 0, 4, 0},
    {1, 10, 6, 0, 11, SC_NONE, SC_NONE, SC_NONE, 0, 0x400, SC_COMPOUND, 0, 2, 0},
    {8, 9, 6, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0x40, 0x440, SC_ATOMIC, 0, 3, 0},
    {8, 10, 7, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0x80, 0x480, SC_ATOMIC, 0, 3, 0},
    {0, 11, 8, 0, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_FINAL, 0, 1, 0},
};
static const sc_transition transitions[] = {
    /* source, domain, targets_offset, target_count, events_offset, event_count, guard, action, flags */
    {1, 0, 0, 1, 0, 1, SC_NONE, SC_NONE, 0, 0},    /* oven: done.state.on -> served */
    {3, 2, 1, 1, 1, 1, SC_NONE, SC_NONE, 0, 0},    /* off: turn.on -> on */
    {4, 2, 2, 1, 2, 1, SC_NONE, SC_NONE, 0, 0},    /* on: turn.off -> off */
    {5, 4, 3, 1, 3, 0, 0, SC_NONE, 0, 0},          /* idle: [In(closed)] -> cooking */
    {6, 4, 4, 1, 3, 0, 1, SC_NONE, 0, 0},          /* cooking: [In(open)] -> idle */
    {6, 4, 5, 1, 3, 1, SC_NONE, SC_NONE, 0, 0},    /* cooking: time.up -> done */
    {9, 8, 6, 1, 4, 1, SC_NONE, SC_NONE, 0, 0},    /* open: door.close -> closed */
    {10, 8, 7, 1, 5, 1, SC_NONE, SC_NONE, 0, 0},   /* closed: door.open -> open */
    {0, 0, 8, 1, 6, 0, SC_NONE, SC_NONE, 0, 0},    /* root initial -> oven */
    {2, 2, 9, 1, 6, 0, SC_NONE, SC_NONE, 0, 0},    /* engine initial -> off */
    {4, 4, 10, 1, 6, 0, SC_NONE, SC_NONE, 0, 0},   /* on initial -> idle */
    {8, 8, 11, 1, 6, 0, SC_NONE, SC_NONE, 0, 0},   /* door initial -> open */
};
static const sc_id targets[] = { 11, 4, 3, 6, 5, 7, 10, 9, 1, 3, 5, 9 };
static const sc_id descriptors[] = { microwave_EVENT_done_state_on, microwave_EVENT_turn_on, microwave_EVENT_turn_off,
                                     microwave_EVENT_time_up, microwave_EVENT_door_close, microwave_EVENT_door_open };
static const sc_event_info events[] = {
    {SC_NONE, 0, 0x1}, {0, 0, 0x3}, {0, 0, 0x5}, {SC_NONE, 0, 0x8}, {3, 0, 0x18}, {SC_NONE, 0, 0x20},
    {5, 0, 0x60}, {5, 0, 0xA0}, {SC_NONE, 0, 0x100}, {8, 0, 0x300}, {9, 0, 0x700},
};
static const char *const state_names[] = { "microwave", "oven", "engine", "off", "on", "idle", "cooking",
                                           "done", "door", "open", "closed", "served" };
static const char *const event_names[] = { "turn", "turn.on", "turn.off", "time", "time.up", "door",
                                           "door.close", "door.open", "done", "done.state", "done.state.on" };

const sc_chart microwave_chart = {
    .state_count = 12, .transition_count = 12, .event_count = microwave_EVENT_COUNT, .target_pool_count = 12,
    .descriptor_pool_count = 6, .states = states, .transitions = transitions, .events = events,
    .targets = targets, .descriptors = descriptors, .state_names = state_names, .event_names = event_names,
};

const sc_options microwave_options = { .internal_queue_capacity = 0, .external_queue_capacity = 0, .max_steps = 0 };

bool microwave_guard(void *context, sc_machine *m, sc_id g, const sc_event *event) {
    (void)context; (void)event;
    return sc_machine_is_active(m, g == 0 ? microwave_STATE_closed : microwave_STATE_open);
}

void microwave_action(void *context, sc_machine *m, sc_id a, const sc_event *event) {
    (void)event;
    if (a == 0) microwave_timer_start(context, m, "cookTimer", (sc_event){ .id = microwave_EVENT_time_up }, 5000u);
    else microwave_timer_cancel(context, m, "cookTimer");
}
