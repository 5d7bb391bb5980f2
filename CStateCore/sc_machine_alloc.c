/*
 * sc_machine_alloc.c - machines on the heap: sc_machine_create and sc_machine_destroy, the core's
 * only calls to malloc and free. A file of their own so that a firmware whose machines live in
 * static blocks (sc_machine_init) links no allocator from libcstatecore.a, whatever its compiler
 * flags: the linker takes this object only for a program that calls one of the two.
 */
#include "sc_machine.h"

#include <stdlib.h>

sc_machine *sc_machine_create(const sc_chart *chart, const sc_host *host, const sc_options *options) {
    if (!chart || !host) return NULL;
    size_t size = sc_machine_size(chart, options);     /* 0: a bad chart or unknown flags */
    if (size == 0) return NULL;
    /* sc_machine_size has just checked the chart: init need not check it again. */
    sc_options trusted = options ? *options : (sc_options){ 0 };
    trusted.flags |= SC_MACHINE_TRUSTED_CHART;
    void *memory = malloc(size);     /* malloc's alignment covers the 8 bytes required */
    if (!memory) return NULL;
    sc_machine *m;
    if (sc_machine_init(&m, memory, size, chart, host, &trusted) != SC_OK) {
        free(memory);
        return NULL;
    }
    m->owns_memory = true;
    return m;
}

void sc_machine_destroy(sc_machine *m) {
    if (!m) return;
    sc_machine_release_queued(m);
    if (m->owns_memory) free(m);
}
