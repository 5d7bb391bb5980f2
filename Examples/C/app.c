/* app.c - see app.h. Everything here is static: no malloc, no stdio, so the same file runs on
 * the host and on a bare Cortex-M. */
#include "app.h"

#include "microwave.h"
#include "timers.h"

#include <string.h>

/* The machine's only memory, sized by the generated header for microwave_options in this build
 * (microwave_config.h's switches, this target's pointers): exactly sc_machine_size(), which
 * app_start checks, so a core built with other switches is found at once. */
static uint64_t machine_memory[(microwave_MACHINE_SIZE + 7u) / 8u];

static sc_machine *machine;
static const app_port *port;
static timers pending;
static uint32_t now;            /* ms since app_start: the tick delayed sends count from */

/* ---- output: one line buffered, written in one call ----------------------------------- */

static char line[256];
static size_t line_used;

static void flush(void) {
    if (line_used) port->write(line, line_used);
    line_used = 0;
}

static void put(const char *text, size_t length) {
    while (length) {
        if (line_used == sizeof line) flush();
        size_t n = sizeof line - line_used;
        if (n > length) n = length;
        memcpy(line + line_used, text, n);
        line_used += n;
        text += n;
        length -= n;
    }
}

static void put_text(const char *text) { put(text, strlen(text)); }

/* A JSON string with the escapes `statechart trace` uses (DataValue.quote): \" \\ \n \r \t,
 * \u00XX for other control characters, and \u2028/\u2029 (valid JSON either way). */
