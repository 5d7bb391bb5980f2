/*
 * test_harness.h - the few lines both C test programs of this folder share: a test is
 * a `bool (void)` function; CHECK fails it with a message; `run` prints "ok - name" or
 * "FAIL - name: details"; main prints "N passed, M failed" (20-lock-and-frames.sh adds them up).
 */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <stdbool.h>
#include <stdio.h>

static int passed, failed;
static char details[256];

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            snprintf(details, sizeof details, __VA_ARGS__);               \
            return false;                                                 \
        }                                                                 \
    } while (0)

static void run(const char *name, bool (*test)(void)) {
    details[0] = 0;
    if (test()) {
        passed++;
        printf("ok - %s\n", name);
    } else {
        failed++;
        printf("FAIL - %s: %s\n", name, details);
    }
}

#endif
