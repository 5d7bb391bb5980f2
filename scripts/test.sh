#!/usr/bin/env bash
# The whole test suite: C core tests (plain C, no Swift), warning checks, Swift tests.
# Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT

echo "== C core: tests and warnings (gcc/clang, -Wall -Wextra -Wpedantic -Werror)"
make -C CStateCore test warnings 2>&1 | tee "$log_dir/c.txt"
echo "== C: the Swift runtime's machine lock (Sources/CMachineLock), plain and under ThreadSanitizer"
make -C Tests/CMachineLockTests test 2>&1 | tee "$log_dir/lock.txt"
make -C Tests/CMachineLockTests test-tsan > "$log_dir/lock-tsan.txt" 2>&1 || { cat "$log_dir/lock-tsan.txt"; exit 1; }
echo "ThreadSanitizer: $(grep -E "^[0-9]+ passed, [0-9]+ failed$" "$log_dir/lock-tsan.txt" | tail -1)"

echo "== Swift: build (warnings in this package's sources fail the build)"
swift build --build-tests 2>&1 | tee .build-log.txt
if grep -E "^/.*(Sources|Tests|Examples)/.*: warning:" .build-log.txt | grep -v "/.build/"; then
  echo "error: the build has warnings (listed above)" >&2
  exit 1
fi

echo "== Swift: tests"
status=0
swift test --skip-build 2>&1 | tee "$log_dir/swift.txt" || status=$?

# One closing line over both runners: "N passed, M failed".
c_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log_dir/c.txt" | tail -1)
c_passed=${c_line%% passed*}; c_failed=${c_line#*, }; c_failed=${c_failed%% failed*}
lock_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log_dir/lock.txt" | tail -1)
lock_passed=${lock_line%% passed*}; lock_failed=${lock_line#*, }; lock_failed=${lock_failed%% failed*}
c_passed=$((c_passed + lock_passed)); c_failed=$((c_failed + lock_failed))
swift_line=$(grep -E "Test Suite 'All tests' (passed|failed)" -A1 "$log_dir/swift.txt" | grep -E 'Executed [0-9]+ tests' | tail -1)
swift_total=$(echo "$swift_line" | sed -E 's/.*Executed ([0-9]+) tests.*/\1/')
swift_failed=$(echo "$swift_line" | sed -E 's/.* ([0-9]+) failures? .*/\1/')
# A skipped test is not a pass: XCTest reports "with K tests skipped and M failures".
swift_skipped=0
if echo "$swift_line" | grep -qE '[0-9]+ tests? skipped'; then
  swift_skipped=$(echo "$swift_line" | sed -E 's/.* ([0-9]+) tests? skipped.*/\1/')
fi
if [ -z "$swift_total" ] || [ -z "$c_passed" ]; then
  echo "error: could not read the test counts" >&2
  exit 1
fi
swift_passed=$((swift_total - swift_failed - swift_skipped))
echo "test.sh: C (core and machine lock) $c_passed passed, $c_failed failed; Swift $swift_passed passed, $swift_failed failed, $swift_skipped skipped"
echo "$((c_passed + swift_passed)) passed, $((c_failed + swift_failed + swift_skipped)) failed"
if [ "$status" -ne 0 ] || [ "$swift_failed" -ne 0 ] || [ "$c_failed" -ne 0 ] || [ "$swift_skipped" -ne 0 ]; then
  [ "$swift_skipped" -ne 0 ] && echo "error: $swift_skipped Swift tests were skipped (a skipped test counts as failed)" >&2
  exit 1
fi
