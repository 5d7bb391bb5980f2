/*
 * Private declarations shared by the shim's C files (not visible to Swift).
 * See include/duk_shim.h for why the shim exists and how errors are contained.
 */
#ifndef DUKSHIM_INTERNAL_H
#define DUKSHIM_INTERNAL_H

#include <duktape.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "duk_shim.h"

/* Deepest nesting the value converters accept (both directions). */
#define DUKSHIM_MAX_DEPTH 512

/* A growable byte buffer: either malloc-backed (ctx == NULL, owned by the engine, never
 * leaks on a longjmp) or a Duktape dynamic buffer at value stack index `idx` (garbage
 * collected, so a JS error in the middle of an encoding leaks nothing). */
typedef struct dukshim_writer {
    duk_context *ctx;
    duk_idx_t idx;
    uint8_t *p;
    size_t len;
    size_t cap;
    int failed; /* malloc-backed only: an allocation failed */
} dukshim_writer;

/* Allocation bookkeeping: every block is linked so a poisoned heap can be freed without Duktape.
 * A block costs its payload plus this header, and both count against the budget: the limit then
 * bounds the process memory the heaps hold, not only what Duktape asked for. The header keeps
 * the payload aligned for every type Duktape stores (pointers, doubles, 64-bit integers; it has
 * no long double), not for max_align_t, which would pad it by 8 bytes on 64-bit targets. */
typedef union dukshim_block {
    struct {
        union dukshim_block *prev;
        union dukshim_block *next;
        size_t size; /* payload bytes */
    } h;
    double align_double;
    uint64_t align_u64;
    void *align_pointer;
} dukshim_block;

/* A byte budget shared by the engines of one document tree; they may run on different threads,
 * hence the atomics. `used` never exceeds `limit` (0: unlimited) once an allocation has been
 * granted: a reservation that would pass it is undone and refused. */
struct dukshim_budget {
    _Atomic size_t used;
    _Atomic size_t references;
    size_t limit;
};

/* The event `_event` shows (shim_event.c): its fields copied from the host, read by the event
 * object's getters. Buffers are malloc-backed and reused, so binding an event allocates only when
 * a field is longer than any before. */
typedef struct dukshim_event_binding {
    dukshim_writer fields[DUKSHIM_EVENT_FIELD_COUNT]; /* UTF-8 text of each field last set */
    uint32_t present;     /* bit i: field i is part of the bound event (absent fields read as undefined) */
    dukshim_writer data;  /* the encoded `data` (DUKSHIM_VALUE_DATA) or the stored key */
    int32_t data_kind;    /* -1: none; DUKSHIM_VALUE_DATA or DUKSHIM_VALUE_STORED */
    int data_converted;   /* the stash holds this binding's `data`, converted on its first read */
    int data_in_stash;    /* the stash holds some binding's converted `data` */
    int has_raw;          /* the object has the member `raw` */
    int stale;            /* the object's members (raw) and the stash do not follow the binding yet */
    int bound;            /* an event was bound (until then `_event` reads as undefined) */
    void *object;         /* heap pointer of the event object in the stash (NULL until installed) */
    void *keys[DUKSHIM_EVENT_FIELD_COUNT + 1]; /* the member names (fields, then "data"), kept in the stash */
} dukshim_event_binding;

struct dukshim_engine {
    duk_context *ctx;
    jmp_buf *jmp;   /* innermost active recovery point, NULL outside operations */
    int poisoned;
    char fatal_message[256];

    dukshim_budget *budget; /* shared; one reference held by this engine */
    size_t memory_used;     /* this heap's part of budget->used (payload and headers) */
    dukshim_block *blocks;
    int memory_refused;     /* an allocation was refused during the current operation */

    /* Execution time (shim_time.c). Duktape calls dukshim_exec_timeout_check every 256K
     * bytecode instructions; once it said "stop" it must keep saying so until the outermost
     * operation has returned (Duktape's contract: the RangeError it throws has to bubble out
     * through every try/catch/finally). */
    uint64_t time_limit_ns; /* 0: unlimited */
    uint64_t deadline_ns;   /* UINT64_MAX when no operation is running; 0 until the first check */
    int depth;              /* nesting of dukshim_run (host functions calling back) */
    int timed_out;
    uint32_t native_ticks;  /* calls of dukshim_native_timeout_check */

    void *host_context;
    dukshim_host_callback host;

    void *functions; /* heap pointer of the compiled-function table (shim_compiled.c), kept in the stash */
    void **function_pointers;  /* heap pointer of each function in that table, by id (malloc-backed) */
    size_t function_count;
    size_t function_capacity;
    dukshim_event_binding event; /* `_event` (shim_event.c) */

    dukshim_writer result;       /* last operation's encoded result */
    dukshim_writer host_result;  /* value handed back by a host function */
    dukshim_writer host_error_name;
    dukshim_writer host_error_message;
    dukshim_writer error_name;
    dukshim_writer error_message;
    int64_t error_line;
};

