#!/usr/bin/env bash
# The W3C SCXML IRP suite through `statechart run FILE --timeout 10`, one process per test file
# (`statechart conformance` runs the same tests inside one process; this checks the command a
# user runs). The tests are the manifest's automatic ones (manual = no, status = current: 191),
# read from manifest.tsv as `conformance` reads it: the ECMAScript files, or the null-datamodel
# file for a test that has no ECMAScript form (436). A test passes when every one of its files
# (403 has three) makes `run` print {"finished": true, "configuration": ["pass"]} and exit 0.
#
# Prints "PASS testN" or "FAIL testN: <what run printed>" per test in manifest order, then
# "N passed, M failed"; exits non-zero when any failed.
# Usage: scripts/w3c-run.sh [SUITE_DIR]   (default: Tests/W3C, see its README.md)
# Environment: STATECHART (the tool; default .build/debug/statechart, built if missing),
#              JOBS (tests run at once; default 8: most of a test's time is waiting for its delays).
set -euo pipefail
cd "$(dirname "$0")/.."
suite=${1:-Tests/W3C}
tool=${STATECHART:-.build/debug/statechart}
[ -x "$tool" ] || swift build --product statechart >/dev/null
results=$(mktemp -d); trap 'rm -rf "$results"' EXIT

# One line per automatic test: "ID FOLDER FILE...", in manifest order.
awk -F'\t' 'NR > 1 && $7 == "current" && $3 == "no" {
  folder = ($10 != "") ? "ecma" : "null"; files = ($10 != "") ? $10 : $11; list = ""
  n = split(files, names, " ")
  for (i = 1; i <= n; i++) if (names[i] ~ "^test" $1 "[a-z]?\\.scxml$") list = list " " names[i]
  print $1, folder list
}' "$suite/manifest.tsv" > "$results/tests"

run_test() {   # ID FOLDER FILE...
  local id=$1 folder=$2 output status verdict="PASS test$id"; shift 2
  for file in "$@"; do
    status=0
    output=$("$tool" run "$suite/$folder/$file" --timeout 10 2>/dev/null) || status=$?
    if [ "$status" -ne 0 ] || [ "$output" != '{"finished": true, "configuration": ["pass"]}' ]; then
      verdict="FAIL test$id: $file exit $status: $output"
    fi
  done
  echo "$verdict" > "$results/$id"
}
export -f run_test; export tool suite results
xargs -P "${JOBS:-8}" -L 1 bash -c 'run_test "$@"' _ < "$results/tests"

passed=0 failed=0
while read -r id _; do
  cat "$results/$id"
  if grep -q '^PASS' "$results/$id"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done < "$results/tests"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
