#!/usr/bin/env bash
# Runs the libFuzzer harnesses (see docs/FUZZING.md) for a given time each, under AddressSanitizer
# and UndefinedBehaviorSanitizer:
#
#   scripts/fuzz.sh [--seconds N] [--seed S] [--keep-going] [--jobs J] [harness...]
#
#   tables     CStateCore: arbitrary tables through sc_chart_check and every entry point taking tables
#   dispatch   CStateCore: generated charts and events against the reference model and the
#              configuration oracle
#   scxml      StatechartSCXML: parse, validate, compile, start and a few events (null datamodel)
#   scxml-ecma the same with the ECMAScript datamodel
#
# With no harness, all four run one after the other. Each first replays the reproducers in
# CStateCore/fuzz/findings/<harness>/ or Tests/Fuzz/findings/<harness>/ (a fixed defect must
# stay fixed), then fuzzes for N seconds (default 60) from the seed corpus, which is built at
# run time from the hand-made seeds, scxml/ and the W3C suite in Tests/W3C/. Everything is
# built and kept under .build-fuzz/: the corpus grows from run to run in
# .build-fuzz/corpus/<harness>/, and a finding is written to
# .build-fuzz/findings/<harness>/ (crash-*, timeout-*, oom-*, leak-*), its log to
# .build-fuzz/<harness>.<pid>.log.
#
# --seed S gives libFuzzer its random seed (default 0: a new one each run); the smoke suite
# passes a fixed seed so that CI explores the same inputs on every clean clone (the SCXML
# harnesses run threads, so "the same" is nearly, not exactly). A finding's input is printed
# in the log (text, or base64 for the binary C harnesses), so a CI log alone reproduces it.
#
# --keep-going runs libFuzzer with -fork so it carries on after a finding and collects them all
# (for long runs); --jobs J runs J harness processes in parallel in that mode.
#
# Prints one line per harness ("harness tables: 0 findings, 123456 executions in 60 s") and
# "N passed, M failed" (a harness passes when it found nothing); exits non-zero on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=60 seed=0 keep_going=0 jobs=1 harnesses=()
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --keep-going) keep_going=1; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    tables|dispatch|scxml|scxml-ecma) harnesses+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (harnesses: tables dispatch scxml scxml-ecma)" >&2; exit 2 ;;
  esac
