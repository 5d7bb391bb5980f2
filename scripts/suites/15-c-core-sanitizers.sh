#!/usr/bin/env bash
# needs: gcc make swift
# Suite: the C core's tests under AddressSanitizer + UndefinedBehaviorSanitizer (any report
# aborts the run), built with gcc and with clang, each with the plan cache and without it
# (make -C CStateCore test-sanitize). The closing line adds up the four runs.
set -uo pipefail
cd "$(dirname "$0")/../.."
clang=$(command -v clang || echo /opt/swift/usr/bin/clang)
passed=0 failed=0 status=0
for compiler in gcc "$clang"; do
  echo "== make -C CStateCore test-sanitize CC=$compiler"
  log=$(mktemp)
  make -C CStateCore test-sanitize CC="$compiler" 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  runs=0
  while read -r p f; do
    passed=$((passed + p)); failed=$((failed + f)); runs=$((runs + 1))
  done < <(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log")
  rm -f "$log"
  # Two runs per compiler (with and without the plan cache); fewer means a build or a run broke.
  if [ "$runs" -ne 2 ]; then echo "error: $compiler: $runs test runs finished, expected 2" >&2; status=1; failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
exit $status
