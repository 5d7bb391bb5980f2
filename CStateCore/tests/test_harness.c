/*
 * test_harness.c - the test framework's state and the harness's functions (test_harness.h).
 */
#include "test_harness.h"

bool test_failed;
char test_message[2048];

void test_fail(int line, const char *format, ...) {
    if (test_failed) return;
    test_failed = true;
    int n = snprintf(test_message, sizeof test_message, "line %d: ", line);
    va_list args;
    va_start(args, format);
    vsnprintf(test_message + n, sizeof test_message - (size_t)n, format, args);
    va_end(args);
}

/* Everything a test allocates is released after it, even when it returns early. */
#define MAX_OWNED 64
static sc_machine *owned_machines[MAX_OWNED];
static void *owned_blocks[MAX_OWNED];
static int owned_machine_count, owned_block_count;

void *owned_alloc(size_t size) {
    void *p = calloc(1, size);
    if (!p || owned_block_count == MAX_OWNED) {
        fprintf(stderr, "test harness: out of memory\n");
        exit(2);
    }
    owned_blocks[owned_block_count++] = p;
    return p;
}

void own_block(void *block) {
    if (owned_block_count == MAX_OWNED) {
        fprintf(stderr, "test harness: too many blocks\n");
        exit(2);
    }
    owned_blocks[owned_block_count++] = block;
}

void own_machine(sc_machine *m) {
    if (m && owned_machine_count < MAX_OWNED) owned_machines[owned_machine_count++] = m;
}

void release_all(void) {
    for (int i = 0; i < owned_machine_count; i++) sc_machine_destroy(owned_machines[i]);
    for (int i = 0; i < owned_block_count; i++) free(owned_blocks[i]);
    owned_machine_count = owned_block_count = 0;
}

cb_builder *new_chart(void) {
    cb_builder *b = cb_new();
    if (!b || owned_block_count == MAX_OWNED) {
        fprintf(stderr, "test harness: out of memory\n");
        exit(2);
    }
    owned_blocks[owned_block_count++] = b;
    return b;
}

void trace_add(harness *h, const char *format, ...) {
    size_t len = strlen(h->trace);
    if (len && len + 1 < sizeof h->trace) h->trace[len++] = ' ';
    va_list args;
    va_start(args, format);
    vsnprintf(h->trace + len, sizeof h->trace - len, format, args);
    va_end(args);
}

const char *event_name(const harness *h, const sc_event *e) {
    if (!e) return "-";
    if (e->id == SC_EVENT_UNKNOWN) return "?";
    if (e->id < h->b->event_count) return h->b->event_name[e->id];
    return "(bad event id)";
}

