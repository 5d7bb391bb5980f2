/* INTERIM: a hand-written stand-in for `statechart generate c scxml/examples/microwave.scxml
 * --name microwave`, with the generator's interface; replaced by its output once it lands. */
#ifndef MICROWAVE_H
#define MICROWAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sc_core.h"

enum microwave_state {
    microwave_ROOT = 0, microwave_STATE_oven = 1, microwave_STATE_engine = 2, microwave_STATE_off = 3,
    microwave_STATE_on = 4, microwave_STATE_idle = 5, microwave_STATE_cooking = 6, microwave_STATE_done = 7,
    microwave_STATE_door = 8, microwave_STATE_open = 9, microwave_STATE_closed = 10,
    microwave_STATE_served = 11, microwave_STATE_COUNT = 12
};
enum microwave_event {
    microwave_EVENT_turn, microwave_EVENT_turn_on, microwave_EVENT_turn_off, microwave_EVENT_time,
    microwave_EVENT_time_up, microwave_EVENT_door, microwave_EVENT_door_close, microwave_EVENT_door_open,
    microwave_EVENT_done, microwave_EVENT_done_state, microwave_EVENT_done_state_on, microwave_EVENT_COUNT
};

extern const sc_chart microwave_chart;
extern const sc_options microwave_options;
#define microwave_MACHINE_SIZE ((size_t)4096u)

bool microwave_guard(void *context, sc_machine *machine, sc_id guard, const sc_event *event);
void microwave_action(void *context, sc_machine *machine, sc_id action, const sc_event *event);

void microwave_timer_start(void *context, sc_machine *machine, const char *send_id, sc_event event,
                           uint32_t delay_ms);
void microwave_timer_cancel(void *context, sc_machine *machine, const char *send_id);
#endif