static void put_quoted(const char *text, size_t length) {
    static const char hex[] = "0123456789abcdef";
    put("\"", 1);
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '"') put("\\\"", 2);
        else if (c == '\\') put("\\\\", 2);
        else if (c == '\n') put("\\n", 2);
        else if (c == '\r') put("\\r", 2);
        else if (c == '\t') put("\\t", 2);
        else if (c < 0x20) {
            char escape[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            put(escape, sizeof escape);
        } else if (c == 0xE2 && i + 2 < length && (unsigned char)text[i + 1] == 0x80 &&
                   ((unsigned char)text[i + 2] == 0xA8 || (unsigned char)text[i + 2] == 0xA9)) {
            put((unsigned char)text[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
            i += 2;
        } else {
            put((const char *)&text[i], 1);
        }
    }
    put("\"", 1);
}

/* {"event": NAME, "configuration": [atomic states in document order]} */
static void print_line(const char *event, size_t length) {
    const sc_chart *chart = &microwave_chart;
    put_text("{\"event\": ");
    if (event) put_quoted(event, length);
    else put_text("null");
    put_text(", \"configuration\": [");
    /* The active atomic states in document order (the core's list), named by the chart's table. */
    static sc_id active[microwave_STATE_COUNT];
    uint32_t count = sc_machine_active_states(machine, true, active, microwave_STATE_COUNT);
    for (uint32_t i = 0; i < count && i < microwave_STATE_COUNT; i++) {
        if (i > 0) put(",", 1);
        put_quoted(chart->state_names[active[i]], strlen(chart->state_names[active[i]]));
    }
    put_text("]}\n");
    flush();
}

static void log_text(const char *text) { port->log(text, strlen(text)); }

static void report(const char *what, sc_status status) {
    log_text("microwave: ");
    log_text(what);
    log_text(": ");
    log_text(sc_status_text(status));
    log_text("\n");
}

/* ---- events ---------------------------------------------------------------------------- */

/* The chart's id for `name`: the name itself, else its longest dot-prefix the chart knows (a
 * descriptor "door" matches "door.slam"), else SC_EVENT_UNKNOWN (matches only "*"). */
static sc_id event_id(const char *name, size_t length) {
    const sc_chart *chart = &microwave_chart;
    for (;;) {
        for (sc_id e = 0; e < chart->event_count; e++) {
            const char *known = chart->event_names[e];
            if (strlen(known) == length && memcmp(known, name, length) == 0) return e;
        }
        while (length > 0 && name[length - 1] != '.') length--;
        if (length == 0) return SC_EVENT_UNKNOWN;
        length--;   /* drop the dot */
    }
}

/* One external event's macrostep, its line, then the events the chart sent itself. */
static void dispatch(sc_event event, const char *name, size_t length) {
    sc_status status = sc_machine_dispatch(machine, event);
    if (status < 0) report("dispatch", status);
    print_line(name, length);
    status = sc_machine_run(machine);
    if (status < 0) report("queued events", status);
}

/* ---- the generated chart's timer hooks ------------------------------------------------- */

void microwave_timer_start(void *context, sc_machine *m, const char *send_id, sc_event event, uint32_t delay_ms) {
    (void)context;
    (void)m;
    if (!timers_start(&pending, now, delay_ms, send_id, event))
        log_text("microwave: timer table full; delayed event dropped\n");
}

void microwave_timer_cancel(void *context, sc_machine *m, const char *send_id) {
    (void)context;
    (void)m;
    timers_cancel(&pending, send_id);
}

/* ---- the loop's entry points ----------------------------------------------------------- */

bool app_start(const app_port *the_port) {
    port = the_port;
    size_t needed = sc_machine_size(&microwave_chart, &microwave_options);
    if (needed == 0 || needed != microwave_MACHINE_SIZE) {
        log_text(needed == 0 ? "microwave: the chart's tables are invalid\n"
                             : "microwave: microwave_MACHINE_SIZE is not sc_machine_size(): build the core with microwave_config.h\n");
        return false;
    }
    static const sc_host host = { .guard = microwave_guard, .action = microwave_action };
    sc_status status = sc_machine_init(&machine, machine_memory, sizeof machine_memory, &microwave_chart, &host,
                                       &microwave_options);
    if (status != SC_OK) {
        report("init", status);
        return false;
    }
    status = sc_machine_start(machine);
    if (status < 0) report("start", status);
    print_line(NULL, 0);
    status = sc_machine_run(machine);
    if (status < 0) report("queued events", status);
    return true;
}

static bool before(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

void app_advance(uint32_t ms) {
    uint32_t target = now + ms, due;
    while (timers_next_due(&pending, &due) && !before(target, due)) {
        if (port->wait_until) port->wait_until(due);
        /* Fired at its due tick whatever the real tick is now, so the sends it makes count from
         * the same time on every port. */
        now = due;
        sc_event event;
        while (timers_take_due(&pending, now, &event)) {
            const char *name = microwave_chart.event_names[event.id];
            dispatch(event, name, strlen(name));
        }
    }
    if (port->wait_until) port->wait_until(target);
    now = target;
}

/* Whether text[0..length) is well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms, no
 * surrogates, nothing above U+10FFFF), as `statechart trace` requires of a line. */
static bool valid_utf8(const unsigned char *text, size_t length) {
    size_t i = 0;
    while (i < length) {
        unsigned char c = text[i];
        size_t extra;
        unsigned char low = 0x80, high = 0xBF;   /* range of the first continuation byte */
        if (c < 0x80) extra = 0;
        else if (c >= 0xC2 && c <= 0xDF) extra = 1;
        else if (c == 0xE0) { extra = 2; low = 0xA0; }
        else if (c == 0xED) { extra = 2; high = 0x9F; }
        else if (c >= 0xE1 && c <= 0xEF) extra = 2;
        else if (c == 0xF0) { extra = 3; low = 0x90; }
        else if (c == 0xF4) { extra = 3; high = 0x8F; }
        else if (c >= 0xF1 && c <= 0xF3) extra = 3;
        else return false;
        if (length - i - 1 < extra) return false;
        for (size_t k = 1; k <= extra; k++) {
            unsigned char b = text[i + k];
            if (k == 1 ? (b < low || b > high) : (b < 0x80 || b > 0xBF)) return false;
        }
        i += 1 + extra;
    }
    return true;
}

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool app_input_line(const char *text) {
    /* The line as `statechart trace` reads it: spaces, tabs and carriage returns around it are
     * ignored, the name ends at the first space or tab, a blank line is skipped. */
    size_t length = strlen(text);
    if (length && text[length - 1] == '\n') length--;
    if (!valid_utf8((const unsigned char *)text, length)) {
        log_text("microwave: a line is not valid UTF-8; skipped\n");
        return false;
    }
    while (length && blank(text[length - 1])) length--;
    while (length && blank(*text)) { text++; length--; }
    if (length == 0) return true;
    if (text[0] == '+') {
        uint32_t ms = 0;
        size_t i = 1;
        for (; i < length && text[i] >= '0' && text[i] <= '9'; i++) {
            if (ms > (UINT32_C(0x7FFFFFFF) - (uint32_t)(text[i] - '0')) / 10u) break;
            ms = ms * 10u + (uint32_t)(text[i] - '0');
        }
        if (i == 1 || i != length) {
            log_text("microwave: '+' must be followed by milliseconds, 0 to 2147483647\n");
            return false;
        }
        app_advance(ms);
        return true;
    }
    size_t name_length = 0;
    while (name_length < length && text[name_length] != ' ' && text[name_length] != '\t') name_length++;
    dispatch((sc_event){ .id = event_id(text, name_length) }, text, name_length);
    return true;
}
