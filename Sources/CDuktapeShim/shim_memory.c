/*
 * Memory: the budget shared by the heaps of one document tree, and the tracking allocator that
 * charges it.
 *
 * Every block Duktape allocates carries a header (dukshim_block) linking it into its engine's
 * list, so a poisoned heap can be freed without calling Duktape. A block's cost, payload plus
 * header, is reserved from the budget before malloc and returned after free. A reservation
 * that would pass the limit is refused: the allocation returns NULL, Duktape collects garbage
 * and retries, then throws "alloc failed" inside the running protected call, which the
 * operation reports as an error (the script may also catch it). The budget is never exceeded,
 * so a script that grows an array forever stops at the limit, not at the host's memory.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "shim_internal.h"

/* ---- Budget ---- */

dukshim_budget *dukshim_budget_create(size_t limit) {
    dukshim_budget *b = (dukshim_budget *)malloc(sizeof *b);
    if (b == NULL) {
        return NULL;
    }
    atomic_init(&b->used, 0);
    atomic_init(&b->references, 1);
    b->limit = limit;
    return b;
}

void dukshim_budget_retain(dukshim_budget *b) {
    atomic_fetch_add_explicit(&b->references, 1, memory_order_relaxed);
}

void dukshim_budget_release(dukshim_budget *b) {
    if (b != NULL && atomic_fetch_sub_explicit(&b->references, 1, memory_order_acq_rel) == 1) {
        free(b);
    }
}

size_t dukshim_budget_limit(const dukshim_budget *b) {
    return b->limit;
}

size_t dukshim_budget_in_use(const dukshim_budget *b) {
    return atomic_load_explicit(&b->used, memory_order_relaxed);
}

int32_t dukshim_budget_charge(dukshim_budget *b, size_t bytes) {
    if (b->limit != 0 && bytes > b->limit) {
        return 0;
    }
    size_t before = atomic_fetch_add_explicit(&b->used, bytes, memory_order_relaxed);
    if (b->limit != 0 && before > b->limit - bytes) {
        atomic_fetch_sub_explicit(&b->used, bytes, memory_order_relaxed);
        return 0;
    }
    return 1;
}

void dukshim_budget_refund(dukshim_budget *b, size_t bytes) {
    atomic_fetch_sub_explicit(&b->used, bytes, memory_order_relaxed);
}

/* Reserves `bytes`; 0 when that would pass the limit. Two engines racing near the limit may
 * both be refused although one would fit: refusing is always safe, exceeding never happens. */
static int reserve(dukshim_engine *e, size_t bytes) {
    dukshim_budget *b = e->budget;
    if (b->limit != 0 && bytes > b->limit) {
        e->memory_refused = 1;
        return 0;
    }
    size_t before = atomic_fetch_add_explicit(&b->used, bytes, memory_order_relaxed);
    if (b->limit != 0 && before > b->limit - bytes) {
        atomic_fetch_sub_explicit(&b->used, bytes, memory_order_relaxed);
        e->memory_refused = 1;
        return 0;
    }
    e->memory_used += bytes;
    return 1;
}

static void give_back(dukshim_engine *e, size_t bytes) {
    atomic_fetch_sub_explicit(&e->budget->used, bytes, memory_order_relaxed);
    e->memory_used -= bytes;
}

/* ---- Allocator: a header per block, a doubly linked list of live blocks. ---- */

static void link_block(dukshim_engine *e, dukshim_block *b) {
    b->h.prev = NULL;
    b->h.next = e->blocks;
    if (e->blocks != NULL) {
        e->blocks->h.prev = b;
    }
    e->blocks = b;
}

static void unlink_block(dukshim_engine *e, dukshim_block *b) {
    if (b->h.prev != NULL) {
        b->h.prev->h.next = b->h.next;
    } else {
        e->blocks = b->h.next;
    }
    if (b->h.next != NULL) {
        b->h.next->h.prev = b->h.prev;
    }
}

void *dukshim_alloc(void *udata, duk_size_t size) {
    dukshim_engine *e = (dukshim_engine *)udata;
    if (size > SIZE_MAX - sizeof(dukshim_block) || !reserve(e, sizeof(dukshim_block) + size)) {
        return NULL;
    }
    dukshim_block *b = (dukshim_block *)malloc(sizeof(dukshim_block) + size);
    if (b == NULL) {
        give_back(e, sizeof(dukshim_block) + size);
        return NULL;
    }
    b->h.size = size;
    link_block(e, b);
    return b + 1;
}

void dukshim_free(void *udata, void *ptr) {
    if (ptr == NULL) {
        return;
    }
    dukshim_engine *e = (dukshim_engine *)udata;
    dukshim_block *b = (dukshim_block *)ptr - 1;
    unlink_block(e, b);
    give_back(e, sizeof(dukshim_block) + b->h.size);
    free(b);
}

void *dukshim_realloc(void *udata, void *ptr, duk_size_t size) {
    if (ptr == NULL) {
        return dukshim_alloc(udata, size);
    }
    dukshim_engine *e = (dukshim_engine *)udata;
    dukshim_block *b = (dukshim_block *)ptr - 1;
    size_t old = b->h.size;
    if (size > SIZE_MAX - sizeof(dukshim_block) || (size > old && !reserve(e, size - old))) {
        return NULL;
    }
    unlink_block(e, b);
    dukshim_block *nb = (dukshim_block *)realloc(b, sizeof(dukshim_block) + size);
    if (nb == NULL) {
        link_block(e, b);
        if (size > old) {
            give_back(e, size - old);
        }
        return NULL;
    }
    if (size < old) {
        give_back(e, old - size);
    }
    nb->h.size = size;
    link_block(e, nb);
    return nb + 1;
}

void dukshim_free_all_blocks(dukshim_engine *e) {
    while (e->blocks != NULL) {
        dukshim_block *b = e->blocks;
        e->blocks = b->h.next;
        give_back(e, sizeof(dukshim_block) + b->h.size);
        free(b);
    }
}
