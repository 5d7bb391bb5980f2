/*
 * `_event`: a global accessor whose getter (a Duktape/C function) builds the event object from
 * the fields the host bound (dukshim_event_*) the first time a script reads it after a binding,
 * keeps it in the stash and returns that same object until the next binding. Binding an event
 * therefore compiles and runs nothing, and an event no script looks at costs a few copies.
 */
#include <string.h>

#include "shim_internal.h"

#define DUKSHIM_EVENT_KEY DUK_HIDDEN_SYMBOL("scEvent")
#define DUKSHIM_EVENT_KEYS DUK_HIDDEN_SYMBOL("scEventKeys")
#define DATA_KEY DUKSHIM_EVENT_FIELD_COUNT /* keys[DATA_KEY] is "data" */

static const char *const field_names[DUKSHIM_EVENT_FIELD_COUNT] = {
    "name", "type", "sendid", "origin", "origintype", "invokeid", "raw",
};

void dukshim_event_begin(dukshim_engine *e) {
    e->event.present = 0;
    e->event.data_kind = -1;
    e->event.pending = 1;
}

int32_t dukshim_event_set_field(dukshim_engine *e, int32_t field, const char *text, size_t n) {
    if (field < 0 || field >= DUKSHIM_EVENT_FIELD_COUNT) {
        return 0;
    }
    dukshim_writer *w = &e->event.fields[field];
    w->failed = 0;
    dukshim_writer_reset(w);
    dukshim_writer_bytes(w, text, n);
    if (w->failed) {
        return 0;
    }
    e->event.present |= 1u << field;
    return 1;
}

int32_t dukshim_event_set_data(dukshim_engine *e, int32_t kind, const void *value, size_t n) {
    dukshim_writer *w = &e->event.data;
    w->failed = 0;
    dukshim_writer_reset(w);
    dukshim_writer_bytes(w, value, n);
    if (w->failed || (kind != DUKSHIM_VALUE_DATA && kind != DUKSHIM_VALUE_STORED)) {
        e->event.data_kind = -1;
        return 0;
    }
    e->event.data_kind = kind;
    return 1;
}

/* Stack in: [] (inside a protected call). Out: [data]. */
static duk_ret_t push_data(duk_context *ctx, void *udata) {
    dukshim_engine *e = (dukshim_engine *)udata;
    if (e->event.data_kind == DUKSHIM_VALUE_DATA) {
        dukshim_decode_push(ctx, e->event.data.p, e->event.data.len, 0);
    } else {
        dukshim_push_helper(ctx, "stored");
        dukshim_push_utf8(ctx, (const char *)e->event.data.p, e->event.data.len);
        duk_get_prop(ctx, -2);
        duk_remove(ctx, -2);
    }
    return 1;
}

static void build_event(duk_context *ctx, dukshim_engine *e) {
    duk_idx_t object = duk_push_object(ctx);
    for (int field = 0; field < DUKSHIM_EVENT_FIELD_COUNT; field++) {
        if (field == DUKSHIM_EVENT_RAW) {
            if (e->event.data_kind < 0) {
                duk_push_undefined(ctx);
            } else if (duk_safe_call(ctx, push_data, e, 0, 1) != DUK_EXEC_SUCCESS) {
                duk_pop(ctx);            /* data the engine cannot hold: undefined, as no data */
                duk_push_undefined(ctx);
            }
            duk_push_heapptr(ctx, e->event.keys[DATA_KEY]);
            duk_swap_top(ctx, -2);
            duk_put_prop(ctx, object);
            if (!(e->event.present & (1u << field))) {
                continue;                /* `raw` is a member only when the I/O processor gave one */
            }
        }
        duk_push_heapptr(ctx, e->event.keys[field]); /* interned once, at installation */
        if (e->event.present & (1u << field)) {
            dukshim_push_utf8(ctx, (const char *)e->event.fields[field].p, e->event.fields[field].len);
        } else {
            duk_push_undefined(ctx);
        }
        duk_put_prop(ctx, object);
    }
    duk_freeze(ctx, object);
    duk_push_global_stash(ctx);
    duk_dup(ctx, object);
    duk_put_prop_string(ctx, -2, DUKSHIM_EVENT_KEY); /* keeps the object alive */
    duk_pop(ctx);
    e->event.object = duk_get_heapptr(ctx, object);
    e->event.pending = 0;
}

static duk_ret_t event_getter(duk_context *ctx) {
    dukshim_engine *e = dukshim_engine_from_ctx(ctx);
    if (e->event.pending) {
        build_event(ctx, e);
        return 1;
    }
    if (e->event.object == NULL) {
        return 0; /* no event yet: undefined */
    }
    duk_push_heapptr(ctx, e->event.object);
    return 1;
}

static duk_ret_t event_setter(duk_context *ctx) {
    return duk_type_error(ctx, "cannot assign to read-only system variable '_event'");
}

static void op_event_install(duk_context *ctx, dukshim_call *call) {
    dukshim_engine *e = call->engine;
    duk_push_global_stash(ctx);
    duk_push_array(ctx); /* keeps the member names alive for their heap pointers */
    for (int key = 0; key <= DATA_KEY; key++) {
        duk_push_string(ctx, key == DATA_KEY ? "data" : field_names[key]);
        e->event.keys[key] = duk_get_heapptr(ctx, -1);
        duk_put_prop_index(ctx, -2, (duk_uarridx_t)key);
    }
    duk_put_prop_string(ctx, -2, DUKSHIM_EVENT_KEYS);
    duk_pop(ctx);
    /* Listed among the read-only system variables, so `<data id="_event">` is refused too. */
    dukshim_push_helper(ctx, "sys");
    duk_push_undefined(ctx);
    duk_put_prop_string(ctx, -2, "_event");
    duk_pop(ctx);
    duk_push_global_object(ctx);
    duk_push_string(ctx, "_event");
    duk_push_c_function(ctx, event_getter, 0);
    duk_push_c_function(ctx, event_setter, 1);
    duk_def_prop(ctx, -4, DUK_DEFPROP_HAVE_GETTER | DUK_DEFPROP_HAVE_SETTER | DUK_DEFPROP_SET_ENUMERABLE |
                              DUK_DEFPROP_CLEAR_CONFIGURABLE);
    duk_pop(ctx);
}

int32_t dukshim_event_install(dukshim_engine *e) {
    dukshim_call call = {0};
    call.op = op_event_install;
    return dukshim_run(e, &call);
}

void dukshim_event_free(dukshim_engine *e) {
    for (int field = 0; field < DUKSHIM_EVENT_FIELD_COUNT; field++) {
        dukshim_writer_free(&e->event.fields[field]);
    }
    dukshim_writer_free(&e->event.data);
}
