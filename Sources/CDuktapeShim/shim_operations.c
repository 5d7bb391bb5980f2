/*
 * The operations behind duk_shim.h: evaluation, variables, read-only system variables,
 * stored values, foreach copies and JSON. Each op_* runs inside dukshim_run's protected call and
 * may throw freely; each public function only fills an dukshim_call and calls dukshim_run.
 */
#include <string.h>

#include "shim_internal.h"

static void push_evaluated(duk_context *ctx, const char *src, size_t n, int32_t kind) {
    dukshim_push_compiled_source(ctx, src, n, kind);
    duk_push_global_object(ctx);
    duk_call_method(ctx, 0);
}

static void push_stored_holder(duk_context *ctx) {
    dukshim_push_helper(ctx, "stored");
}

/* Pushes stored[key]; ReferenceError if absent. */
static void push_stored(duk_context *ctx, const char *key, size_t n) {
    push_stored_holder(ctx);
    dukshim_push_utf8(ctx, key, n);
    duk_dup(ctx, -1);
    if (!duk_has_prop(ctx, -3)) { /* pops the copy of the key */
        (void)duk_reference_error(ctx, "no stored value named '%s'", duk_safe_to_string(ctx, -1));
    }
    duk_get_prop(ctx, -2); /* replaces the key with the value */
    duk_remove(ctx, -2);
}

/* Pushes the operation's value according to call->value_kind. */
static void push_value(duk_context *ctx, dukshim_call *call, int freeze) {
    switch (call->value_kind) {
    case DUKSHIM_VALUE_DATA:
        dukshim_decode_push(ctx, (const uint8_t *)call->value, call->value_length, freeze);
        break;
    case DUKSHIM_VALUE_EXPRESSION:
        push_evaluated(ctx, (const char *)call->value, call->value_length, DUKSHIM_SOURCE_EXPRESSION);
        break;
    case DUKSHIM_VALUE_STORED:
        push_stored(ctx, (const char *)call->value, call->value_length);
        if (call->number >= 0) {
            if (!duk_is_object(ctx, -1)) {
                (void)duk_type_error(ctx, "stored value is not an array");
            }
            duk_size_t length = duk_get_length(ctx, -1);
            if ((uint64_t)call->number >= (uint64_t)length) {
                (void)duk_range_error(ctx, "element %ld out of range (length %lu)", (long)call->number,
                                      (unsigned long)length);
            }
            duk_get_prop_index(ctx, -1, (duk_uarridx_t)call->number);
            duk_remove(ctx, -2);
        }
        break;
    default:
        (void)duk_type_error(ctx, "unknown value kind");
    }
}

/* Throws TypeError if `name` (at stack index idx) is a read-only system variable. */
static void reject_system_variable(duk_context *ctx, duk_idx_t idx, const char *what) {
    idx = duk_normalize_index(ctx, idx);
    dukshim_push_helper(ctx, "sys");
    duk_dup(ctx, idx);
    if (duk_has_prop(ctx, -2)) {
        (void)duk_type_error(ctx, "cannot %s read-only system variable '%s'", what, duk_safe_to_string(ctx, idx));
    }
    duk_pop(ctx);
}

/* ---- Evaluation ---- */

static void op_eval(duk_context *ctx, dukshim_call *call) {
    if (call->flag) {
        dukshim_push_compiled_source(ctx, call->s1, call->n1, (int32_t)call->number);
        duk_pop(ctx);
    } else {
        push_evaluated(ctx, call->s1, call->n1, (int32_t)call->number);
    }
}

int32_t dukshim_eval(dukshim_engine *e, const char *source, size_t source_length, int32_t source_kind,
                    int32_t result_mode, int32_t compile_only) {
    dukshim_call call = {0};
    call.op = op_eval;
    call.s1 = source, call.n1 = source_length;
    call.number = source_kind;
    call.flag = compile_only;
    call.result_mode = result_mode;
    return dukshim_run(e, &call);
}

/* ---- Variables ---- */

static void op_declare(duk_context *ctx, dukshim_call *call) {
    duk_push_global_object(ctx);
    dukshim_push_utf8(ctx, call->s1, call->n1);
    reject_system_variable(ctx, -1, "redeclare");
    push_value(ctx, call, 0);
    /* Like `var`: writable and enumerable; a new binding is not configurable. */
    duk_def_prop(ctx, -3, DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_SET_WRITABLE | DUK_DEFPROP_SET_ENUMERABLE);
    duk_pop(ctx);
}

