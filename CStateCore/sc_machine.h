/*
 * sc_machine.h - what sc_machine.c offers the core's other files beyond the public API:
 * sc_machine_alloc.c, which holds the only calls to malloc and free, so a firmware that builds
 * its machines in static blocks links no heap (it never references that file's functions, and a
 * static library's unreferenced member is not linked).
 */
#ifndef SC_MACHINE_H
#define SC_MACHINE_H

#include "sc_internal.h"

/* Releases every event still queued (sc_host.release, internal queue first, then external), as
 * sc_machine_destroy must before it frees the block. No action runs. */
void sc_machine_release_queued(sc_machine *machine);

#endif /* SC_MACHINE_H */
