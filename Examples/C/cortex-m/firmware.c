/*
 * firmware.c - the microwave's dispatch loop (../app.c) on a Cortex-M: SysTick counts
 * milliseconds, the scripted input (an events file compiled in, see Makefile) stands in for the
 * buttons and the door switch, and trace lines go to the semihosting console. The loop sleeps
 * (WFI) while it waits for time to pass, waking on each tick to fire the delayed events due.
 */
#include "../app.h"
#include "semihosting.h"

#include <stddef.h>
#include <stdint.h>

/* System Control Space: the SysTick timer (Armv7-M Architecture Reference Manual, B3.3; the same
 * registers on Armv6-M, B3.3 of its manual). */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE 1u
#define SYST_CSR_TICKINT 2u
#define SYST_CSR_CLKSOURCE_CPU 4u

/* CPU_HZ: the board's core clock, from the Makefile (BOARD). */
#define TICK_HZ 1000u

static volatile uint32_t ticks;   /* ms since the SysTick started */

void systick_handler(void) { ticks++; }

static void wait_until(uint32_t tick) {
    while ((int32_t)(ticks - tick) < 0) __asm__ volatile("wfi");
}

/* The input script, one line per string (generated from the events file by the Makefile). */
static const char *const script[] = {
#include "script.inc"
    NULL
};

int main(void) {
    SYST_RVR = CPU_HZ / TICK_HZ - 1u;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE_CPU;

    static const app_port port = { .write = semihosting_write_stdout, .log = semihosting_write_stderr,
                                   .wait_until = wait_until };
    if (!app_start(&port)) return 1;
    int status = 0;
    for (const char *const *line = script; *line; line++)
        if (!app_input_line(*line)) status = 1;
    return status;
}