/* One operation: runs inside duk_safe_call and pushes its result value (or nothing). */
typedef struct dukshim_call dukshim_call;
typedef void (*dukshim_op)(duk_context *ctx, dukshim_call *call);
struct dukshim_call {
    dukshim_engine *engine;
    dukshim_op op;
    int32_t result_mode;
    const char *s1;
    size_t n1;
    const char *s2;
    size_t n2;
    const char *s3;
    size_t n3;
    int32_t value_kind;
    const void *value;
    size_t value_length;
    int64_t number;
    int32_t flag;
    int64_t out_number;
    /* When set (a compiled function's heap pointer, result mode NONE or BOOLEAN), the operation
       is a call of that function with the global object as `this`, which dukshim_run makes as
       one protected call (duk_pcall_method) instead of running `op` inside duk_safe_call, when
       nothing else has to run first (dukshim_event_settle); `op` must do the same call. */
    void *function;
};

/* shim_memory.c */
/* Duktape's allocation functions; `udata` is the engine. NULL refuses (Duktape then collects
 * garbage, retries, and finally throws "alloc failed" inside the protected call). */
void *dukshim_alloc(void *udata, duk_size_t size);
void *dukshim_realloc(void *udata, void *ptr, duk_size_t size);
void dukshim_free(void *udata, void *ptr);
void dukshim_free_all_blocks(dukshim_engine *engine); /* for a poisoned heap: without Duktape */

/* shim_time.c */
void dukshim_time_arm(dukshim_engine *engine);   /* an outermost operation starts */
void dukshim_time_disarm(dukshim_engine *engine);

/* shim_heap.c */
dukshim_engine *dukshim_engine_from_ctx(duk_context *ctx);
int32_t dukshim_run(dukshim_engine *engine, dukshim_call *call);
void dukshim_push_helper(duk_context *ctx, const char *name); /* pushes helpers[name] */

/* shim_text.c */
int dukshim_writer_reserve(dukshim_writer *w, size_t extra);
void dukshim_writer_byte(dukshim_writer *w, uint8_t b);
void dukshim_writer_bytes(dukshim_writer *w, const void *bytes, size_t n);
void dukshim_writer_u32(dukshim_writer *w, uint32_t v);
void dukshim_writer_patch_u32(dukshim_writer *w, size_t at, uint32_t v);
void dukshim_writer_reset(dukshim_writer *w);
void dukshim_writer_free(dukshim_writer *w);
/* Appends Duktape's internal string bytes (CESU-8 / extended UTF-8) as valid UTF-8. */
void dukshim_writer_internal_string(dukshim_writer *w, const uint8_t *s, size_t n);
/* Pushes a UTF-8 string converted to Duktape's CESU-8 representation. */
void dukshim_push_utf8(duk_context *ctx, const char *s, size_t n);

/* shim_values.c */
/* Replaces the value at the top of the stack with a dynamic buffer holding its encoding. */
void dukshim_encode_top(duk_context *ctx);
/* Encodes values [first, first + count) as one array into a new dynamic buffer (pushed). */
void dukshim_encode_arguments(duk_context *ctx, duk_idx_t first, duk_idx_t count);
/* Pushes the value decoded from `bytes`; `freeze` deep-freezes objects and arrays. */
void dukshim_decode_push(duk_context *ctx, const uint8_t *bytes, size_t n, int freeze);

/* shim_compiled.c */
void dukshim_functions_install(duk_context *ctx, dukshim_engine *engine); /* a new, empty table */
void dukshim_functions_free(dukshim_engine *engine); /* the heap pointers (after the heap is gone) */
/* Pushes the function compiled from `src` as `kind` (DUKSHIM_SOURCE_*); throws SyntaxError. */
void dukshim_push_compiled_source(duk_context *ctx, const char *src, size_t n, int32_t kind);
void dukshim_push_function(duk_context *ctx, int64_t function_id); /* throws RangeError for an unknown id */
void dukshim_push_called(duk_context *ctx, int64_t function_id);   /* its result, called with global `this` */

/* shim_event.c */
void dukshim_event_free(dukshim_engine *engine);
/* Makes the event object and the stash follow the binding: `raw` a member exactly when bound, no
   earlier event's converted data kept (inside a protected call; may throw when out of memory,
   leaving the binding stale). dukshim_run calls it before every operation whose engine's binding
   is stale, so no script ever sees an earlier event's members. */
void dukshim_event_show(duk_context *ctx, dukshim_engine *engine);
/* Brings `_event` up to date without touching the heap when that is all it needs (the common
   case: no member to add or remove, no converted data to release) and returns 1; returns 0,
   changing nothing, when dukshim_event_show must run (inside a protected call). */
int dukshim_event_settle(dukshim_engine *engine);

/* shim_host.c */
void dukshim_push_host_function(duk_context *ctx, int32_t function_id);

#endif /* DUKSHIM_INTERNAL_H */
