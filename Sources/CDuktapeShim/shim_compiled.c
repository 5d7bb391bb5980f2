/*
 * Compiled sources: an expression, script or assignment location is compiled once per engine
 * (dukshim_compile, dukshim_compile_assignment), kept as a function in the engine's function
 * table and called by its id for every evaluation (dukshim_call_compiled, dukshim_assign),
 * so evaluating a document's expressions parses no source text after their first use.
 *
 * The table is an array in the global stash (unreachable from scripts), which keeps the functions
 * alive; the engine keeps its heap pointer (e->functions) and, by id, each function's heap pointer
 * (e->function_pointers), valid as long as the array holds the function, so a call finds its
 * function with one load. Ids are indexes into both and are never reused until the table is
 * forgotten as a whole.
 */
#include <stdlib.h>
#include <string.h>

#include "shim_internal.h"

#define DUKSHIM_FUNCTIONS_KEY DUK_HIDDEN_SYMBOL("scFunctions")

/* The strict-mode assignment function's parameter; a location naming it would be shadowed. */
#define DUKSHIM_ASSIGN_PARAM "__scxmlAssignedValue__"

void dukshim_functions_install(duk_context *ctx, dukshim_engine *e) {
    duk_push_global_stash(ctx);
    duk_push_array(ctx);
    e->functions = duk_get_heapptr(ctx, -1);
    e->function_count = 0;
    duk_put_prop_string(ctx, -2, DUKSHIM_FUNCTIONS_KEY);
    duk_pop(ctx);
}

void dukshim_functions_free(dukshim_engine *e) {
    free(e->function_pointers);
    e->function_pointers = NULL;
    e->function_count = e->function_capacity = 0;
}

void dukshim_push_compiled_source(duk_context *ctx, const char *src, size_t n, int32_t kind) {
    if (src == NULL) {
        src = "", n = 0;
    }
    switch (kind) {
    case DUKSHIM_SOURCE_EXPRESSION:
        /* Parenthesised so that "{a: 1}" is an object literal and statements are rejected; the
           newline keeps a trailing "// comment" from swallowing the closing parenthesis. */
        duk_push_string(ctx, "(");
        dukshim_push_utf8(ctx, src, n);
        duk_push_string(ctx, "\n)");
        duk_concat(ctx, 3);
        duk_push_string(ctx, "expression");
        duk_compile(ctx, DUK_COMPILE_EVAL);
        break;
    case DUKSHIM_SOURCE_LOCATION:
        /* Strict mode makes both SCXML failure cases throw: assigning an undeclared identifier
           is a ReferenceError, writing a non-writable or frozen member is a TypeError. (Read-only
           system variables throw from their setter in any mode.) */
        duk_push_string(ctx, "function (" DUKSHIM_ASSIGN_PARAM ") {\n'use strict';\n");
        dukshim_push_utf8(ctx, src, n);
        duk_push_string(ctx, "\n= " DUKSHIM_ASSIGN_PARAM ";\n}");
        duk_concat(ctx, 3);
        duk_push_string(ctx, "location");
        duk_compile(ctx, DUK_COMPILE_FUNCTION);
        break;
    default:
        dukshim_push_utf8(ctx, src, n);
        duk_push_string(ctx, "script");
        duk_compile(ctx, 0);
        break;
    }
}

/* Stack in: [..., function]; out: [...]. Appends the function to the table; its id in out_number. */
static void add_function(duk_context *ctx, dukshim_call *call) {
    dukshim_engine *e = call->engine;
    size_t id = e->function_count;
    if (id >= (size_t)INT32_MAX) {
        (void)duk_range_error(ctx, "too many compiled sources");
    }
    if (id == e->function_capacity) {
        size_t capacity = e->function_capacity == 0 ? 16 : 2 * e->function_capacity;
        void **pointers = (void **)realloc(e->function_pointers, capacity * sizeof *pointers);
        if (pointers == NULL) {
            (void)duk_range_error(ctx, "out of memory while keeping a compiled source");
        }
        e->function_pointers = pointers;
        e->function_capacity = capacity;
    }
    duk_push_heapptr(ctx, e->functions);
    duk_dup(ctx, -2);
    duk_put_prop_index(ctx, -2, (duk_uarridx_t)id);
    e->function_pointers[id] = duk_get_heapptr(ctx, -2);
    e->function_count = id + 1;
    duk_pop_2(ctx);
    call->out_number = (int64_t)id;
}

static void op_compile(duk_context *ctx, dukshim_call *call) {
    dukshim_push_compiled_source(ctx, call->s1, call->n1, (int32_t)call->number);
    add_function(ctx, call);
}

/* `<assign location expr>` as one strict-mode function of no parameters, so an assignment is
   one call: the location on the first line (errors in it report line 1), the expression
   parenthesised as in DUKSHIM_SOURCE_EXPRESSION. Strict mode makes both SCXML failure cases
   throw, as for DUKSHIM_SOURCE_LOCATION. */
