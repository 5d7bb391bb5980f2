/* INTERIM hand-written stand-in (see microwave.h). */
#include "microwave.h"
#include <stddef.h>

enum { EV_turn, EV_turn_on, EV_turn_off, EV_time, EV_time_up, EV_door, EV_door_close, EV_door_open,
       EV_done, EV_done_state, EV_done_state_on, EV_COUNT };

static sc_state states[] = {
    /* parent, last, first_t, count, initial, entry, exit, done, masks, kind, flags, depth */
    {SC_NONE, 11, 0, 0, 8, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_COMPOUND, 0, 0, 0},
    {0, 10, 0, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_PARALLEL, 0, 1, 0},
    {1, 7, 1, 0, 9, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_COMPOUND, 0, 2, 0},
    {2, 3, 1, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_ATOMIC, 0, 3, 0},
    {2, 7, 2, 1, 10, SC_NONE, SC_NONE, EV_done_state_on, 0, 0, SC_COMPOUND, 0, 3, 0},
    {4, 5, 3, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_ATOMIC, 0, 4, 0},
    {4, 6, 4, 2, SC_NONE, 0, 1, SC_NONE, 0, 0, SC_ATOMIC, 0, 4, 0},
    {4, 7, 6, 0, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_FINAL, 0, 4, 0},
    {1, 10, 6, 0, 11, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_COMPOUND, 0, 2, 0},
    {8, 9, 6, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_ATOMIC, 0, 3, 0},
    {8, 10, 7, 1, SC_NONE, SC_NONE, SC_NONE, SC_NONE, 0, 0, SC_ATOMIC, 0, 3, 0},
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
static const sc_id descriptors[] = { EV_done_state_on, EV_turn_on, EV_turn_off, EV_time_up, EV_door_close, EV_door_open };
static sc_event_info events[] = {
    {SC_NONE, 0, 0}, {EV_turn, 0, 0}, {EV_turn, 0, 0}, {SC_NONE, 0, 0}, {EV_time, 0, 0}, {SC_NONE, 0, 0},
    {EV_door, 0, 0}, {EV_door, 0, 0}, {SC_NONE, 0, 0}, {EV_done, 0, 0}, {EV_done_state, 0, 0},
};
static const char *const state_names[] = { "microwave", "oven", "engine", "off", "on", "idle", "cooking",
                                           "done", "door", "open", "closed", "served" };
static const char *const event_names[] = { "turn", "turn.on", "turn.off", "time", "time.up", "door",
                                           "door.close", "door.open", "done", "done.state", "done.state.on" };

const sc_chart microwave_chart = {
    .state_count = 12, .transition_count = 12, .event_count = EV_COUNT, .target_pool_count = 12,
    .descriptor_pool_count = 6, .states = states, .transitions = transitions, .events = events,
    .targets = targets, .descriptors = descriptors, .state_names = state_names, .event_names = event_names,
};

void microwave_prepare(void) { sc_chart_fill_masks(&microwave_chart, states, events); }

static bool guard(void *context, sc_machine *m, sc_id g, const sc_event *event) {
    (void)context; (void)event;
    return sc_machine_is_active(m, g == 0 ? MICROWAVE_STATE_closed : MICROWAVE_STATE_open);
}

static void action(void *context, sc_machine *m, sc_id a, const sc_event *event) {
    (void)context; (void)event;
    if (a == 0) microwave_send_delayed(m, EV_time_up, 5000u, "cookTimer");
    else microwave_cancel(m, "cookTimer");
}

const sc_host microwave_host_template = { .guard = guard, .action = action };
