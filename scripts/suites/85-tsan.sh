#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config
# Suite: the Swift tests that run machines on several threads (concurrent senders, machines
# messaging each other, delayed events on the real clock, invoked sessions, the BasicHTTP
# server, the 8-thread stress tests) under ThreadSanitizer, built in their own scratch path
# .build-tsan. The stress tests run with STATECHART_STRESS_EVENTS events per thread (default
# here 5,000: ThreadSanitizer makes each event 5-15 times slower). Any ThreadSanitizer report
# fails the suite. Prints "N passed, M failed" (the tests XCTest ran).
set -euo pipefail
cd "$(dirname "$0")/../.."
log="$(mktemp)"; trap 'rm -f "$log"' EXIT
export STATECHART_STRESS_EVENTS=${STATECHART_STRESS_EVENTS:-5000}
# scripts/tsan-suppressions.txt: Synchronization.Mutex's uninstrumented slow path (see there).
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan-suppressions.txt${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
filter='ConcurrencyTests|LocalStateMachineTests|CrossMachineTests|StressTests|DelayedEventTests|RunToCompletionTests|BareEventDispatchTests|InvokeTests|BasicHTTPTests|LifecycleTests'

# A failed build must fail the suite: the old test binary would otherwise run and pass.
build_log="$(mktemp)"; trap 'rm -f "$log" "$build_log"' EXIT
if ! swift build --build-tests --sanitize=thread --scratch-path .build-tsan >"$build_log" 2>&1; then
  grep -E "error|warning: " "$build_log" | grep -v "^\[" | tail -40 >&2 || true
  echo "error: the ThreadSanitizer build failed (above)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
grep -E "warning: |Build complete" "$build_log" | grep -v "^\[" || true
status=0
swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "$filter" 2>&1 | tee "$log" || status=$?
races=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
line=$(grep -E 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$log" | tail -1 || true)
if [ -z "$line" ]; then
  echo "error: no XCTest count line (ThreadSanitizer stops the process at its first report)" >&2
  echo "0 passed, $((races > 0 ? races : 1)) failed"
  exit 1
fi
total=$(echo "$line" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
failed=$(echo "$line" | sed -E 's/.*with ([0-9]+) failures?.*/\1/')
skipped=0
if echo "$line" | grep -qE '[0-9]+ tests? skipped'; then
  skipped=$(echo "$line" | sed -E 's/.* ([0-9]+) tests? skipped.*/\1/')
fi
((races == 0)) || echo "error: $races ThreadSanitizer reports (above)" >&2
((skipped == 0)) || echo "error: $skipped tests were skipped (a skipped test counts as failed)" >&2
echo "$((total - failed - skipped)) passed, $((failed + skipped + races)) failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ] && [ "$races" -eq 0 ]
