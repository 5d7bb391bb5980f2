/*
 * The heap: creation and destruction, the tracking allocator with its memory limit, the
 * fatal handler, and sc_run, the guard every operation goes through.
 *
 * Error containment, in order:
 *  1. Every operation runs inside duk_safe_call, so JS errors (syntax, reference, type,
 *     range errors, "callstack limit", "alloc failed" ...) become an SC_DUK_ERROR with the
 *     error's name, message and line copied out.
 *  2. Duktape's fatal handler (sc_fatal) is installed anyway. It records the message, marks
 *     the engine poisoned and longjmps to the setjmp of the innermost running sc_run; it
 *     never returns into Duktape. The operation returns SC_DUK_FATAL, every later operation
 *     fails the same way, and destruction frees the heap's blocks without calling Duktape.
 *  3. Outside any operation there is no recovery point; the handler then aborts with a
 *     message. The shim never calls Duktape outside sc_run (or the guarded create/destroy),
 *     so that path is unreachable in practice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim_internal.h"

/* ---- Allocator: a header per block, a doubly linked list of live blocks, a byte limit. ---- */

static void link_block(sc_duk_engine *e, sc_block *b) {
    b->h.prev = NULL;
    b->h.next = e->blocks;
    if (e->blocks != NULL) {
        e->blocks->h.prev = b;
    }
    e->blocks = b;
}

static void unlink_block(sc_duk_engine *e, sc_block *b) {
    if (b->h.prev != NULL) {
        b->h.prev->h.next = b->h.next;
    } else {
        e->blocks = b->h.next;
    }
    if (b->h.next != NULL) {
        b->h.next->h.prev = b->h.prev;
    }
}

static int over_limit(sc_duk_engine *e, size_t extra) {
    return e->memory_limit != 0 && (extra > e->memory_limit || e->memory_used > e->memory_limit - extra);
}

static void *sc_alloc(void *udata, duk_size_t size) {
    sc_duk_engine *e = (sc_duk_engine *)udata;
    if (over_limit(e, size) || size > SIZE_MAX - sizeof(sc_block)) {
        return NULL; /* Duktape retries after a GC, then throws Error "alloc failed" */
    }
    sc_block *b = (sc_block *)malloc(sizeof(sc_block) + size);
    if (b == NULL) {
        return NULL;
    }
    b->h.size = size;
    link_block(e, b);
    e->memory_used += size;
    return b + 1;
}

static void sc_free(void *udata, void *ptr) {
    if (ptr == NULL) {
        return;
    }
    sc_duk_engine *e = (sc_duk_engine *)udata;
    sc_block *b = (sc_block *)ptr - 1;
    unlink_block(e, b);
    e->memory_used -= b->h.size;
    free(b);
}

static void *sc_realloc(void *udata, void *ptr, duk_size_t size) {
    if (ptr == NULL) {
        return sc_alloc(udata, size);
    }
    sc_duk_engine *e = (sc_duk_engine *)udata;
    sc_block *b = (sc_block *)ptr - 1;
    size_t old = b->h.size;
    if ((size > old && over_limit(e, size - old)) || size > SIZE_MAX - sizeof(sc_block)) {
        return NULL;
    }
    unlink_block(e, b);
    sc_block *nb = (sc_block *)realloc(b, sizeof(sc_block) + size);
    if (nb == NULL) {
        link_block(e, b);
        return NULL;
    }
    nb->h.size = size;
    link_block(e, nb);
    e->memory_used = e->memory_used - old + size;
    return nb + 1;
}

static void free_all_blocks(sc_duk_engine *e) {
    while (e->blocks != NULL) {
        sc_block *b = e->blocks;
        e->blocks = b->h.next;
        free(b);
    }
    e->memory_used = 0;
}

/* ---- Fatal handler ---- */

static void sc_fatal(void *udata, const char *msg) {
    sc_duk_engine *e = (sc_duk_engine *)udata;
    snprintf(e->fatal_message, sizeof e->fatal_message, "%s", msg != NULL ? msg : "fatal error");
    e->poisoned = 1;
    if (e->jmp != NULL) {
        longjmp(*e->jmp, 1);
    }
    /* Unreachable by construction (the shim only calls Duktape inside guarded entry points). */
    fprintf(stderr, "CDuktapeShim: Duktape fatal error outside a guarded call: %s\n", e->fatal_message);
    abort();
}