/* Appends the names of the active states (document order) to buf. */
void config_text(const harness *h, char *buf, size_t size) {
    sc_id ids[CB_MAX_STATES];
    uint32_t n = sc_machine_active_states(h->m, false, ids, CB_MAX_STATES);
    buf[0] = '\0';
    size_t len = 0;
    for (uint32_t i = 0; i < n && i < CB_MAX_STATES; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", h->b->state_name[ids[i]]);
}

/* ---- host callbacks ------------------------------------------------------------------------ */

static void token_done(harness *h, const char *token, const sc_event *event) {
    if (h->trace_events) {
        size_t len = strlen(h->trace);
        snprintf(h->trace + len, sizeof h->trace - len, "@%s", event_name(h, event));
    }
    if (h->hook) h->hook(h, token, event);
}

static void host_action(void *context, sc_machine *m, sc_id action, const sc_event *event) {
    harness *h = context;
    if (action >= h->b->action_count) {
        trace_add(h, "!bad-action:%u", (unsigned)action);
        return;
    }
    const char *token = h->b->action_name[action];
    trace_add(h, "%s", token);
    /* W3C enterStates adds s to the configuration before its onentry; exitStates runs onexit
     * before removing s. Checked on every test. */
    if (strncmp(token, "enter:", 6) == 0 || strncmp(token, "exit:", 5) == 0) {
        sc_id s = cb_find_state(h->b, strchr(token, ':') + 1);
        if (!sc_machine_is_active(m, s)) trace_add(h, "!inactive-during-%s", token);
    }
    if (h->raise_on_action && h->raise_on_action[action] != SC_NONE) {
        sc_event raised = { h->raise_on_action[action], 0, 0 };
        sc_machine_raise(m, raised);
    }
    token_done(h, token, event);
}

static bool host_guard(void *context, sc_machine *m, sc_id guard, const sc_event *event) {
    harness *h = context;
    (void)m;
    (void)event;
    if (guard >= h->b->guard_count) return false;
    if (h->trace_guards) trace_add(h, "guard:%s", h->b->guard_name[guard]);
    return h->guard[guard];
}

static void host_entered(void *context, sc_machine *m, sc_id state) {
    harness *h = context;
    (void)m;
    if (h->trace_observers) trace_add(h, "entered:%s", h->b->state_name[state]);
}

static void host_exited(void *context, sc_machine *m, sc_id state) {
    harness *h = context;
    if (sc_machine_is_active(m, state)) trace_add(h, "!still-active-in-exited");
    if (h->trace_observers) trace_add(h, "exited:%s", h->b->state_name[state]);
}

static void host_taken(void *context, sc_machine *m, sc_id transition, const sc_event *event) {
    harness *h = context;
    (void)m;
    (void)event;
    if (h->trace_observers) trace_add(h, "taken:%s", h->b->transition_name[transition]);
}

static void host_invoke(void *context, sc_machine *m, sc_id state, bool start) {
    harness *h = context;
    (void)m;
    char token[CB_NAME + 8];
    snprintf(token, sizeof token, "%s:%s", start ? "invoke" : "cancel", h->b->state_name[state]);
    trace_add(h, "%s", token);
    if (h->hook) h->hook(h, token, NULL);
}

static void host_done_data(void *context, sc_machine *m, sc_id final_state, sc_event *done) {
    harness *h = context;
    (void)m;
    (void)final_state;
    done->data = h->done_data;
    h->done_data_calls++;
}

static void host_error(void *context, sc_machine *m, sc_status status, sc_id transition) {
    harness *h = context;
    (void)m;
    if (status != SC_ERR_BAD_TARGETS) trace_add(h, "!unexpected-error-status:%d", (int)status);
    trace_add(h, "error:%s", h->b->transition_name[transition]);
}

static void host_release(void *context, sc_machine *m, const sc_event *event) {
    harness *h = context;
    (void)m;
    (void)event;
    h->releases++;
}

void harness_bind(harness *h, cb_builder *b) {
    memset(h, 0, sizeof *h);
    h->b = b;
    h->host.context = h;
    h->host.guard = host_guard;
    h->host.action = host_action;
    h->host.entered = host_entered;
    h->host.exited = host_exited;
    h->host.taken = host_taken;
    h->host.invoke = host_invoke;
    h->host.done_data = host_done_data;
    h->host.release = host_release;
    h->host.error = host_error;
}

/* A harness whose host has every callback, without a machine. NULL if the chart is bad. */
harness *new_harness(cb_builder *b) {
    if (!cb_finish(b)) return NULL;
    harness *h = owned_alloc(sizeof *h);
    harness_bind(h, b);
    return h;
}

/* A harness with a machine made by sc_machine_create, not started. NULL on failure. */
harness *machine_with(cb_builder *b, const sc_options *options) {
    harness *h = new_harness(b);
    if (!h) return NULL;
    h->m = sc_machine_create(&b->chart, &h->host, options);
    if (!h->m) return NULL;
    own_machine(h->m);
    return h;
}

sc_event ev(const harness *h, const char *name) {
    sc_event e = { SC_EVENT_UNKNOWN, 0, 0 };
    if (strcmp(name, "?") == 0) return e;
    e.id = cb_find_event(h->b, name);
    if (e.id == SC_NONE) {
        fprintf(stderr, "test bug: event '%s' is not interned in the chart\n", name);
        exit(2);
    }
    return e;
}

sc_id st(const harness *h, const char *name) {
    sc_id s = cb_find_state(h->b, name);
    if (s == SC_NONE) {
        fprintf(stderr, "test bug: no state '%s'\n", name);
        exit(2);
    }
    return s;
}

void set_guard(harness *h, const char *name, bool value) {
    sc_id g = cb_find_guard(h->b, name);
    if (g == SC_NONE) {
        fprintf(stderr, "test bug: no guard '%s'\n", name);
        exit(2);
    }
    h->guard[g] = value;
}
