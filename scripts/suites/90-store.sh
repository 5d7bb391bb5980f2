#!/usr/bin/env bash
# Suite: durable sessions (StatechartStore on SQLite and PostgreSQL): starts a private
# PostgreSQL server on 127.0.0.1 (scripts/postgres.sh), runs StatechartStoreTests (the crash
# tests among them: worker processes killed with SIGKILL and restarted), and stops the server
# at the end, also on failure. Prints one "N passed, M failed" line.
# needs: postgresql libsqlite3-dev swift duktape
set -euo pipefail
cd "$(dirname "$0")/../.."
export STATECHART_PG_DIR="${STATECHART_PG_DIR:-$(mktemp -d /tmp/statechart-postgres-XXXXXX)}"
log="$(mktemp)"
trap 'scripts/postgres.sh stop; rm -f "$log"' EXIT
started="$(scripts/postgres.sh start)"    # a failed start stops the script (set -e)
eval "$started"
swift build --build-tests 2>&1 | tee .build-log.txt
if grep -E "^/.*(Sources|Tests)/(StatechartStore|StoreWorker)[^/]*/.*: warning:" .build-log.txt | grep -v "/.build/"; then
  echo "error: the store targets have warnings (listed above)" >&2
  exit 1
fi
status=0
swift test --skip-build --filter StatechartStoreTests 2>&1 | tee "$log" || status=$?
line=$(grep -E "Test Suite '(All tests|Selected tests)' (passed|failed)" -A1 "$log" | grep -E 'Executed [0-9]+ tests' | tail -1)
total=$(echo "$line" | sed -E 's/.*Executed ([0-9]+) tests.*/\1/')
failed=$(echo "$line" | sed -E 's/.* ([0-9]+) failures? .*/\1/')
[ -n "$total" ] || { echo "error: could not read XCTest's count line" >&2; exit 1; }
echo "$((total - failed)) passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
