#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config
# Suite: each libFuzzer harness (CStateCore tables and dispatch, the SCXML loader with the null
# and the ECMAScript datamodel) replays its known reproducers, then fuzzes for a short smoke
# period (FUZZ_SMOKE_SECONDS, default 60) under AddressSanitizer and UndefinedBehaviorSanitizer.
# Any finding fails the suite. Prints "N passed, M failed", one per harness (scripts/fuzz.sh).
# The seed is fixed (FUZZ_SEED, default 1) so that a clean clone explores the same inputs on
# every CI run; long runs (scripts/fuzz.sh without --seed) take a new seed each time.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec scripts/fuzz.sh --seconds "${FUZZ_SMOKE_SECONDS:-60}" --seed "${FUZZ_SEED:-1}"
