#!/usr/bin/env bash
# needs: swift gcc python3
# Suite: the C generator's fuzz harness (Tests/Fuzz/CGenerator/fuzz_codegen.py, docs/FUZZING.md)
# for a short bounded run: random charts with hostile ids, labels, texts and paths through
# `statechart generate c --trace-main`, every output compiled with -Werror (gcc, and clang when
# present) and traced against `statechart trace`. CODEGEN_FUZZ_SECONDS (default 60) bounds the
# run (no chart is started after it; a chart whose trace passes 10 s a line is not compared); the seed is fixed (CODEGEN_FUZZ_SEED, default 1) so a clean clone checks the same charts.
# A failing chart is kept under .build-fuzz/codegen-findings/. Prints "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
build_log=$(swift build --product statechart 2>&1) || { echo "$build_log" | tail -20; echo "0 passed, 1 failed"; exit 1; }
tool="$(swift build --show-bin-path)/statechart"
exec python3 Tests/Fuzz/CGenerator/fuzz_codegen.py --tool "$tool" --seconds "${CODEGEN_FUZZ_SECONDS:-60}" \
  --seed "${CODEGEN_FUZZ_SEED:-1}" --trace-timeout 10
