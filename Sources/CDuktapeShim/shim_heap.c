/*
 * The heap: creation and destruction, the fatal handler, and dukshim_run, the guard every
 * operation goes through (memory: shim_memory.c; execution time: shim_time.c).
 *
 * Error containment, in order:
 *  1. Every operation runs inside duk_safe_call (a call of a compiled function, inside the
 *     duk_pcall_method that makes it: see dukshim_call.function), so JS errors (syntax, reference, type,
 *     range errors, "callstack limit", "alloc failed", "execution timeout" ...) become a
 *     DUKSHIM_ERROR with the error's name, message and line copied out; the two limits get a
 *     message saying which limit stopped the script.
 *  2. Duktape's fatal handler (dukshim_fatal) is installed anyway. It records the message, marks
 *     the engine poisoned and longjmps to the setjmp of the innermost running dukshim_run; it
 *     never returns into Duktape. The operation returns DUKSHIM_FATAL, every later operation
 *     fails the same way, and destruction frees the heap's blocks without calling Duktape.
 *  3. Outside any operation there is no recovery point; the handler then aborts with a
 *     message. The shim never calls Duktape outside dukshim_run (or the guarded create/destroy),
 *     so that path is unreachable in practice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim_internal.h"

/* ---- Fatal handler ---- */

static void dukshim_fatal(void *udata, const char *msg) {
    dukshim_engine *e = (dukshim_engine *)udata;
    snprintf(e->fatal_message, sizeof e->fatal_message, "%s", msg != NULL ? msg : "fatal error");
    e->poisoned = 1;
    if (e->jmp != NULL) {
        longjmp(*e->jmp, 1);
    }
    /* Unreachable by construction (the shim only calls Duktape inside guarded entry points). */
    fprintf(stderr, "CDuktapeShim: Duktape fatal error outside a guarded call: %s\n", e->fatal_message);
    abort();
}

dukshim_engine *dukshim_engine_from_ctx(duk_context *ctx) {
    duk_memory_functions funcs;
    duk_get_memory_functions(ctx, &funcs);
    return (dukshim_engine *)funcs.udata;
}

/* ---- Outcome bookkeeping ---- */

static void set_text(dukshim_writer *w, const char *s) {
    dukshim_writer_reset(w);
    dukshim_writer_bytes(w, s, strlen(s));
    dukshim_writer_byte(w, 0);
}

static void set_error(dukshim_engine *e, const char *name, const char *message) {
    set_text(&e->error_name, name);
    set_text(&e->error_message, message);
    e->error_line = -1;
}

static void set_fatal_error(dukshim_engine *e) {
    char message[400];
    snprintf(message, sizeof message, "the script engine hit a fatal error and cannot be used any more: %s",
             e->fatal_message);
    set_error(e, "FatalError", message);
}

/* Stack in: [..., error]. Out: [..., error, name, message, lineNumber]; property reads may run
 * getters. Note: a duk_safe_call target shares the caller's value stack frame (indices are not
 * rebased), so the error is addressed relative to the top, never as index 0. */
static duk_ret_t extract_error(duk_context *ctx, void *udata) {
    (void)udata;
    duk_idx_t err = duk_normalize_index(ctx, -1);
    if (duk_is_object(ctx, err)) {
        duk_get_prop_string(ctx, err, "name");
        if (!duk_is_string(ctx, -1) || duk_is_symbol(ctx, -1)) {
            duk_pop(ctx);
            duk_push_string(ctx, "");
        }
        duk_get_prop_string(ctx, err, "message");
        if (!duk_is_string(ctx, -1) || duk_is_symbol(ctx, -1)) {
            duk_pop(ctx);
            duk_dup(ctx, err);
            duk_safe_to_string(ctx, -1);
        }
        duk_get_prop_string(ctx, err, "lineNumber");
    } else {
        /* `throw "boom"`, `throw 42`: no name, the value's string form as the message. */
        duk_push_string(ctx, "");
        duk_dup(ctx, err);
        duk_safe_to_string(ctx, -1);
        duk_push_undefined(ctx);
    }
    return 3;
}

static void copy_string(duk_context *ctx, duk_idx_t idx, dukshim_writer *w) {
    dukshim_writer_reset(w);
    duk_size_t n = 0;
    const char *s = duk_get_lstring(ctx, idx, &n); /* never throws; NULL for non-strings */
    if (s != NULL) {
        dukshim_writer_internal_string(w, (const uint8_t *)s, n);
    }
    dukshim_writer_byte(w, 0);
}