sc_duk_engine *sc_engine_from_ctx(duk_context *ctx) {
    duk_memory_functions funcs;
    duk_get_memory_functions(ctx, &funcs);
    return (sc_duk_engine *)funcs.udata;
}

/* ---- Outcome bookkeeping ---- */

static void set_text(sc_writer *w, const char *s) {
    sc_writer_reset(w);
    sc_writer_bytes(w, s, strlen(s));
    sc_writer_byte(w, 0);
}

static void set_error(sc_duk_engine *e, const char *name, const char *message) {
    set_text(&e->error_name, name);
    set_text(&e->error_message, message);
    e->error_line = -1;
}

static void set_fatal_error(sc_duk_engine *e) {
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

static void copy_string(duk_context *ctx, duk_idx_t idx, sc_writer *w) {
    sc_writer_reset(w);
    duk_size_t n = 0;
    const char *s = duk_get_lstring(ctx, idx, &n); /* never throws; NULL for non-strings */
    if (s != NULL) {
        sc_writer_internal_string(w, (const uint8_t *)s, n);
    }
    sc_writer_byte(w, 0);
}

/* Stack in: [..., error]; consumes it. Never throws: duk_safe_call is itself protected. */
static void record_error(sc_duk_engine *e) {
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
    sc_call *call = (sc_call *)udata;
    duk_idx_t base = duk_get_top(ctx);
    call->op(ctx, call);
    if (duk_get_top(ctx) == base) {
        duk_push_undefined(ctx);
    }
    switch (call->result_mode) {
    case SC_DUK_RESULT_DATA:
        sc_encode_top(ctx);
        break;
    case SC_DUK_RESULT_BOOLEAN: {
        uint8_t b = duk_to_boolean(ctx, -1) ? 't' : 'f';
        *(uint8_t *)duk_push_fixed_buffer(ctx, 1) = b;
        break;
    }
    case SC_DUK_RESULT_STRING:
        duk_to_string(ctx, -1);
        sc_encode_top(ctx);
        break;
    default:
        break;
    }
    return 1;
}

int32_t sc_run(sc_duk_engine *e, sc_call *call) {
    if (e == NULL) {
        return SC_DUK_FATAL;
    }
    if (e->poisoned) {
        set_fatal_error(e);
        return SC_DUK_FATAL;
    }
    call->engine = e;
    duk_context *ctx = e->ctx;
    jmp_buf recovery;
    jmp_buf *outer = e->jmp;
    duk_idx_t top = duk_get_top(ctx);
    e->jmp = &recovery;
    if (setjmp(recovery) != 0) {
        /* Came back from sc_fatal: nothing of the heap may be touched any more. */
        e->jmp = outer;
        set_fatal_error(e);
        return SC_DUK_FATAL;
    }
    int32_t status;
    if (duk_safe_call(ctx, safe_entry, call, 0, 1) == DUK_EXEC_SUCCESS) {
        status = SC_DUK_OK;
        sc_writer_reset(&e->result);
        if (call->result_mode != SC_DUK_RESULT_NONE) {
            duk_size_t n = 0;
            void *p = duk_get_buffer_data(ctx, -1, &n);
            sc_writer_bytes(&e->result, p, n);
            if (e->result.failed) {
                set_error(e, "RangeError", "out of memory while copying a script result");
                status = SC_DUK_ERROR;
            }
        }
        duk_pop(ctx);
    } else {
        record_error(e);
        status = SC_DUK_ERROR;
    }
    duk_set_top(ctx, top);
    e->jmp = outer;
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

static void op_bootstrap(duk_context *ctx, sc_call *call) {
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
}

void sc_push_helper(duk_context *ctx, const char *name) {
    duk_push_global_stash(ctx);
    duk_get_prop_string(ctx, -1, DUK_HIDDEN_SYMBOL("scHelpers"));
    duk_get_prop_string(ctx, -1, name);
    duk_remove(ctx, -2);
    duk_remove(ctx, -2);
}

/* ---- Public lifecycle ---- */

/* Creates e->ctx under a recovery point; 0 on failure (including a fatal error). */
static int create_heap(sc_duk_engine *e) {
    jmp_buf recovery;
    e->jmp = &recovery;
    if (setjmp(recovery) != 0) {
        e->jmp = NULL;
        return 0; /* poisoned: destruction frees the blocks without Duktape */
    }
    e->ctx = duk_create_heap(sc_alloc, sc_realloc, sc_free, e, sc_fatal);
    e->jmp = NULL;
    return e->ctx != NULL;
}

sc_duk_engine *sc_duk_engine_create(size_t memory_limit) {
    sc_duk_engine *e = (sc_duk_engine *)calloc(1, sizeof *e);
    if (e == NULL) {
        return NULL;
    }
    e->memory_limit = memory_limit;
    e->error_line = -1;
    if (!create_heap(e)) {
        sc_duk_engine_destroy(e);
        return NULL;
    }
    sc_call call = {0};
    call.op = op_bootstrap;
    if (sc_run(e, &call) != SC_DUK_OK) {
        sc_duk_engine_destroy(e);
        return NULL;
    }
    return e;
}

void sc_duk_engine_destroy(sc_duk_engine *e) {
    if (e == NULL) {
        return;
    }
    e->host = NULL; /* finalizers running during destruction cannot reach the host any more */
    e->host_context = NULL;
    if (e->ctx != NULL && !e->poisoned) {
        jmp_buf recovery;
        e->jmp = &recovery;
        if (setjmp(recovery) == 0) {
            duk_destroy_heap(e->ctx);
        }
        e->jmp = NULL;
    }
    e->ctx = NULL;
    free_all_blocks(e); /* no-op after a clean destruction; reclaims a poisoned heap */
    sc_writer_free(&e->result);
    sc_writer_free(&e->host_result);
    sc_writer_free(&e->host_error_name);
    sc_writer_free(&e->host_error_message);
    sc_writer_free(&e->error_name);
    sc_writer_free(&e->error_message);
    free(e);
}

void sc_duk_engine_set_host(sc_duk_engine *e, void *host_context, sc_duk_host_callback callback) {
    e->host_context = host_context;
    e->host = callback;
}

int32_t sc_duk_engine_is_poisoned(const sc_duk_engine *e) {
    return e->poisoned;
}

size_t sc_duk_engine_memory_in_use(const sc_duk_engine *e) {
    return e->memory_used;
}

const char *sc_duk_error_name(const sc_duk_engine *e) {
    return e->error_name.p != NULL ? (const char *)e->error_name.p : "";
}

const char *sc_duk_error_message(const sc_duk_engine *e) {
    return e->error_message.p != NULL ? (const char *)e->error_message.p : "";
}

int64_t sc_duk_error_line(const sc_duk_engine *e) {
    return e->error_line;
}

const uint8_t *sc_duk_result(const sc_duk_engine *e, size_t *length) {
    *length = e->result.len;
    return e->result.p;
}

/* ---- Test hooks ---- */

static void op_debug_fatal(duk_context *ctx, sc_call *call) {
    duk_fatal(ctx, call->s1);
}

int32_t sc_duk_debug_fatal(sc_duk_engine *e, const char *message) {
    sc_call call = {0};
    call.op = op_debug_fatal;
    call.s1 = message;
    return sc_run(e, &call);
}

int32_t sc_duk_debug_throw_unprotected(sc_duk_engine *e) {
    if (e->poisoned) {
        set_fatal_error(e);
        return SC_DUK_FATAL;
    }
    jmp_buf recovery;
    jmp_buf *outer = e->jmp;
    e->jmp = &recovery;
    if (setjmp(recovery) != 0) {
        e->jmp = outer;
        set_fatal_error(e);
        return SC_DUK_FATAL;
    }
    /* No protected call around this throw: Duktape has no catcher and calls the fatal handler. */
    (void)duk_error(e->ctx, DUK_ERR_ERROR, "thrown outside any protected call");
    e->jmp = outer;
    return SC_DUK_OK;
}
