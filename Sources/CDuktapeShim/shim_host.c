/*
 * Host functions: global JS functions whose calls are forwarded to the host (Swift).
 *
 * Every such function is the same Duktape/C function (trampoline) carrying the host's
 * function id in a hidden-symbol property. The trampoline encodes the arguments, calls the
 * host callback and then, back in C, either pushes the returned value or throws the
 * reported error as a JS exception (catchable by the script). The host never sees Duktape
 * and nothing throws while host frames are on the stack: the throw happens after the
 * callback returned, and its longjmp only crosses Duktape's and this file's C frames.
 */
#include <string.h>

#include "shim_internal.h"

#define DUKSHIM_HOST_ID DUK_HIDDEN_SYMBOL("scHostFunctionId")

static duk_errcode_t error_code_for(const char *name) {
    static const struct {
        const char *name;
        duk_errcode_t code;
    } known[] = {
        {"EvalError", DUK_ERR_EVAL_ERROR},           {"RangeError", DUK_ERR_RANGE_ERROR},
        {"ReferenceError", DUK_ERR_REFERENCE_ERROR}, {"SyntaxError", DUK_ERR_SYNTAX_ERROR},
        {"TypeError", DUK_ERR_TYPE_ERROR},           {"URIError", DUK_ERR_URI_ERROR},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(name, known[i].name) == 0) {
            return known[i].code;
        }
    }
    return DUK_ERR_ERROR;
}

static duk_ret_t trampoline(duk_context *ctx) {
    dukshim_engine *e = dukshim_engine_from_ctx(ctx);
    duk_idx_t nargs = duk_get_top(ctx);

    duk_push_current_function(ctx);
    duk_get_prop_string(ctx, -1, DUKSHIM_HOST_ID);
    int32_t id = (int32_t)duk_get_int(ctx, -1);
    duk_pop_2(ctx);

    if (e->host == NULL) {
        return duk_error(ctx, DUK_ERR_ERROR, "host functions are not available");
    }
    /* Arguments that are not data (functions, cycles, ...) throw a TypeError to the caller. */
    dukshim_encode_arguments(ctx, 0, nargs);
    duk_size_t length = 0;
    const uint8_t *arguments = (const uint8_t *)duk_get_buffer_data(ctx, -1, &length);

    dukshim_writer_reset(&e->host_result);
    dukshim_writer_reset(&e->host_error_name);
    dukshim_writer_reset(&e->host_error_message);
    int32_t status = e->host(e->host_context, e, id, arguments, length);

    if (e->poisoned) {
        /* A nested operation hit a fatal error: unwind to the enclosing operation's recovery
           point. Only C frames lie in between (the host callback has returned). */
        longjmp(*e->jmp, 1);
    }
    if (status == DUKSHIM_OK) {
        if (e->host_result.failed) {
            return duk_error(ctx, DUK_ERR_RANGE_ERROR, "out of memory in a host function result");
        }
        if (e->host_result.len == 0) {
            duk_push_undefined(ctx);
        } else {
            dukshim_decode_push(ctx, e->host_result.p, e->host_result.len, 0);
        }
        return 1;
    }
    const char *name = e->host_error_name.len > 0 ? (const char *)e->host_error_name.p : "Error";
    const char *message = e->host_error_message.len > 0 ? (const char *)e->host_error_message.p : "host function failed";
    duk_errcode_t code = error_code_for(name);
    duk_push_error_object(ctx, code, "%s", message);
    if (code == DUK_ERR_ERROR && strcmp(name, "Error") != 0 && name[0] != '\0') {
        duk_push_string(ctx, name);
        duk_put_prop_string(ctx, -2, "name");
    }
    return duk_throw(ctx);
}

void dukshim_push_host_function(duk_context *ctx, int32_t function_id) {
    duk_push_c_function(ctx, trampoline, DUK_VARARGS);
    duk_push_int(ctx, function_id);
    duk_put_prop_string(ctx, -2, DUKSHIM_HOST_ID);
}

static void op_register_function(duk_context *ctx, dukshim_call *call) {
    duk_push_global_object(ctx);
    dukshim_push_utf8(ctx, call->s1, call->n1);
    /* Reuse the system-variable check so the message names the conflict. */
    dukshim_push_helper(ctx, "sys");
    duk_dup(ctx, -2);
    if (duk_has_prop(ctx, -2)) {
        (void)duk_type_error(ctx, "cannot redefine read-only system variable '%s'", duk_safe_to_string(ctx, -2));
    }
    duk_pop(ctx);
    dukshim_push_host_function(ctx, (int32_t)call->number);
    /* The function's name, for stack traces ("name" is non-writable but configurable). */
    duk_push_string(ctx, "name");
    duk_dup(ctx, -3);
    duk_def_prop(ctx, -3, DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_FORCE);
    duk_def_prop(ctx, -3,
                 DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_SET_WRITABLE | DUK_DEFPROP_CLEAR_ENUMERABLE |
                     DUK_DEFPROP_SET_CONFIGURABLE);
    duk_pop(ctx);
}

int32_t dukshim_register_function(dukshim_engine *e, const char *name, size_t name_length, int32_t function_id) {
    dukshim_call call = {0};
    call.op = op_register_function;
    call.s1 = name, call.n1 = name_length;
    call.number = function_id;
    return dukshim_run(e, &call);
}

int32_t dukshim_host_set_result(dukshim_engine *e, const uint8_t *value, size_t value_length) {
    dukshim_writer_reset(&e->host_result);
    dukshim_writer_bytes(&e->host_result, value, value_length);
    return e->host_result.failed ? DUKSHIM_ERROR : DUKSHIM_OK;
}

int32_t dukshim_host_set_error(dukshim_engine *e, const char *name, const char *message) {
    dukshim_writer_reset(&e->host_error_name);
    dukshim_writer_reset(&e->host_error_message);
    if (name != NULL) {
        dukshim_writer_bytes(&e->host_error_name, name, strlen(name) + 1);
    }
    if (message != NULL) {
        dukshim_writer_bytes(&e->host_error_message, message, strlen(message) + 1);
    }
    return DUKSHIM_OK;
}