/* Stack in: [..., error]; consumes it. Never throws: duk_safe_call is itself protected. */
static void record_error(dukshim_engine *e) {
    duk_context *ctx = e->ctx;
    if (duk_safe_call(ctx, extract_error, NULL, 1, 3) == DUK_EXEC_SUCCESS) {
        copy_string(ctx, -3, &e->error_name);
        copy_string(ctx, -2, &e->error_message);
        e->error_line = duk_is_number(ctx, -1) ? (int64_t)duk_get_number(ctx, -1) : -1;
        if (e->error_name.failed || e->error_message.failed) {
            set_error(e, "Error", "out of memory while reporting a script error");
        }
    } else {
        set_error(e, "Error", "a script error occurred and could not be inspected");
    }
    duk_pop_3(ctx);
}

/* ---- The guarded entry ---- */

static duk_ret_t safe_entry(duk_context *ctx, void *udata) {
    dukshim_call *call = (dukshim_call *)udata;
    duk_idx_t base = duk_get_top(ctx);
    if (call->engine->event.stale) {
        dukshim_event_show(ctx, call->engine);
    }
    call->op(ctx, call);
    if (duk_get_top(ctx) == base) {
        duk_push_undefined(ctx);
    }
    switch (call->result_mode) {
    case DUKSHIM_RESULT_DATA:
        dukshim_encode_top(ctx);
        break;
    case DUKSHIM_RESULT_BOOLEAN:
        call->out_number = duk_to_boolean(ctx, -1); /* copied by dukshim_run: no buffer per condition */
        break;
    case DUKSHIM_RESULT_STRING:
        duk_to_string(ctx, -1);
        dukshim_encode_top(ctx);
        break;
    default:
        break;
    }
    return 1;
}

/* Replaces the error Duktape threw when one of the engine's limits stopped the operation. */
static void explain_limit(dukshim_engine *e) {
    char message[300];
    if (e->timed_out) {
        snprintf(message, sizeof message,
                 "execution timeout: the script ran longer than its limit of %llu ms and was stopped",
                 (unsigned long long)(e->time_limit_ns / 1000000u));
        set_error(e, "RangeError", message);
    } else if (e->memory_refused && (strstr(dukshim_error_message(e), "alloc failed") != NULL ||
                                     strcmp(dukshim_error_name(e), "DoubleError") == 0)) {
        /* DoubleError: Duktape had no memory left even for the error object. */
        snprintf(message, sizeof message,
                 "alloc failed: the ECMAScript heaps of this document tree reached their memory limit of %zu bytes",
                 e->budget->limit);
        char name[64]; /* Duktape's own name ("Error"), copied: set_error rewrites its buffer */
        snprintf(name, sizeof name, "%s", strcmp(dukshim_error_name(e), "DoubleError") == 0 ? "Error" : dukshim_error_name(e));
        set_error(e, name, message);
    }
}

