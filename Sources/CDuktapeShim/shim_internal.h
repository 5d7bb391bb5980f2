/*
 * Private declarations shared by the shim's C files (not visible to Swift).
 * See include/duk_shim.h for why the shim exists and how errors are contained.
 */
#ifndef SC_DUK_SHIM_INTERNAL_H
#define SC_DUK_SHIM_INTERNAL_H

#include <duktape.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "duk_shim.h"

/* Deepest nesting the value converters accept (both directions). */
#define SC_MAX_DEPTH 512

/* A growable byte buffer: either malloc-backed (ctx == NULL, owned by the engine, never
 * leaks on a longjmp) or a Duktape dynamic buffer at value stack index `idx` (garbage
 * collected, so a JS error in the middle of an encoding leaks nothing). */
typedef struct sc_writer {
    duk_context *ctx;
    duk_idx_t idx;
    uint8_t *p;
    size_t len;
    size_t cap;
    int failed; /* malloc-backed only: an allocation failed */
} sc_writer;

/* Allocation bookkeeping: every block is linked so a poisoned heap can be freed without Duktape. */
typedef union sc_block {
    struct {
        union sc_block *prev;
        union sc_block *next;
        size_t size;
    } h;
    max_align_t align;
} sc_block;

struct sc_duk_engine {
    duk_context *ctx;
    jmp_buf *jmp;   /* innermost active recovery point, NULL outside operations */
    int poisoned;
    char fatal_message[256];

    size_t memory_limit; /* 0: unlimited */
    size_t memory_used;
    sc_block *blocks;

    void *host_context;
    sc_duk_host_callback host;

    sc_writer result;       /* last operation's encoded result */
    sc_writer host_result;  /* value handed back by a host function */
    sc_writer host_error_name;
    sc_writer host_error_message;
    sc_writer error_name;
    sc_writer error_message;
    int64_t error_line;
};

/* One operation: runs inside duk_safe_call and pushes its result value (or nothing). */
typedef struct sc_call sc_call;
typedef void (*sc_op)(duk_context *ctx, sc_call *call);
struct sc_call {
    sc_duk_engine *engine;
    sc_op op;
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
};

/* shim_heap.c */
sc_duk_engine *sc_engine_from_ctx(duk_context *ctx);
int32_t sc_run(sc_duk_engine *engine, sc_call *call);
void sc_push_helper(duk_context *ctx, const char *name); /* pushes helpers[name] */

/* shim_text.c */
int sc_writer_reserve(sc_writer *w, size_t extra);
void sc_writer_byte(sc_writer *w, uint8_t b);
void sc_writer_bytes(sc_writer *w, const void *bytes, size_t n);
void sc_writer_u32(sc_writer *w, uint32_t v);
void sc_writer_patch_u32(sc_writer *w, size_t at, uint32_t v);
void sc_writer_reset(sc_writer *w);
void sc_writer_free(sc_writer *w);
/* Appends Duktape's internal string bytes (CESU-8 / extended UTF-8) as valid UTF-8. */
void sc_writer_internal_string(sc_writer *w, const uint8_t *s, size_t n);
/* Pushes a UTF-8 string converted to Duktape's CESU-8 representation. */
void sc_push_utf8(duk_context *ctx, const char *s, size_t n);

/* shim_values.c */
/* Replaces the value at the top of the stack with a dynamic buffer holding its encoding. */
void sc_encode_top(duk_context *ctx);
/* Encodes values [first, first + count) as one array into a new dynamic buffer (pushed). */
void sc_encode_arguments(duk_context *ctx, duk_idx_t first, duk_idx_t count);
/* Pushes the value decoded from `bytes`; `freeze` deep-freezes objects and arrays. */
void sc_decode_push(duk_context *ctx, const uint8_t *bytes, size_t n, int freeze);

/* shim_host.c */
void sc_push_host_function(duk_context *ctx, int32_t function_id);

#endif /* SC_DUK_SHIM_INTERNAL_H */
