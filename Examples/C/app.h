/*
 * app.h - the microwave's dispatch loop, shared by the host program (main.c, events from
 * standard input) and the Cortex-M firmware (cortex-m/firmware.c, a scripted list): one
 * machine in a static block, the timer hooks on a millisecond tick counter, and after start-up
 * and after each event one trace line, the same line `statechart trace` prints:
 *
 *     {"event": "door.close", "configuration": ["off","closed"]}
 *
 * A port (host or board) supplies where the lines and the log go and how to wait for a tick:
 *
 *     static const app_port port = { .write = write_stdout, .log = write_stderr };
 *     app_start(&port);
 *     app_input_line("door.close");    // dispatch, print its line, then the events it sent itself
 *     app_input_line("+5000");         // 5 s pass: due delayed events fire, each with its line
 */
#ifndef APP_H
#define APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct app_port {
    /* Writes trace output (standard output on the host, the semihosting console on the board). */
    void (*write)(const char *text, size_t length);
    /* Writes diagnostics and <log> output (standard error). */
    void (*log)(const char *text, size_t length);
    /* Waits until `tick` ms have passed since app_start, or returns at once (NULL: virtual time,
     * as on the host, where time passes only through app_advance). */
    void (*wait_until)(uint32_t tick);
} app_port;

/* Builds the machine in its static block, starts it and prints the first line. Returns false
 * (after logging why) when the machine cannot be built. */
bool app_start(const app_port *port);

/* Lets `ms` milliseconds pass: every delayed event falling due meanwhile is dispatched at its
 * due tick, in due order, and prints its line like an input event. */
void app_advance(uint32_t ms);

/* Runs one line of input, read as `statechart trace` reads it (spaces, tabs and carriage returns
 * around it ignored, blank lines skipped): an event name, which ends at the first space or tab
 * (data after it, which the null datamodel cannot read, is ignored), or `+MS` to let MS
 * milliseconds pass. Returns false (after logging why) for a malformed `+MS` or a line that is
 * not valid UTF-8, which is skipped. */
bool app_input_line(const char *line);

#endif
