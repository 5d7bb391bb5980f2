/* INTERIM hand-written stand-in for `statechart generate c scxml/examples/microwave.scxml`;
 * replaced by the generator's output once it lands. */
#ifndef MICROWAVE_H
#define MICROWAVE_H
#include "sc_core.h"
#include <stdint.h>

enum { MICROWAVE_STATE_scxml, MICROWAVE_STATE_oven, MICROWAVE_STATE_engine, MICROWAVE_STATE_off,
       MICROWAVE_STATE_on, MICROWAVE_STATE_idle, MICROWAVE_STATE_cooking, MICROWAVE_STATE_done,
       MICROWAVE_STATE_door, MICROWAVE_STATE_open, MICROWAVE_STATE_closed, MICROWAVE_STATE_served };

extern const sc_chart microwave_chart;
extern const sc_host microwave_host_template;
void microwave_prepare(void);

/* Hooks the firmware implements. */
void microwave_send_delayed(sc_machine *machine, sc_id event, uint32_t delay_ms, const char *sendid);
void microwave_cancel(sc_machine *machine, const char *sendid);
#endif
