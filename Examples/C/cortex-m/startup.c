/*
 * startup.c - reset and exception vectors for a Cortex-M (the mps2-an385 and microbit boards under
 * QEMU).
 *
 * On reset the core loads the stack pointer from word 0 of the vector table and jumps to word 1,
 * reset_handler, which does what a C runtime's crt0 would: copy initialised data from flash to
 * RAM, zero .bss, call main, and report main's result through semihosting. Every fault ends the
 * program with a message instead of hanging, so a crash fails the test at once.
 */
#include "semihosting.h"

#include <stdint.h>
#include <string.h>

int main(void);

/* SysTick's handler: a firmware that counts ticks defines its own (firmware.c); one that never
 * enables SysTick (footprint.c) links this empty one. */
__attribute__((weak)) void systick_handler(void) {}

/* Linker script symbols (sections.ld). */
extern uint32_t stack_top, data_start, data_end, data_load, bss_start, bss_end;

_Noreturn void reset_handler(void) {
    memcpy(&data_start, &data_load, (size_t)((uintptr_t)&data_end - (uintptr_t)&data_start));
    memset(&bss_start, 0, (size_t)((uintptr_t)&bss_end - (uintptr_t)&bss_start));
    semihosting_exit(main() == 0);
}

static void write_text(const char *text) {
    size_t length = 0;
    while (text[length]) length++;
    semihosting_write_stderr(text, length);
}

/* newlib's assert() calls this; its own version prints through stdio, which this firmware does
 * not link (no _write, _sbrk, ...). A failed assertion ends the run with its text on stderr. */
_Noreturn void __assert_func(const char *file, int line, const char *function, const char *expression) {
    char digits[12];
    size_t n = sizeof digits - 1;
    digits[n] = '\0';
    unsigned value = line > 0 ? (unsigned)line : 0u;
    do { digits[--n] = (char)('0' + value % 10u); value /= 10u; } while (value && n);
    write_text("firmware: assertion failed: ");
    write_text(expression);
    write_text(" (");
    write_text(file);
    write_text(":");
    write_text(digits + n);
    write_text(function ? ", " : "");
    write_text(function ? function : "");
    write_text(")\n");
    semihosting_exit(0);
}

static _Noreturn void fault_handler(void) {
    write_text("firmware: fault exception (hard fault, bus, usage or memory fault, NMI)\n");
    semihosting_exit(0);
}

/* System exceptions 0-15 (on a Cortex-M0, MemManage, BusFault, UsageFault and DebugMonitor are
 * reserved and never taken); the board's peripheral interrupts stay disabled. */
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)&stack_top,
    reset_handler,
    fault_handler,      /* NMI */
    fault_handler,      /* HardFault */
    fault_handler,      /* MemManage */
    fault_handler,      /* BusFault */
    fault_handler,      /* UsageFault */
    0, 0, 0, 0,         /* reserved */
    fault_handler,      /* SVCall: never used */
    fault_handler,      /* DebugMonitor */
    0,                  /* reserved */
    fault_handler,      /* PendSV: never used */
    systick_handler,
};
