#!/usr/bin/env bash
# The whole performance comparison of docs/PERFORMANCE.md, ending in one table with a verdict
# per target:
#   1. the plain C benchmark (Benchmarks/C, cc -O2 like a firmware build): the C core against a
#      next[configuration][event] table of each chart, in one process;
#   2. the comparison tool (Benchmarks, swift build -c release): the C core, the typed Swift API
#      and SCXML machines in one process, the large chart's load time, heap allocations per
#      event and memory per machine; it merges the C program's figures into its table.
# Every runner uses the charts and event cycles of scxml/bench.
#
#   scripts/bench.sh           # 11 interleaved runs of ~20 ms per runner and chart (a few minutes)
#   scripts/bench.sh --quick   # 5 runs of ~10 ms (about a minute, noisier)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

rounds=11 millis=20 load_rounds=9
if [ "${1:-}" = "--quick" ]; then rounds=5 millis=10 load_rounds=5; fi

out=Benchmarks/.build-c
mkdir -p "$out"
echo "== building the comparison tool (swift build -c release, Benchmarks/.build-bench)" >&2
(cd Benchmarks && swift build -c release --scratch-path .build-bench --product bench-compare) >&2
tool="$(cd Benchmarks && swift build -c release --scratch-path .build-bench --show-bin-path)/bench-compare"

if command -v python3 >/dev/null 2>&1; then
  scxml/bench/generate-large.py --check    # the committed large chart is what the generator makes
fi

echo "== building the C benchmark (Benchmarks/C, cc -std=c11 -O2) from the charts' tables" >&2
"$tool" codegen "$out/charts.c"
make -s -C Benchmarks/C >&2

echo "== C benchmark" >&2
"$out/bench_core" --charts scxml/bench --rounds "$rounds" --millis "$millis" --tsv "$out/c-results.tsv"
echo
"$tool" --rounds "$rounds" --millis "$millis" --load-rounds "$load_rounds" --c-results "$out/c-results.tsv"
