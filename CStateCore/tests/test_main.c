/*
 * test_main.c - the runner of CStateCore's C tests: every test of every test file, in turn.
 *
 *   test_core [NAME]     run the tests whose name contains NAME (all without it)
 *
 * Output: one line per test, "ok - name" or "FAIL - name: details", then "N passed, M failed";
 * the exit status is non-zero when a test failed.
 */
#include "test_harness.h"

#define GROUP(name) \
    extern const test_case name##_tests[]; \
    extern const size_t name##_test_count;
GROUP(structure)
GROUP(history)
GROUP(completion)
GROUP(selection)
GROUP(limits)
GROUP(options)
GROUP(chart_check)
GROUP(snapshot)
GROUP(differential)
GROUP(machine_size)

typedef struct test_group {
    const test_case *tests;
    const size_t *count;
} test_group;

static const test_group groups[] = {
    { structure_tests, &structure_test_count },
    { history_tests, &history_test_count },
    { completion_tests, &completion_test_count },
    { selection_tests, &selection_test_count },
    { limits_tests, &limits_test_count },
    { options_tests, &options_test_count },
    { chart_check_tests, &chart_check_test_count },
    { snapshot_tests, &snapshot_test_count },
    { differential_tests, &differential_test_count },
    { machine_size_tests, &machine_size_test_count },
};

int main(int argc, char **argv) {
    int passed = 0, failed = 0;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        for (size_t i = 0; i < *groups[g].count; i++) {
            const test_case *t = &groups[g].tests[i];
            const char *name = strncmp(t->name, "test_", 5) == 0 ? t->name + 5 : t->name;
            if (argc > 1 && !strstr(name, argv[1])) continue;   /* optional name filter */
            test_failed = false;
            test_message[0] = '\0';
            t->run();
            release_all();
            if (test_failed) {
                printf("FAIL - %s: %s\n", name, test_message);
                failed++;
            } else {
                printf("ok - %s\n", name);
                passed++;
            }
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
