#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config graphviz
# Suite: the Swift package: build (a warning in this package's own sources fails it), then every
# XCTest and Swift Testing test. Prints one "N passed, M failed" line; a skipped test counts as failed.
# Arguments are passed to `swift test` (scripts/test.sh swift -- --filter ReadmeExampleTests); a
# filter that selects no test fails the suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
log="$(mktemp)"; trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee .build-log.txt
if grep -E "^/.*(Sources|Tests|Examples)/.*: warning:" .build-log.txt | grep -v "/.build/"; then
  echo "error: the build has warnings (listed above)" >&2
  exit 1
fi
status=0
swift test --skip-build "$@" 2>&1 | tee "$log" || status=$?
line=$(grep -E "Test Suite '(All|Selected) tests' (passed|failed)" -A1 "$log" | grep -E 'Executed [0-9]+ tests?' | tail -1 || true)
total=$(echo "$line" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
failed=$(echo "$line" | sed -E 's/.* ([0-9]+) failures? .*/\1/')
skipped=0
if echo "$line" | grep -qE '[0-9]+ tests? skipped'; then
  skipped=$(echo "$line" | sed -E 's/.* ([0-9]+) tests? skipped.*/\1/')
fi
[ -n "$line" ] || { echo "error: could not read XCTest's count line (no test matched?)" >&2; echo "0 passed, 1 failed"; exit 1; }
[ "$total" -gt 0 ] || { echo "error: no test ran (does the filter match a test?)" >&2; echo "0 passed, 1 failed"; exit 1; }
[ "$skipped" -eq 0 ] || echo "error: $skipped Swift tests were skipped (a skipped test counts as failed)" >&2
echo "$((total - failed - skipped)) passed, $((failed + skipped)) failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ]
