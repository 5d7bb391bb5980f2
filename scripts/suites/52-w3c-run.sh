#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config
# Suite: the W3C IRP suite's automatic tests through `statechart run FILE --timeout 10`, one
# process per test file, as a user runs them (scripts/w3c-run.sh; about 30 s). All 191 must
# pass: fewer tests found (a changed manifest or folder) fails the suite too.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product statechart >/dev/null
status=0
output=$(scripts/w3c-run.sh) || status=$?
echo "$output"
last=$(echo "$output" | tail -1)
if [ "$last" != "191 passed, 0 failed" ]; then
  echo "error: expected 191 passed, 0 failed; got '$last'" >&2
  status=1
fi
exit "$status"
