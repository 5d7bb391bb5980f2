#!/usr/bin/env bash
# The whole performance comparison of docs/PERFORMANCE.md, ending in one table with a verdict
# per target:
#   1. the plain C benchmark (Benchmarks/C, cc -O2 like a firmware build): the C core against a
#      next[configuration][event] table of each chart, in one process;
#   2. the comparison tool (Benchmarks, swift build -c release): the C core, the typed Swift API
#      and SCXML machines in one process, the large chart's load time, heap allocations per
#      event and memory per machine, the libxml2 baseline of the load; it merges the C program's
#      figures into its table;
#   3. a million typed turnstile machines created and started (bench-compare million), in a
#      process of its own so its peak RSS is that work's alone.
# Runs are timed in each thread's CPU time (other processes' share of this shared machine is not
# counted); --wall times them with the monotonic clock instead.
# Every runner uses the charts and event cycles of scxml/bench.
#
#   scripts/bench.sh           # 11 interleaved runs of ~20 ms per runner and chart (a few minutes)
#   scripts/bench.sh --quick   # 5 runs of ~10 ms (about a minute, noisier)
#   scripts/bench.sh [--quick] --wall   # wall-clock time instead of thread CPU time
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

rounds=11 millis=20 load_rounds=9 wall=()
for argument in "$@"; do
  case "$argument" in
    --quick) rounds=5 millis=10 load_rounds=5 ;;
    --wall) wall=(--wall) ;;
    *) echo "usage: scripts/bench.sh [--quick] [--wall]" >&2; exit 2 ;;
  esac
done

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
"$out/bench_core" --charts scxml/bench --rounds "$rounds" --millis "$millis" ${wall[@]+"${wall[@]}"} --tsv "$out/c-results.tsv"
echo
echo "== a million typed turnstile machines" >&2
"$tool" million 1000000 "$out/million.tsv" >&2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$tool" --rounds "$rounds" --millis "$millis" --load-rounds "$load_rounds" ${wall[@]+"${wall[@]}"} \
  --c-results "$out/c-results.tsv" --results "$out/million.tsv"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

# ECMAScript datamodel against Qt SCXML (issue 29): the ECMAScript chart, the W3C-like chart and
# the null turnstile on the SCXML machine (Benchmarks/Sources/bench-ecmascript) and, when Debian's
# qt6-scxml-dev is installed, on QScxmlStateMachine::fromFile (Benchmarks/Qt); each chart and
# runner in a process of its own, so resident bytes per session are that chart's alone.
echo "== ECMAScript datamodel against Qt SCXML" >&2
(cd Benchmarks && swift build -c release --scratch-path .build-bench --product bench-ecmascript) >&2
ecmascript_tool="$(cd Benchmarks && swift build -c release --scratch-path .build-bench --show-bin-path)/bench-ecmascript"
qt_tool=""
if pkg-config --exists Qt6Scxml 2>/dev/null; then
  make -s -C Benchmarks/Qt OUT="$PWD/$out" >&2 && qt_tool="$out/qt_bench"
else
  echo "   (Qt SCXML not installed: apt-get install -y qt6-scxml-dev adds its figures)" >&2
fi
: >"$out/ecmascript.tsv"
for chart in ecmascript w3clike turnstile; do
  "$ecmascript_tool" "scxml/bench/$chart.scxml" --rounds "$rounds" --millis "$millis" >>"$out/ecmascript.tsv"
  if [ -n "$qt_tool" ]; then
    "$qt_tool" "scxml/bench/$chart.scxml" --rounds "$rounds" --millis "$millis" >>"$out/ecmascript.tsv"
  fi
done
awk -F'\t' -f scripts/bench-ecmascript-table.awk "$out/ecmascript.tsv"