int32_t dukshim_run(dukshim_engine *e, dukshim_call *call) {
    if (e == NULL) {
        return DUKSHIM_FATAL;
    }
    if (e->poisoned) {
        set_fatal_error(e);
        return DUKSHIM_FATAL;
    }
    call->engine = e;
    duk_context *ctx = e->ctx;
    jmp_buf recovery;
    jmp_buf *outer = e->jmp;
    duk_idx_t top = duk_get_top(ctx);
    if (e->depth == 0) {
        dukshim_time_arm(e);
        e->memory_refused = 0;
    }
    e->depth++;
    e->jmp = &recovery;
    if (setjmp(recovery) != 0) {
        /* Came back from dukshim_fatal: nothing of the heap may be touched any more. */
        e->jmp = outer;
        if (--e->depth == 0) {
            dukshim_time_disarm(e);
        }
        set_fatal_error(e);
        return DUKSHIM_FATAL;
    }
    int32_t status;
    duk_int_t outcome;
    if (call->function != NULL && dukshim_event_settle(e) && duk_check_stack(ctx, 2)) {
        /* One call and nothing before it: protected by the call itself. */
        duk_push_heapptr(ctx, call->function);
        duk_push_global_object(ctx);
        outcome = duk_pcall_method(ctx, 0);
        if (outcome == DUK_EXEC_SUCCESS && call->result_mode == DUKSHIM_RESULT_BOOLEAN) {
            call->out_number = duk_to_boolean(ctx, -1); /* ToBoolean runs no script */
        }
    } else {
        outcome = duk_safe_call(ctx, safe_entry, call, 0, 1);
    }
    if (outcome == DUK_EXEC_SUCCESS) {
        status = DUKSHIM_OK;
        dukshim_writer_reset(&e->result);
        if (call->result_mode == DUKSHIM_RESULT_BOOLEAN) {
            dukshim_writer_byte(&e->result, call->out_number ? 't' : 'f');
        } else if (call->result_mode != DUKSHIM_RESULT_NONE) {
            duk_size_t n = 0;
            void *p = duk_get_buffer_data(ctx, -1, &n);
            dukshim_writer_bytes(&e->result, p, n);
            if (e->result.failed) {
                set_error(e, "RangeError", "out of memory while copying a script result");
                status = DUKSHIM_ERROR;
            }
        }
        duk_pop(ctx);
    } else {
        /* Inspecting the error may run getters: not under a deadline that has passed. */
        int timed_out = e->timed_out;
        uint64_t deadline = e->deadline_ns;
        dukshim_time_disarm(e);
        record_error(e);
        e->timed_out = timed_out; /* a nested operation's outer one must keep stopping */
        e->deadline_ns = deadline;
        if (e->depth == 1) {
            explain_limit(e);
        }
        status = DUKSHIM_ERROR;
    }
    duk_set_top(ctx, top);
    e->jmp = outer;
    if (--e->depth == 0) {
        dukshim_time_disarm(e);
    }
    return status;
}

/* ---- Bootstrap: private helpers kept in the global stash, unreachable from scripts. ---- */

static const char bootstrap_source[] =
    "(function (global) {\n"
    "    'use strict';\n"
    "    var sys = Object.create(null);      /* read-only system variables: name -> value */\n"
    "    var stored = Object.create(null);   /* host-kept values: key -> value */\n"
    "    function setReadOnly(name, value) {\n"
    "        if (!(name in sys)) {\n"
    "            /* An accessor, not a non-writable data property: its setter throws even in\n"
    "               sloppy-mode scripts (where writes to non-writable properties fail silently),\n"
    "               and `var name = ...` in a script cannot redeclare it either. */\n"
    "            Object.defineProperty(global, name, {\n"
    "                get: function () { return sys[name]; },\n"
    "                set: function () {\n"
    "                    throw new TypeError(\"cannot assign to read-only system variable '\" + name + \"'\");\n"
    "                },\n"
    "                enumerable: true,\n"
    "                configurable: false\n"
    "            });\n"
    "        }\n"
    "        sys[name] = value;\n"
    "    }\n"
    "    return { sys: sys, stored: stored, setReadOnly: setReadOnly };\n"
    "})\n";

static void op_bootstrap(duk_context *ctx, dukshim_call *call) {
    (void)call;
    duk_push_global_stash(ctx);
    duk_push_string(ctx, bootstrap_source);
    duk_push_string(ctx, "bootstrap");
    duk_compile(ctx, DUK_COMPILE_EVAL);
    duk_call(ctx, 0);
    duk_push_global_object(ctx);
    duk_call(ctx, 1);
    duk_put_prop_string(ctx, -2, DUK_HIDDEN_SYMBOL("scHelpers"));
    duk_pop(ctx);
    dukshim_functions_install(ctx, call->engine);
}

void dukshim_push_helper(duk_context *ctx, const char *name) {
    duk_push_global_stash(ctx);
    duk_get_prop_string(ctx, -1, DUK_HIDDEN_SYMBOL("scHelpers"));
    duk_get_prop_string(ctx, -1, name);
    duk_remove(ctx, -2);
    duk_remove(ctx, -2);
}

/* ---- Public lifecycle ---- */

/* Creates e->ctx under a recovery point; 0 on failure (including a fatal error). */
static int create_heap(dukshim_engine *e) {
    jmp_buf recovery;
    e->jmp = &recovery;
    if (setjmp(recovery) != 0) {
        e->jmp = NULL;
        return 0; /* poisoned: destruction frees the blocks without Duktape */
    }
    e->ctx = duk_create_heap(dukshim_alloc, dukshim_realloc, dukshim_free, e, dukshim_fatal);
    e->jmp = NULL;
    return e->ctx != NULL;
}

