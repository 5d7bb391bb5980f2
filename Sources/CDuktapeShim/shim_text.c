/*
 * Byte buffers and string conversion between Swift's UTF-8 and Duktape's CESU-8.
 *
 * Duktape keeps strings as CESU-8: characters outside the BMP written in script source become
 * surrogate pairs, each encoded as a 3-byte sequence. Strings pushed from C are stored
 * byte for byte, so a 4-byte UTF-8 sequence would become a single "character" of length 1
 * (unlike "😀".length === 2 in source). The shim therefore converts UTF-8 to CESU-8 on the
 * way in and CESU-8 (or whatever Duktape holds) to valid UTF-8 on the way out.
 */
#include <stdlib.h>
#include <string.h>

#include "shim_internal.h"

int dukshim_writer_reserve(dukshim_writer *w, size_t extra) {
    if (w->failed) {
        return 0;
    }
    if (extra <= w->cap - w->len) {
        return 1;
    }
    size_t need = w->len + extra;
    if (need < w->len) {
        goto overflow;
    }
    size_t cap = w->cap ? w->cap : 64;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            goto overflow;
        }
        cap *= 2;
    }
    if (w->ctx != NULL) {
        /* Throws RangeError (inside the operation's protected call) if the heap limit is hit. */
        w->p = (uint8_t *)duk_resize_buffer(w->ctx, w->idx, cap);
    } else {
        uint8_t *p = (uint8_t *)realloc(w->p, cap);
        if (p == NULL) {
            w->failed = 1;
            return 0;
        }
        w->p = p;
    }
    w->cap = cap;
    return 1;
overflow:
    if (w->ctx != NULL) {
        (void)duk_range_error(w->ctx, "value too large to convert");
    }
    w->failed = 1;
    return 0;
}

void dukshim_writer_byte(dukshim_writer *w, uint8_t b) {
    if (dukshim_writer_reserve(w, 1)) {
        w->p[w->len++] = b;
    }
}

void dukshim_writer_bytes(dukshim_writer *w, const void *bytes, size_t n) {
    if (n > 0 && dukshim_writer_reserve(w, n)) {
        memcpy(w->p + w->len, bytes, n);
        w->len += n;
    }
}

void dukshim_writer_u32(dukshim_writer *w, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    dukshim_writer_bytes(w, b, 4);
}

void dukshim_writer_patch_u32(dukshim_writer *w, size_t at, uint32_t v) {
    if (!w->failed && at + 4 <= w->len) {
        w->p[at] = (uint8_t)v;
        w->p[at + 1] = (uint8_t)(v >> 8);
        w->p[at + 2] = (uint8_t)(v >> 16);
        w->p[at + 3] = (uint8_t)(v >> 24);
    }
}

void dukshim_writer_reset(dukshim_writer *w) {
    w->len = 0;
    w->failed = 0;
}

void dukshim_writer_free(dukshim_writer *w) {
    if (w->ctx == NULL) {
        free(w->p);
    }
    w->p = NULL;
    w->len = w->cap = 0;
    w->failed = 0;
}

/* Decodes one (extended) UTF-8 sequence; returns its length, or 0 if malformed. */
static size_t decode_sequence(const uint8_t *s, size_t n, uint32_t *cp) {
    uint8_t b = s[0];
    size_t len;
    uint32_t c, min;
    if (b < 0x80) {
        *cp = b;
        return 1;
    } else if ((b & 0xE0) == 0xC0) {
        len = 2, c = b & 0x1F, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
        len = 3, c = b & 0x0F, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
        len = 4, c = b & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len > n) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            return 0;
        }
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF) {
        return 0;
    }
    *cp = c;
    return len;
}

static void put_utf8(dukshim_writer *w, uint32_t c) {
    uint8_t b[4];
    size_t n;
    if (c < 0x80) {
        b[0] = (uint8_t)c, n = 1;
    } else if (c < 0x800) {
        b[0] = (uint8_t)(0xC0 | (c >> 6)), b[1] = (uint8_t)(0x80 | (c & 0x3F)), n = 2;
    } else if (c < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (c >> 12)), b[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (c & 0x3F)), n = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | (c >> 18)), b[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
        b[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F)), b[3] = (uint8_t)(0x80 | (c & 0x3F)), n = 4;
    }
    dukshim_writer_bytes(w, b, n);
}

void dukshim_writer_internal_string(dukshim_writer *w, const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint32_t c;
        size_t len = decode_sequence(s + i, n - i, &c);
        if (len == 0) {
            put_utf8(w, 0xFFFD); /* invalid byte (e.g. from a plain buffer) */
            i += 1;
            continue;
        }
        i += len;
        if (c >= 0xD800 && c <= 0xDBFF) {
            uint32_t low;
            size_t len2 = i < n ? decode_sequence(s + i, n - i, &low) : 0;
            if (len2 != 0 && low >= 0xDC00 && low <= 0xDFFF) {
                c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                i += len2;
            } else {
                c = 0xFFFD; /* lone high surrogate */
            }
        } else if (c >= 0xDC00 && c <= 0xDFFF) {
            c = 0xFFFD; /* lone low surrogate */
        }
        put_utf8(w, c);
    }
}

void dukshim_push_utf8(duk_context *ctx, const char *s, size_t n) {
    if (s == NULL) {
        s = "", n = 0;
    }
    size_t four = 0;
    for (size_t i = 0; i < n; i++) {
        if (((uint8_t)s[i] & 0xF8) == 0xF0) {
            four++;
        }
    }
    if (four == 0) {
        duk_push_lstring(ctx, s, n);
        return;
    }
    /* Each 4-byte sequence becomes two 3-byte surrogates: 2 extra bytes. */
    uint8_t *out = (uint8_t *)duk_push_fixed_buffer(ctx, n + 2 * four);
    size_t o = 0, i = 0;
    while (i < n) {
        uint32_t c;
        size_t len = decode_sequence((const uint8_t *)s + i, n - i, &c);
        if (len == 4) {
            uint32_t v = c - 0x10000;
            uint32_t hi = 0xD800 + (v >> 10), lo = 0xDC00 + (v & 0x3FF);
            out[o++] = (uint8_t)(0xE0 | (hi >> 12));
            out[o++] = (uint8_t)(0x80 | ((hi >> 6) & 0x3F));
            out[o++] = (uint8_t)(0x80 | (hi & 0x3F));
            out[o++] = (uint8_t)(0xE0 | (lo >> 12));
            out[o++] = (uint8_t)(0x80 | ((lo >> 6) & 0x3F));
            out[o++] = (uint8_t)(0x80 | (lo & 0x3F));
            i += 4;
        } else {
            size_t copy = len == 0 ? 1 : len;
            memcpy(out + o, s + i, copy);
            o += copy;
            i += copy;
        }
    }
    /* o <= n + 2 * four (a malformed 0xF0 lead byte leaves slack): copy the used prefix. */
    duk_push_lstring(ctx, (const char *)out, o);
    duk_remove(ctx, -2);
}