static void op_compile_assignment(duk_context *ctx, dukshim_call *call) {
    duk_push_string(ctx, "function () {'use strict'; ");
    dukshim_push_utf8(ctx, call->s1, call->n1);
    duk_push_string(ctx, "\n= (");
    dukshim_push_utf8(ctx, call->s2, call->n2);
    duk_push_string(ctx, "\n);\n}");
    duk_concat(ctx, 5);
    duk_push_string(ctx, "assignment");
    duk_compile(ctx, DUK_COMPILE_FUNCTION);
    add_function(ctx, call);
}

int32_t dukshim_compile_assignment(dukshim_engine *e, const char *location, size_t location_length,
                                   const char *expression, size_t expression_length, int32_t *function_id) {
    dukshim_call call = {0};
    call.op = op_compile_assignment;
    call.s1 = location != NULL ? location : "", call.n1 = location != NULL ? location_length : 0;
    call.s2 = expression != NULL ? expression : "", call.n2 = expression != NULL ? expression_length : 0;
    int32_t status = dukshim_run(e, &call);
    *function_id = status == DUKSHIM_OK ? (int32_t)call.out_number : -1;
    return status;
}

int32_t dukshim_compile(dukshim_engine *e, const char *source, size_t source_length, int32_t source_kind,
                        int32_t *function_id) {
    dukshim_call call = {0};
    call.op = op_compile;
    call.s1 = source, call.n1 = source_length;
    call.number = source_kind;
    int32_t status = dukshim_run(e, &call);
    *function_id = status == DUKSHIM_OK ? (int32_t)call.out_number : -1;
    return status;
}

void dukshim_push_function(duk_context *ctx, int64_t function_id) {
    dukshim_engine *e = dukshim_engine_from_ctx(ctx);
    if (function_id < 0 || (uint64_t)function_id >= (uint64_t)e->function_count) {
        (void)duk_range_error(ctx, "no compiled source %ld", (long)function_id);
    }
    duk_push_heapptr(ctx, e->function_pointers[function_id]);
}

void dukshim_push_called(duk_context *ctx, int64_t function_id) {
    dukshim_push_function(ctx, function_id);
    duk_push_global_object(ctx);
    duk_call_method(ctx, 0);
}

static void op_call_compiled(duk_context *ctx, dukshim_call *call) {
    dukshim_push_called(ctx, call->number);
}

int32_t dukshim_call_compiled(dukshim_engine *e, int32_t function_id, int32_t result_mode) {
    dukshim_call call = {0};
    call.op = op_call_compiled;
    call.number = function_id;
    call.result_mode = result_mode;
    if (e != NULL && function_id >= 0 && (uint64_t)function_id < (uint64_t)e->function_count &&
        (result_mode == DUKSHIM_RESULT_NONE || result_mode == DUKSHIM_RESULT_BOOLEAN)) {
        call.function = e->function_pointers[function_id]; /* else op_call_compiled reports the error */
    }
    return dukshim_run(e, &call);
}

static void op_forget_compiled(duk_context *ctx, dukshim_call *call) {
    dukshim_functions_install(ctx, call->engine); /* the old table becomes garbage */
}

int32_t dukshim_forget_compiled(dukshim_engine *e) {
    dukshim_call call = {0};
    call.op = op_forget_compiled;
    return dukshim_run(e, &call);
}

/* ---- Bytecode: one compilation shared by engines (of one process, one Duktape build) ---- */

static void op_dump_compiled(duk_context *ctx, dukshim_call *call) {
    dukshim_push_function(ctx, call->number);
    duk_dump_function(ctx);
    duk_size_t n = 0;
    const void *bytes = duk_get_buffer_data(ctx, -1, &n);
    dukshim_writer_reset(&call->engine->result);
    dukshim_writer_bytes(&call->engine->result, bytes, n);
    duk_pop(ctx);
    if (call->engine->result.failed) {
        (void)duk_range_error(ctx, "out of memory while copying bytecode");
    }
}

int32_t dukshim_dump_compiled(dukshim_engine *e, int32_t function_id) {
    dukshim_call call = {0};
    call.op = op_dump_compiled;
    call.number = function_id;
    return dukshim_run(e, &call);
}

static void op_load_compiled(duk_context *ctx, dukshim_call *call) {
    void *buffer = duk_push_fixed_buffer(ctx, call->value_length);
    if (call->value_length > 0) {
        memcpy(buffer, call->value, call->value_length);
    }
    duk_load_function(ctx);
    add_function(ctx, call);
}

int32_t dukshim_load_compiled(dukshim_engine *e, const uint8_t *bytecode, size_t length, int32_t *function_id) {
    dukshim_call call = {0};
    call.op = op_load_compiled;
    call.value = bytecode, call.value_length = length;
    int32_t status = dukshim_run(e, &call);
    *function_id = status == DUKSHIM_OK ? (int32_t)call.out_number : -1;
    return status;
}
