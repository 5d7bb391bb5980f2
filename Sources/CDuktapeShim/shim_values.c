/*
 * Conversion between Duktape values and the byte encoding shared with Swift (see duk_shim.h).
 *
 * Both directions run inside protected calls: getters, toJSON methods and Proxy traps may run
 * script code and throw, and the output goes to garbage-collected Duktape buffers, so a
 * longjmp in the middle leaks nothing.
 *
 * JS -> data follows JSON.stringify where it can: toJSON() is honoured (Dates become ISO
 * strings), only own enumerable string-keyed properties are read, members whose value is
 * undefined are omitted. It differs where JSON would lose information silently: functions,
 * symbols, buffers and pointers raise a TypeError, cycles raise a TypeError, NaN and the
 * infinities are kept as numbers, and a top-level undefined is reported as 'u'.
 */
#include <string.h>

#include "shim_internal.h"

typedef struct dukshim_encoder {
    dukshim_writer w;
    void *ancestors[DUKSHIM_MAX_DEPTH];
    int depth;
} dukshim_encoder;

static void put_f64(dukshim_writer *w, double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    uint8_t b[8];
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(bits >> (8 * i));
    }
    dukshim_writer_bytes(w, b, 8);
}

static void put_string_at(duk_context *ctx, dukshim_writer *w, duk_idx_t idx) {
    duk_size_t n = 0;
    const char *s = duk_get_lstring(ctx, idx, &n);
    size_t at = w->len;
    dukshim_writer_u32(w, 0);
    size_t start = w->len;
    dukshim_writer_internal_string(w, (const uint8_t *)s, n);
    size_t len = w->len - start;
    if (len > UINT32_MAX) {
        (void)duk_range_error(ctx, "string too long to convert");
    }
    dukshim_writer_patch_u32(w, at, (uint32_t)len);
}

static void encode_value(duk_context *ctx, dukshim_encoder *en, duk_idx_t idx) {
    idx = duk_normalize_index(ctx, idx);
    duk_idx_t top = duk_get_top(ctx);
    dukshim_writer *w = &en->w;

    if (duk_is_object(ctx, idx) && !duk_is_function(ctx, idx)) {
        duk_get_prop_string(ctx, idx, "toJSON");
        if (duk_is_function(ctx, -1)) {
            duk_dup(ctx, idx);
            duk_push_string(ctx, "");
            duk_call_method(ctx, 1);
            idx = duk_get_top_index(ctx);
        } else {
            duk_pop(ctx);
        }
    }

    switch (duk_get_type(ctx, idx)) {
    case DUK_TYPE_NONE:
    case DUK_TYPE_UNDEFINED:
        dukshim_writer_byte(w, 'u');
        break;
    case DUK_TYPE_NULL:
        dukshim_writer_byte(w, 'n');
        break;
    case DUK_TYPE_BOOLEAN:
        dukshim_writer_byte(w, duk_get_boolean(ctx, idx) ? 't' : 'f');
        break;
    case DUK_TYPE_NUMBER:
        dukshim_writer_byte(w, 'd');
        put_f64(w, duk_get_number(ctx, idx));
        break;
    case DUK_TYPE_STRING:
        if (duk_is_symbol(ctx, idx)) {
            (void)duk_type_error(ctx, "cannot convert a symbol to data");
        }
        dukshim_writer_byte(w, 's');
        put_string_at(ctx, w, idx);
        break;
    case DUK_TYPE_LIGHTFUNC:
        (void)duk_type_error(ctx, "cannot convert a function to data");
        break;
    case DUK_TYPE_BUFFER:
        (void)duk_type_error(ctx, "cannot convert a buffer to data");
        break;
    case DUK_TYPE_POINTER:
        (void)duk_type_error(ctx, "cannot convert a pointer to data");
        break;
    case DUK_TYPE_OBJECT: {
        if (duk_is_function(ctx, idx)) {
            (void)duk_type_error(ctx, "cannot convert a function to data");
        }
        if (duk_is_buffer_data(ctx, idx)) {
            (void)duk_type_error(ctx, "cannot convert a buffer to data");
        }
        void *self = duk_get_heapptr(ctx, idx);
        for (int i = 0; i < en->depth; i++) {
            if (en->ancestors[i] == self) {
                (void)duk_type_error(ctx, "cannot convert a cyclic structure to data");
            }
        }
        if (en->depth >= DUKSHIM_MAX_DEPTH) {
            (void)duk_range_error(ctx, "value nested too deeply to convert (limit %d)", DUKSHIM_MAX_DEPTH);
        }
        en->ancestors[en->depth++] = self;
        if (duk_is_array(ctx, idx)) {
            duk_size_t count = duk_get_length(ctx, idx);
            if (count > UINT32_MAX) {
                (void)duk_range_error(ctx, "array too long to convert");
            }
            dukshim_writer_byte(w, 'a');
            dukshim_writer_u32(w, (uint32_t)count);
            for (duk_size_t i = 0; i < count; i++) {
                duk_get_prop_index(ctx, idx, (duk_uarridx_t)i);
                encode_value(ctx, en, -1);
                duk_pop(ctx);
            }
        } else {
            dukshim_writer_byte(w, 'o');
            size_t at = w->len;
            dukshim_writer_u32(w, 0);
            uint32_t count = 0;
            duk_enum(ctx, idx, DUK_ENUM_OWN_PROPERTIES_ONLY);
            while (duk_next(ctx, -1, 1)) {
                if (!duk_is_undefined(ctx, -1)) {
                    put_string_at(ctx, w, -2);
                    encode_value(ctx, en, -1);
                    if (count == UINT32_MAX) {
                        (void)duk_range_error(ctx, "object too large to convert");
                    }
                    count++;
                }
                duk_pop_2(ctx);
            }
            dukshim_writer_patch_u32(w, at, count);
        }
        en->depth--;
        break;
    }
    default:
        (void)duk_type_error(ctx, "cannot convert this value to data");
        break;
    }
    duk_set_top(ctx, top);
}

