/* main.c - the microwave on the host: events from standard input, one per line (see
 * app_input_line), trace lines on standard output, diagnostics on standard error. */
#include "app.h"

#include <stdio.h>
#include <string.h>

static void write_stdout(const char *text, size_t length) {
    fwrite(text, 1, length, stdout);
    fflush(stdout);   /* a consumer reads line by line, as from `statechart trace` */
}

static void write_stderr(const char *text, size_t length) { fwrite(text, 1, length, stderr); }

int main(void) {
    static const app_port port = { .write = write_stdout, .log = write_stderr };
    if (!app_start(&port)) return 1;
    char input[1024];
    int status = 0;
    while (fgets(input, sizeof input, stdin)) {
        if (!strchr(input, '\n') && !feof(stdin)) {
            fprintf(stderr, "microwave: input line longer than %zu bytes\n", sizeof input - 2);
            return 1;
        }
        if (!app_input_line(input)) status = 1;
    }
    return status;
}
