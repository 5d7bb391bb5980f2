/*
 * allocation_counter.c - see allocation_counter.h. The interposed functions must not allocate
 * themselves, so they only touch atomics and forward to glibc's internal entry points.
 */
#define _GNU_SOURCE
#include "allocation_counter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void __libc_free(void *pointer);

static atomic_bool counting;
static atomic_uint_fast64_t calls;
static atomic_int_fast64_t net_bytes;
static atomic_int_fast64_t peak_bytes;

static void note_allocation(void *pointer) {
    if (!pointer) return;
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    int_fast64_t size = (int_fast64_t)malloc_usable_size(pointer);
    int_fast64_t now = atomic_fetch_add_explicit(&net_bytes, size, memory_order_relaxed) + size;
    int_fast64_t peak = atomic_load_explicit(&peak_bytes, memory_order_relaxed);
    while (now > peak &&
           !atomic_compare_exchange_weak_explicit(&peak_bytes, &peak, now, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}

static void note_free(void *pointer) {
    if (!pointer) return;
    atomic_fetch_sub_explicit(&net_bytes, (int_fast64_t)malloc_usable_size(pointer), memory_order_relaxed);
}

static bool on(void) { return atomic_load_explicit(&counting, memory_order_relaxed); }

void *malloc(size_t size) {
    void *p = __libc_malloc(size);
    if (on()) note_allocation(p);
    return p;
}

void *calloc(size_t count, size_t size) {
    void *p = __libc_calloc(count, size);
    if (on()) note_allocation(p);
    return p;
}

void *realloc(void *pointer, size_t size) {
    if (on()) note_free(pointer);
    void *p = __libc_realloc(pointer, size);
    if (on()) note_allocation(p);
    return p;
}

void free(void *pointer) {
    if (on()) note_free(pointer);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    void *p = __libc_memalign(alignment, size);
    if (on()) note_allocation(p);
    return p;
}

void *aligned_alloc(size_t alignment, size_t size) {
    return memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size) {
    void *p = __libc_valloc(size);
    if (on()) note_allocation(p);
    return p;
}

bool allocation_counter_available(void) { return true; }

void allocation_counter_start(void) {
    atomic_store(&counting, false);
    atomic_store(&calls, 0);
    atomic_store(&net_bytes, 0);
    atomic_store(&peak_bytes, 0);
    atomic_store(&counting, true);
}

void allocation_counter_stop(void) { atomic_store(&counting, false); }
uint64_t allocation_counter_calls(void) { return atomic_load(&calls); }
int64_t allocation_counter_net_bytes(void) { return atomic_load(&net_bytes); }
int64_t allocation_counter_peak_bytes(void) { return atomic_load(&peak_bytes); }

int64_t allocation_counter_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (int64_t)(info.uordblks + info.hblkhd);
}

#else

bool allocation_counter_available(void) { return false; }
void allocation_counter_start(void) {}
void allocation_counter_stop(void) {}
uint64_t allocation_counter_calls(void) { return 0; }
int64_t allocation_counter_net_bytes(void) { return 0; }
int64_t allocation_counter_peak_bytes(void) { return 0; }
int64_t allocation_counter_heap_in_use(void) { return -1; }

#endif
