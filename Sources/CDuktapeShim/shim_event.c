/*
 * `_event`: one object per engine, which scripts see frozen (every member is a getter without a
 * setter and non-configurable, the object is not extensible). The text members' getter (one
 * Duktape/C function) reads the field the host bound last (dukshim_event_*), so binding an event
 * compiles and runs nothing, allocates nothing once the field buffers are long enough, and a
 * field costs only when a script reads it.
 *
 * `data`'s getter converts the bound data the first time a script reads it after a binding and
 * returns that same value for every later read of the binding (kept in the stash, released when
 * the next operation starts after a new binding), so an event whose data no script reads costs
 * no conversion.
 *
 * `raw` is a member only while the bound event has one: added (DUK_DEFPROP_FORCE, the way C may
 * extend a frozen object) when the next operation starts. A frozen object's member cannot be
 * removed, so the first event without `raw` after one with it gets a new object (a rare case:
 * only BasicHTTP events carry `raw`).
 */
#include <string.h>

#include "shim_internal.h"

#if !defined(DUK_USE_NONSTD_GETTER_KEY_ARGUMENT)
#error "the event members' shared getter needs Duktape's getter key argument (DUK_USE_NONSTD_GETTER_KEY_ARGUMENT)"
#endif

#define DUKSHIM_EVENT_KEY DUK_HIDDEN_SYMBOL("scEvent")
#define DUKSHIM_EVENT_DATA_KEY DUK_HIDDEN_SYMBOL("scEventData")
#define DUKSHIM_EVENT_KEYS DUK_HIDDEN_SYMBOL("scEventKeys")
#define DUKSHIM_EVENT_GETTER_KEY DUK_HIDDEN_SYMBOL("scEventGetter")
#define DATA_KEY DUKSHIM_EVENT_FIELD_COUNT /* keys[DATA_KEY] is "data" */
#define RAW_BIT (1u << DUKSHIM_EVENT_RAW)

static const char *const field_names[DUKSHIM_EVENT_FIELD_COUNT] = {
    "name", "type", "sendid", "origin", "origintype", "invokeid", "raw",
};

