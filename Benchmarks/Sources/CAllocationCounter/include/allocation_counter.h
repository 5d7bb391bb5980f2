/*
 * allocation_counter.h - counts heap allocations made while counting is switched on.
 *
 * On glibc the counter interposes malloc, calloc, realloc, posix_memalign, aligned_alloc,
 * memalign and valloc (they forward to glibc's __libc_* entry points), so it sees the
 * allocations of C code, the Swift runtime and Foundation alike. Elsewhere it is inert and
 * allocation_counter_available() is false.
 *
 * Counting is off by default, so the counter costs one relaxed load per allocation while
 * timing runs. Single counting window at a time; counts are process-wide.
 */
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Whether allocations can be counted on this platform. */
bool allocation_counter_available(void);

/** Clears the counts and switches counting on (`true`) or off. */
void allocation_counter_start(void);
void allocation_counter_stop(void);

/** Allocation calls (malloc family, including realloc) since allocation_counter_start(). */
uint64_t allocation_counter_calls(void);

/** Bytes allocated minus bytes freed since start (usable sizes), and the highest value seen. */
int64_t allocation_counter_net_bytes(void);
int64_t allocation_counter_peak_bytes(void);

/** Bytes in use by the heap right now (glibc mallinfo2: arena plus mmapped chunks), or -1. */
int64_t allocation_counter_heap_in_use(void);

#ifdef __cplusplus
}
#endif
#endif /* ALLOCATION_COUNTER_H */
