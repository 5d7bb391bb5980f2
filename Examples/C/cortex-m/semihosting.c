/* semihosting.c - see semihosting.h. Operation numbers and argument blocks are those of Arm's
 * "Semihosting for AArch32 and AArch64" specification. */
#include "semihosting.h"

#include <stdint.h>

enum {
    SYS_OPEN = 0x01,
    SYS_WRITE = 0x05,
    SYS_EXIT = 0x18,
};

/* SYS_EXIT reasons (ADP_Stopped_*): QEMU exits 0 for ApplicationExit and 1 for any other. */
enum { ADP_STOPPED_APPLICATION_EXIT = 0x20026, ADP_STOPPED_RUN_TIME_ERROR = 0x20023 };

/* SYS_OPEN modes: ":tt" opened for writing is standard output, for appending standard error. */
enum { MODE_W = 4, MODE_A = 8 };

static int call(int operation, const void *argument) {
    register int r0 __asm__("r0") = operation;
    register const void *r1 __asm__("r1") = argument;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

/* Handles are opened on first use; -1 while not yet opened. */
static int console_handle(int *handle, int mode) {
    if (*handle < 0) {
        const uintptr_t arguments[3] = { (uintptr_t)":tt", (uintptr_t)mode, 3 };
        *handle = call(SYS_OPEN, arguments);
    }
    return *handle;
}

static void write_handle(int handle, const char *text, size_t length) {
    if (handle < 0 || length == 0) return;
    const uintptr_t arguments[3] = { (uintptr_t)handle, (uintptr_t)text, length };
    call(SYS_WRITE, arguments);
}

void semihosting_write_stdout(const char *text, size_t length) {
    static int handle = -1;
    write_handle(console_handle(&handle, MODE_W), text, length);
}

void semihosting_write_stderr(const char *text, size_t length) {
    static int handle = -1;
    write_handle(console_handle(&handle, MODE_A), text, length);
}

_Noreturn void semihosting_exit(int success) {
    /* On AArch32 the reason code itself is the argument. */
    call(SYS_EXIT, (const void *)(uintptr_t)(success ? ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_RUN_TIME_ERROR));
    for (;;) {}   /* not reached under a debugger that honours SYS_EXIT */
}