static void encoder_begin(duk_context *ctx, dukshim_encoder *en) {
    memset(&en->w, 0, sizeof en->w);
    en->depth = 0;
    duk_push_dynamic_buffer(ctx, 0);
    en->w.ctx = ctx;
    en->w.idx = duk_get_top_index(ctx);
}

static void encoder_end(duk_context *ctx, dukshim_encoder *en) {
    /* Trim the dynamic buffer to the bytes written. */
    duk_resize_buffer(ctx, en->w.idx, en->w.len);
}

void dukshim_encode_top(duk_context *ctx) {
    dukshim_encoder en;
    encoder_begin(ctx, &en);
    encode_value(ctx, &en, -2);
    encoder_end(ctx, &en);
    duk_remove(ctx, -2);
}

void dukshim_encode_arguments(duk_context *ctx, duk_idx_t first, duk_idx_t count) {
    dukshim_encoder en;
    encoder_begin(ctx, &en);
    dukshim_writer_byte(&en.w, 'a');
    dukshim_writer_u32(&en.w, (uint32_t)count);
    for (duk_idx_t i = 0; i < count; i++) {
        encode_value(ctx, &en, first + i);
    }
    encoder_end(ctx, &en);
}

typedef struct dukshim_reader {
    const uint8_t *p;
    size_t n;
    size_t pos;
    int freeze;
} dukshim_reader;

static void malformed(duk_context *ctx) {
    (void)duk_type_error(ctx, "malformed value encoding");
}

static uint32_t read_u32(duk_context *ctx, dukshim_reader *r) {
    if (r->n - r->pos < 4) {
        malformed(ctx);
    }
    const uint8_t *b = r->p + r->pos;
    r->pos += 4;
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static void read_string(duk_context *ctx, dukshim_reader *r) {
    uint32_t len = read_u32(ctx, r);
    if (r->n - r->pos < len) {
        malformed(ctx);
    }
    dukshim_push_utf8(ctx, (const char *)(r->p + r->pos), len);
    r->pos += len;
}

#define DUKSHIM_DEF_DATA (DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_SET_WEC)

static void decode_value(duk_context *ctx, dukshim_reader *r, int depth) {
    if (depth > DUKSHIM_MAX_DEPTH) {
        (void)duk_range_error(ctx, "value nested too deeply to convert (limit %d)", DUKSHIM_MAX_DEPTH);
    }
    if (r->pos >= r->n) {
        malformed(ctx);
    }
    uint8_t tag = r->p[r->pos++];
    switch (tag) {
    case 'u':
        duk_push_undefined(ctx);
        break;
    case 'n':
        duk_push_null(ctx);
        break;
    case 't':
        duk_push_true(ctx);
        break;
    case 'f':
        duk_push_false(ctx);
        break;
    case 'd': {
        if (r->n - r->pos < 8) {
            malformed(ctx);
        }
        uint64_t bits = 0;
        for (int i = 0; i < 8; i++) {
            bits |= (uint64_t)r->p[r->pos + (size_t)i] << (8 * i);
        }
        r->pos += 8;
        double d;
        memcpy(&d, &bits, sizeof d);
        duk_push_number(ctx, d);
        break;
    }
    case 's':
        read_string(ctx, r);
        break;
    case 'a': {
        uint32_t count = read_u32(ctx, r);
        duk_idx_t arr = duk_push_array(ctx);
        for (uint32_t i = 0; i < count; i++) {
            /* Defined, not assigned: setters someone put on Array.prototype never run. */
            duk_push_uint(ctx, i);
            decode_value(ctx, r, depth + 1);
            duk_def_prop(ctx, arr, DUKSHIM_DEF_DATA);
        }
        if (r->freeze) {
            duk_freeze(ctx, arr);
        }
        break;
    }
    case 'o': {
        uint32_t count = read_u32(ctx, r);
        duk_idx_t obj = duk_push_object(ctx);
        for (uint32_t i = 0; i < count; i++) {
            /* Defined, not assigned: a "__proto__" key becomes an own property, as in JSON.parse. */
            read_string(ctx, r);
            decode_value(ctx, r, depth + 1);
            duk_def_prop(ctx, obj, DUKSHIM_DEF_DATA);
        }
        if (r->freeze) {
            duk_freeze(ctx, obj);
        }
        break;
    }
    default:
        malformed(ctx);
    }
}

void dukshim_decode_push(duk_context *ctx, const uint8_t *bytes, size_t n, int freeze) {
    dukshim_reader r = {bytes, bytes == NULL ? 0 : n, 0, freeze};
    decode_value(ctx, &r, 0);
    if (r.pos != r.n) {
        malformed(ctx);
    }
}