int32_t dukshim_declare(dukshim_engine *e, const char *name, size_t name_length, int32_t value_kind,
                       const void *value, size_t value_length, int64_t element) {
    dukshim_call call = {0};
    call.op = op_declare;
    call.s1 = name, call.n1 = name_length;
    call.value_kind = value_kind, call.value = value, call.value_length = value_length;
    call.number = element;
    return dukshim_run(e, &call);
}

static void op_assign(duk_context *ctx, dukshim_call *call) {
    dukshim_push_function(ctx, call->out_number); /* the location's strict-mode assignment */
    push_value(ctx, call, 0);
    duk_call(ctx, 1);
    duk_pop(ctx);
}

int32_t dukshim_assign(dukshim_engine *e, int32_t location_id, int32_t value_kind, const void *value,
                       size_t value_length, int64_t element) {
    dukshim_call call = {0};
    call.op = op_assign;
    call.out_number = location_id;
    call.value_kind = value_kind, call.value = value, call.value_length = value_length;
    call.number = element;
    return dukshim_run(e, &call);
}

/* ---- Read-only system variables ---- */

static void op_set_readonly(duk_context *ctx, dukshim_call *call) {
    dukshim_push_helper(ctx, "setReadOnly");
    dukshim_push_utf8(ctx, call->s1, call->n1);
    /* Data values are fresh: freeze them deeply. Stored values may be shared with scripts:
       freeze only the top level (so `_event.name` is fixed while `_event.data`'s contents
       stay as the sender made them). */
    push_value(ctx, call, call->value_kind == DUKSHIM_VALUE_DATA);
    if (call->value_kind != DUKSHIM_VALUE_DATA && duk_is_object(ctx, -1)) {
        duk_freeze(ctx, -1);
    }
    duk_call(ctx, 2);
    duk_pop(ctx);
}

int32_t dukshim_set_readonly(dukshim_engine *e, const char *name, size_t name_length, int32_t value_kind,
                            const void *value, size_t value_length, int64_t element) {
    dukshim_call call = {0};
    call.op = op_set_readonly;
    call.s1 = name, call.n1 = name_length;
    call.value_kind = value_kind, call.value = value, call.value_length = value_length;
    call.number = element;
    return dukshim_run(e, &call);
}

/* ---- Stored values ---- */

static void op_store(duk_context *ctx, dukshim_call *call) {
    push_stored_holder(ctx);
    dukshim_push_utf8(ctx, call->s1, call->n1);
    push_value(ctx, call, 0);
    duk_put_prop(ctx, -3);
    duk_pop(ctx);
}

int32_t dukshim_store(dukshim_engine *e, const char *key, size_t key_length, int32_t value_kind, const void *value,
                     size_t value_length, int64_t element) {
    dukshim_call call = {0};
    call.op = op_store;
    call.s1 = key, call.n1 = key_length;
    call.value_kind = value_kind, call.value = value, call.value_length = value_length;
    call.number = element;
    return dukshim_run(e, &call);
}

static void op_store_array_copy(duk_context *ctx, dukshim_call *call) {
    dukshim_push_called(ctx, call->number);
    if (!duk_is_array(ctx, -1)) {
        (void)duk_type_error(ctx, "foreach: the array expression did not produce an array");
    }
    /* A shallow copy (SCXML 4.6): later changes to the array do not affect the iteration. */
    duk_size_t length = duk_get_length(ctx, -1);
    duk_idx_t copy = duk_push_array(ctx);
    for (duk_size_t i = 0; i < length; i++) {
        duk_push_uint(ctx, (duk_uint_t)i);
        duk_get_prop_index(ctx, -3, (duk_uarridx_t)i);
        duk_def_prop(ctx, copy, DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_SET_WEC);
    }
    push_stored_holder(ctx);
    dukshim_push_utf8(ctx, call->s1, call->n1);
    duk_dup(ctx, copy);
    duk_put_prop(ctx, -3);
    duk_pop_3(ctx);
    call->out_number = (int64_t)length;
}

int32_t dukshim_store_array_copy(dukshim_engine *e, const char *key, size_t key_length, int32_t array_id,
                                 int64_t *count) {
    dukshim_call call = {0};
    call.op = op_store_array_copy;
    call.s1 = key, call.n1 = key_length;
    call.number = array_id;
    int32_t status = dukshim_run(e, &call);
    *count = status == DUKSHIM_OK ? call.out_number : 0;
    return status;
}

static void op_stored_value(duk_context *ctx, dukshim_call *call) {
    push_stored(ctx, call->s1, call->n1);
}

