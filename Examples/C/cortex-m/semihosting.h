/*
 * semihosting.h - console output and exit through Arm semihosting: the core executes
 * `bkpt 0xAB` and the debugger, or QEMU with `-semihosting-config enable=on,target=native`,
 * performs the operation on the host. It stands in for a UART so the suite can read the
 * firmware's output as the process's standard output and standard error.
 */
#ifndef SEMIHOSTING_H
#define SEMIHOSTING_H

#include <stddef.h>

/* Writes to the host's standard output. */
void semihosting_write_stdout(const char *text, size_t length);

/* Writes to the host's standard error. */
void semihosting_write_stderr(const char *text, size_t length);

/* Ends the program: QEMU exits with status 0 when `success`, else 1. */
_Noreturn void semihosting_exit(int success);

#endif