void dukshim_event_begin(dukshim_engine *e) {
    e->event.present = 0;
    e->event.data_kind = -1;
    e->event.data_converted = 0;
    e->event.stale = 1;
    e->event.bound = 1;
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

int32_t dukshim_event_bind_external(dukshim_engine *e, const char *name, size_t n) {
    static const char type[] = "external";
    dukshim_event_begin(e);
    int32_t named = dukshim_event_set_field(e, DUKSHIM_EVENT_NAME, name, n);
    return dukshim_event_set_field(e, DUKSHIM_EVENT_TYPE, type, sizeof type - 1) && named;
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

static duk_ret_t data_getter(duk_context *ctx) {
    dukshim_engine *e = dukshim_engine_from_ctx(ctx);
    if (e->event.data_kind < 0) {
        return 0; /* no data: undefined */
    }
    duk_push_global_stash(ctx);
    if (e->event.data_converted) {
        duk_get_prop_string(ctx, -1, DUKSHIM_EVENT_DATA_KEY);
        return 1;
    }
    if (duk_safe_call(ctx, push_data, e, 0, 1) != DUK_EXEC_SUCCESS) {
        duk_pop(ctx); /* data the engine cannot hold: undefined, as no data */
        duk_push_undefined(ctx);
    }
    duk_dup_top(ctx);
    duk_put_prop_string(ctx, -3, DUKSHIM_EVENT_DATA_KEY);
    e->event.data_converted = 1;
    e->event.data_in_stash = 1;
    return 1;
}

/* The getter of every text member, shared by them: Duktape passes the property key as the
   getter's argument (DUK_USE_NONSTD_GETTER_KEY_ARGUMENT, on in the linked build), which is one of
   the interned keys. One function object per engine, not one per member. */
static duk_ret_t field_getter(duk_context *ctx) {
    dukshim_engine *e = dukshim_engine_from_ctx(ctx);
    void *key = duk_get_heapptr(ctx, 0);
    for (int field = 0; field < DUKSHIM_EVENT_FIELD_COUNT; field++) {
        if (key == e->event.keys[field]) {
            if (!(e->event.present & (1u << field))) {
                return 0; /* absent: undefined */
            }
            dukshim_push_utf8(ctx, (const char *)e->event.fields[field].p, e->event.fields[field].len);
            return 1;
        }
    }
    return 0;
}

/* Stack in: [..., object, getter]; out: [..., object]. Defines member `key` of the object as the
   getter (FORCE: also on the frozen object). */
static void define_member(duk_context *ctx, dukshim_engine *e, int key) {
    duk_push_heapptr(ctx, e->event.keys[key]); /* interned once, at installation */
    duk_swap_top(ctx, -2);
    duk_def_prop(ctx, -3, DUK_DEFPROP_HAVE_GETTER | DUK_DEFPROP_FORCE | DUK_DEFPROP_SET_ENUMERABLE |
                              DUK_DEFPROP_CLEAR_CONFIGURABLE);
}

/* Pushes the text members' getter, made once per engine (kept in the stash). */
static void push_field_getter(duk_context *ctx) {
    duk_push_global_stash(ctx);
    if (!duk_get_prop_string(ctx, -1, DUKSHIM_EVENT_GETTER_KEY)) {
        duk_pop(ctx);
        duk_push_c_function(ctx, field_getter, 1);
        duk_dup_top(ctx);
        duk_put_prop_string(ctx, -3, DUKSHIM_EVENT_GETTER_KEY);
    }
    duk_remove(ctx, -2);
}

/* A new, frozen event object (no `raw`), kept in the stash. */
static void create_object(duk_context *ctx, dukshim_engine *e) {
    duk_push_object(ctx);
    for (int field = 0; field < DUKSHIM_EVENT_RAW; field++) {
        push_field_getter(ctx);
        define_member(ctx, e, field);
    }
    duk_push_c_function(ctx, data_getter, 0);
    define_member(ctx, e, DATA_KEY);
    duk_freeze(ctx, -1);
    e->event.object = duk_get_heapptr(ctx, -1);
    duk_push_global_stash(ctx);
    duk_dup(ctx, -2);
    duk_put_prop_string(ctx, -2, DUKSHIM_EVENT_KEY); /* keeps the object alive */
    duk_pop_2(ctx);
    e->event.has_raw = 0;
}

void dukshim_event_show(duk_context *ctx, dukshim_engine *e) {
    dukshim_event_binding *b = &e->event;
    if (b->data_in_stash) {
        duk_push_global_stash(ctx);
        duk_push_undefined(ctx);
        duk_put_prop_string(ctx, -2, DUKSHIM_EVENT_DATA_KEY); /* the last event's data may be freed */
        duk_pop(ctx);
        b->data_in_stash = 0;
    }
    if (b->object != NULL) {
        int wants_raw = (b->present & RAW_BIT) != 0;
        if (b->has_raw && !wants_raw) {
            create_object(ctx, e);
        } else if (!b->has_raw && wants_raw) {
            duk_push_heapptr(ctx, b->object);
            push_field_getter(ctx);
            define_member(ctx, e, DUKSHIM_EVENT_RAW);
            duk_pop(ctx);
            b->has_raw = 1;
        }
    }
    b->stale = 0;
}

int dukshim_event_settle(dukshim_engine *e) {
    dukshim_event_binding *b = &e->event;
    if (b->stale) {
        int wants_raw = (b->present & RAW_BIT) != 0;
        if (b->data_in_stash || (b->object != NULL && b->has_raw != wants_raw)) {
            return 0;
        }
        b->stale = 0;
    }
    return 1;
}

static duk_ret_t event_getter(duk_context *ctx) {
    dukshim_engine *e = dukshim_engine_from_ctx(ctx);
    if (!e->event.bound || e->event.object == NULL) {
        return 0; /* no event yet: undefined */
    }
    if (e->event.stale) {
        dukshim_event_show(ctx, e);
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
    create_object(ctx, e);
    e->event.stale = e->event.bound; /* a binding made before installation is shown next */
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