done
((${#harnesses[@]})) || harnesses=(tables dispatch scxml scxml-ecma)
[[ $seconds =~ ^[0-9]+$ ]] && ((seconds > 0)) || { echo "fuzz.sh: --seconds needs a positive whole number" >&2; exit 2; }
[[ $seed =~ ^[0-9]+$ ]] && ((seed < 4294967296)) || { echo "fuzz.sh: --seed needs a whole number below 2^32" >&2; exit 2; }

clang=${CLANG:-/opt/swift/usr/bin/clang}
command -v "$clang" >/dev/null || { echo "fuzz.sh: no clang at $clang (set CLANG)" >&2; exit 2; }
out=$root/.build-fuzz
mkdir -p "$out/c"
w3c=$root/Tests/W3C

# ---- building ------------------------------------------------------------------------------

# The C harnesses: the core and the harness with libFuzzer, ASan and UBSan (every UBSan report
# aborts, so it counts as a finding). -fuse-ld=lld: gold warns about ASan's local symbols.
build_c() {
  local name=$1 extra=()
  [ "$name" = dispatch ] && extra=(CStateCore/tests/chart_builder.c CStateCore/tests/reference_model.c)
  "$clang" -std=c11 -Wall -Wextra -Wpedantic -Werror -g -O1 -fuse-ld=lld \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
    -ICStateCore/include -ICStateCore -ICStateCore/tests -ICStateCore/fuzz \
    "CStateCore/fuzz/fuzz_$name.c" CStateCore/fuzz/fuzz_support.c CStateCore/sc_*.c "${extra[@]}" \
    -o "$out/c/fuzz_$name"
}

# The Swift harness: the whole package with -sanitize=fuzzer,address in its own scratch path.
# FUZZING_LIBFUZZER drops the harness's replay main(), so libFuzzer's main() is the entry point.
build_swift() {
  # After a merge that changed a struct of StatechartSCXML (SCXMLMachine.Options), the
  # incremental build kept the harness's object code copying the old layout (a SEGV in
  # Options.init in every input): the harness module is recompiled every time (one file).
  touch Tests/Fuzz/SCXMLLoader/FuzzSCXMLLoader.swift
  # A failed build must not leave an earlier harness binary to run: the status decides.
  local status=0
  swift build -c debug --scratch-path "$out/swift" --product StatechartFuzzSCXML \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING_LIBFUZZER -Xswiftc -use-ld=lld \
    -Xcc -fsanitize=fuzzer-no-link,address >"$out/swift-build.log" 2>&1 || status=$?
  grep -E "error|warning: |Build complete" "$out/swift-build.log" | grep -v "^\[" || true
  [ "$status" -eq 0 ] && [ -x "$out/swift/debug/StatechartFuzzSCXML" ] || { echo "fuzz.sh: the Swift harness did not build" >&2; return 1; }
}

# ---- seed corpora --------------------------------------------------------------------------

seed_dir() { echo "$out/seeds/$1"; }

make_seeds() {
  local name=$1 dir
  dir=$(seed_dir "$name")
  rm -rf "$dir"; mkdir -p "$dir"
  case $name in
    tables)
      "$clang" -std=c11 -Wall -Wextra -Wpedantic -Werror -g -DFUZZ_WRITE_SEEDS \
        -ICStateCore/include -ICStateCore -ICStateCore/tests -ICStateCore/fuzz \
        CStateCore/fuzz/fuzz_tables.c CStateCore/fuzz/fuzz_support.c CStateCore/tests/chart_builder.c \
        CStateCore/sc_*.c -o "$out/c/fuzz_tables_seeds"
      "$out/c/fuzz_tables_seeds" "$dir" >/dev/null ;;
    dispatch)
      # Byte strings are charts here: a few fixed ones; the fuzzer finds the rest quickly.
      printf '\x00' > "$dir/model-empty"; printf '\x01' > "$dir/wild-empty"
      printf '\x00\x02\x03\x01\x04\x02\x00\x07\x05\x01\x02\x03\x00\x01\x02\x03\x04\x05' > "$dir/model-small"
      printf '\x01\x02\x0b\x04\x00\x03\x06\x02\x07\x01\x02\x05\x03\x02\x01\x00\x04\x02\x01\x06' > "$dir/wild-small" ;;
    scxml|scxml-ecma)
      cp Tests/Fuzz/seeds/*.scxml "$dir/"
      find scxml -name '*.scxml' -size -64k -exec cp {} "$dir/" \;
      local flavour=null; [ "$name" = scxml-ecma ] && flavour=ecma
      for f in "$w3c/$flavour"/*.scxml; do cp "$f" "$dir/w3c-$flavour-$(basename "$f")"; done ;;
  esac
}

findings_dir() {
  case $1 in
    tables|dispatch) echo "CStateCore/fuzz/findings/fuzz_$1" ;;
    *) echo "Tests/Fuzz/findings/$1" ;;
  esac
}

# ---- running -------------------------------------------------------------------------------

binary() {
  case $1 in
    tables|dispatch) echo "$out/c/fuzz_$1" ;;
    scxml) echo "$out/swift/debug/StatechartFuzzSCXML" ;;
    scxml-ecma) echo "$out/swift/debug/StatechartFuzzSCXML" ;;
  esac
}

passed=0 failed=0
swift_built=0
for name in "${harnesses[@]}"; do
  echo "== fuzz $name (${seconds} s)"
  case $name in
    tables|dispatch) build_c "$name" ;;
    scxml|scxml-ecma) ((swift_built)) || { build_swift; swift_built=1; } ;;
  esac
  make_seeds "$name"
  bin=$(binary "$name")
  env_vars=(ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=1
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
  [ "$name" = scxml-ecma ] && env_vars+=(STATECHART_FUZZ_DATAMODEL=ecmascript)
  [ "$name" = scxml ] && env_vars+=(STATECHART_FUZZ_DATAMODEL=null)
  corpus=$out/corpus/$name artifacts=$out/findings/$name
  mkdir -p "$corpus" "$artifacts"
  log=$out/$name.$$.log                 # per run: a smoke run may overlap a long one

  # Known reproducers first: each must now run clean.
  repro_failed=0
  fdir=$(findings_dir "$name")
  if compgen -G "$fdir/*" >/dev/null; then
    for f in "$fdir"/*; do
      [ -f "$f" ] || continue
      [[ $f == *.md ]] && continue
      if ! env "${env_vars[@]}" "$bin" -timeout=10 -rss_limit_mb=4096 "$f" >"$log.repro" 2>&1; then
        echo "fuzz $name: reproducer $f still fails:"; grep -E "FINDING|ERROR|SUMMARY|#[0-9] " "$log.repro" | head -12
        repro_failed=$((repro_failed + 1))
      fi
    done
  fi

  # Inputs up to 4 KiB describe charts far larger than the harnesses keep; documents up to 64 KiB.
  max_len=4096; [[ $name == scxml* ]] && max_len=65536
  flags=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
         -artifact_prefix="$artifacts/" -max_len=$max_len -seed="$seed")
  # Invoked sessions run on their own queues and may outlive the input that started them, so
  # libFuzzer's leak check after each input reported memory still in use by one (once, in a
  # W3C autoforward test; not reproducible alone). For the SCXML harnesses leaks are checked
  # only when the process exits (LeakSanitizer stays on, also when replaying reproducers).
  [[ $name == scxml* ]] && flags+=(-detect_leaks=0)
  ((keep_going)) && flags+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  before=$(find "$artifacts" -type f | wc -l)
  touch "$log.start"
  start=$SECONDS status=0
  env "${env_vars[@]}" "$bin" "${flags[@]}" "$corpus" "$(seed_dir "$name")" >"$log" 2>&1 || status=$?
  elapsed=$((SECONDS - start))
  after=$(find "$artifacts" -type f | wc -l)
  execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  new=$((after - before))
  if [ "$status" -ne 0 ] && [ "$new" -eq 0 ]; then new=1; fi
  total=$((new + repro_failed))
  echo "harness $name: $total findings, ${execs:-0} executions in $elapsed s (corpus $(find "$corpus" -type f | wc -l) inputs)"
  if ((total)); then
    grep -E "FINDING|ERROR: |SUMMARY|#[0-9]+ 0x.* in (sc_|fuzz|\\$)|Test unit written" "$log" | head -30 || true
    echo "fuzz $name: see $log and $artifacts/"
    # The inputs themselves, so that a CI log alone reproduces a finding.
    find "$artifacts" -type f -newer "$log.start" | head -3 | while read -r f; do
      echo "---- $(basename "$f") ($(wc -c <"$f") bytes):"
      case $name in
        scxml*) head -c 4096 "$f"; echo ;;
        *) head -c 4096 "$f" | base64 ;;
      esac
      echo "----"
    done
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "$passed passed, $failed failed"
((failed == 0))
