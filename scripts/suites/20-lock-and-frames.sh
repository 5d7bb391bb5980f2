#!/usr/bin/env bash
# needs: gcc make swift
# Suite: the C tests of the Swift runtime's two C targets, the machine lock (Sources/CMachineLock)
# and the callback frames (Sources/CCallbackFrame), plain and under ThreadSanitizer. Prints one
# "N passed, M failed" line for both runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
log="$(mktemp)"; trap 'rm -f "$log"' EXIT
make -C Tests/CLockAndFrameTests test 2>&1 | tee "$log"
# Each test program prints its own line; add them up.
sum() { awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { printf "%d passed, %d failed\n", p, f }' "$1"; }
plain=$(sum "$log")
make -C Tests/CLockAndFrameTests test-tsan > "$log" 2>&1 || { cat "$log"; exit 1; }
tsan=$(sum "$log")
echo "ThreadSanitizer: $tsan"
p=$(( ${plain%% passed*} + ${tsan%% passed*} ))
f1=${plain#*, }; f2=${tsan#*, }
echo "$p passed, $(( ${f1%% failed*} + ${f2%% failed*} )) failed"
