#!/usr/bin/env bash
# needs: gcc make swift
# Suite: the C core's tests, with the plan cache and without it, linked against the library the
# README's build line makes, and with 8-, 16- and 32-bit bit-array words (make -C CStateCore
# test), and its warning checks (gcc and clang,
# both builds, -Wall -Wextra -Wpedantic -Werror). The closing line adds up the three test runs.
set -uo pipefail
cd "$(dirname "$0")/../.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make -C CStateCore test warnings 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=0 failed=0 runs=0
while read -r p f; do
  passed=$((passed + p)); failed=$((failed + f)); runs=$((runs + 1))
done < <(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log")
# test-plan, test-no-plan, test-readme and test-words' three word widths each print one count;
# fewer means a build or run broke.
if [ "$runs" -ne 6 ]; then echo "error: $runs test runs finished, expected 6" >&2; status=1; failed=$((failed + 1)); fi
echo "$passed passed, $failed failed"
exit "$status"