dukshim_engine *dukshim_engine_create(dukshim_budget *budget, uint64_t time_limit_ns) {
    if (budget == NULL) {
        return NULL;
    }
    dukshim_engine *e = (dukshim_engine *)calloc(1, sizeof *e);
    if (e == NULL) {
        return NULL;
    }
    dukshim_budget_retain(budget);
    e->budget = budget;
    e->time_limit_ns = time_limit_ns;
    e->deadline_ns = UINT64_MAX;
    e->error_line = -1;
    e->event.data_kind = -1;
    if (!create_heap(e)) {
        dukshim_engine_destroy(e);
        return NULL;
    }
    dukshim_call call = {0};
    call.op = op_bootstrap;
    if (dukshim_run(e, &call) != DUKSHIM_OK) {
        dukshim_engine_destroy(e);
        return NULL;
    }
    return e;
}

void dukshim_engine_destroy(dukshim_engine *e) {
    if (e == NULL) {
        return;
    }
    e->host = NULL; /* finalizers running during destruction cannot reach the host any more */
    e->host_context = NULL;
    if (e->ctx != NULL && !e->poisoned) {
        jmp_buf recovery;
        e->jmp = &recovery;
        if (setjmp(recovery) == 0) {
            /* Finalizers run now: under a deadline like any operation. */
            dukshim_time_arm(e);
            duk_destroy_heap(e->ctx);
        }
        e->jmp = NULL;
    }
    e->ctx = NULL;
    dukshim_free_all_blocks(e); /* no-op after a clean destruction; reclaims a poisoned heap */
    dukshim_budget_release(e->budget);
    dukshim_writer_free(&e->result);
    dukshim_writer_free(&e->host_result);
    dukshim_writer_free(&e->host_error_name);
    dukshim_writer_free(&e->host_error_message);
    dukshim_writer_free(&e->error_name);
    dukshim_writer_free(&e->error_message);
    dukshim_event_free(e);
    dukshim_functions_free(e);
    free(e);
}

void dukshim_engine_set_host(dukshim_engine *e, void *host_context, dukshim_host_callback callback) {
    e->host_context = host_context;
    e->host = callback;
}

int32_t dukshim_engine_is_poisoned(const dukshim_engine *e) {
    return e->poisoned;
}

size_t dukshim_engine_memory_in_use(const dukshim_engine *e) {
    return e->memory_used;
}

const char *dukshim_error_name(const dukshim_engine *e) {
    return e->error_name.p != NULL ? (const char *)e->error_name.p : "";
}

const char *dukshim_error_message(const dukshim_engine *e) {
    return e->error_message.p != NULL ? (const char *)e->error_message.p : "";
}

int64_t dukshim_error_line(const dukshim_engine *e) {
    return e->error_line;
}

const uint8_t *dukshim_result(const dukshim_engine *e, size_t *length) {
    *length = e->result.len;
    return e->result.p;
}

void dukshim_result_trim(dukshim_engine *e) {
    if (e->result.cap > 65536) {
        dukshim_writer_free(&e->result);
    }
}

/* ---- Test hooks ---- */

static void op_debug_fatal(duk_context *ctx, dukshim_call *call) {
    (void)duk_fatal(ctx, call->s1);
}

int32_t dukshim_debug_fatal(dukshim_engine *e, const char *message) {
    dukshim_call call = {0};
    call.op = op_debug_fatal;
    call.s1 = message;
    return dukshim_run(e, &call);
}

int32_t dukshim_debug_throw_unprotected(dukshim_engine *e) {
    if (e->poisoned) {
        set_fatal_error(e);
        return DUKSHIM_FATAL;
    }
    jmp_buf recovery;
    jmp_buf *outer = e->jmp;
    e->jmp = &recovery;
    if (setjmp(recovery) != 0) {
        e->jmp = outer;
        set_fatal_error(e);
        return DUKSHIM_FATAL;
    }
    /* No protected call around this throw: Duktape has no catcher and calls the fatal handler. */
    (void)duk_error(e->ctx, DUK_ERR_ERROR, "thrown outside any protected call");
    e->jmp = outer;
    return DUKSHIM_OK;
}