int32_t dukshim_stored_value(dukshim_engine *e, const char *key, size_t key_length) {
    dukshim_call call = {0};
    call.op = op_stored_value;
    call.s1 = key, call.n1 = key_length;
    call.result_mode = DUKSHIM_RESULT_DATA;
    return dukshim_run(e, &call);
}

static void op_has_stored(duk_context *ctx, dukshim_call *call) {
    push_stored_holder(ctx);
    dukshim_push_utf8(ctx, call->s1, call->n1);
    call->out_number = duk_has_prop(ctx, -2) ? 1 : 0;
    duk_pop(ctx);
}

int32_t dukshim_has_stored(dukshim_engine *e, const char *key, size_t key_length, int32_t *exists) {
    dukshim_call call = {0};
    call.op = op_has_stored;
    call.s1 = key, call.n1 = key_length;
    int32_t status = dukshim_run(e, &call);
    *exists = status == DUKSHIM_OK && call.out_number != 0;
    return status;
}

static void op_remove_stored(duk_context *ctx, dukshim_call *call) {
    push_stored_holder(ctx);
    dukshim_push_utf8(ctx, call->s1, call->n1);
    duk_del_prop(ctx, -2);
    duk_pop(ctx);
}

int32_t dukshim_remove_stored(dukshim_engine *e, const char *key, size_t key_length) {
    dukshim_call call = {0};
    call.op = op_remove_stored;
    call.s1 = key, call.n1 = key_length;
    return dukshim_run(e, &call);
}

static void op_set_stored_member(duk_context *ctx, dukshim_call *call) {
    push_stored(ctx, call->s1, call->n1);
    if (!duk_is_object(ctx, -1)) {
        (void)duk_type_error(ctx, "stored value '%s' is not an object", duk_push_lstring(ctx, call->s1, call->n1));
    }
    dukshim_push_utf8(ctx, call->s2, call->n2);
    push_stored(ctx, call->s3, call->n3);
    duk_def_prop(ctx, -3, DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_SET_WEC);
    duk_pop(ctx);
}

int32_t dukshim_set_stored_member(dukshim_engine *e, const char *key, size_t key_length, const char *member,
                                 size_t member_length, const char *value_key, size_t value_key_length) {
    dukshim_call call = {0};
    call.op = op_set_stored_member;
    call.s1 = key, call.n1 = key_length;
    call.s2 = member, call.n2 = member_length;
    call.s3 = value_key, call.n3 = value_key_length;
    return dukshim_run(e, &call);
}

/* ---- JSON, garbage collection ---- */

static void op_parse_json(duk_context *ctx, dukshim_call *call) {
    dukshim_push_utf8(ctx, call->s1, call->n1);
    duk_json_decode(ctx, -1);
}

int32_t dukshim_parse_json(dukshim_engine *e, const char *text, size_t text_length) {
    dukshim_call call = {0};
    call.op = op_parse_json;
    call.s1 = text, call.n1 = text_length;
    call.result_mode = DUKSHIM_RESULT_DATA;
    return dukshim_run(e, &call);
}

static void op_collect_garbage(duk_context *ctx, dukshim_call *call) {
    (void)call;
    duk_gc(ctx, 0);
    duk_gc(ctx, 0); /* a second pass finalizes objects freed by finalizers of the first */
}

int32_t dukshim_collect_garbage(dukshim_engine *e) {
    dukshim_call call = {0};
    call.op = op_collect_garbage;
    return dukshim_run(e, &call);
}

/* ---- One <foreach> step ---- */

static void op_foreach_step(duk_context *ctx, dukshim_call *call) {
    dukshim_push_function(ctx, call->number); /* the item location */
    push_stored(ctx, call->s1, call->n1);
    duk_get_prop_index(ctx, -1, (duk_uarridx_t)call->value_length);
    duk_remove(ctx, -2);
    call->out_number = 0;
    duk_call(ctx, 1);
    duk_pop(ctx);
    if (call->flag >= 0) {
        dukshim_push_function(ctx, call->flag); /* the index location */
        duk_push_number(ctx, (duk_double_t)call->value_length);
        call->out_number = 1;
        duk_call(ctx, 1);
        duk_pop(ctx);
    }
}

int32_t dukshim_foreach_step(dukshim_engine *e, const char *key, size_t key_length, size_t element, int32_t item_id,
                             int32_t index_id, int32_t *failed_part) {
    dukshim_call call = {0};
    call.op = op_foreach_step;
    call.s1 = key, call.n1 = key_length;
    call.value_length = element;
    call.number = item_id;
    call.flag = index_id;
    int32_t status = dukshim_run(e, &call);
    *failed_part = (int32_t)call.out_number;
    return status;
}
