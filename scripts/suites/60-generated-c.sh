#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config gcc gcc-arm-none-eabi libnewlib-arm-none-eabi
# Suite: `statechart generate c --trace-main` against `statechart trace`. For every chart in
# scxml/examples, scxml/bench, scxml/fixtures and the W3C null-datamodel tests that the
# generator accepts:
# build the generated C with gcc and clang (-std=c11 -Wall -Wextra -Wpedantic -Werror), the core and
# the chart's files with the chart's own switches (-include NAME_config.h: its minimal
# configuration), and the trace program's firmware build (-DSC_TRACE_FIRMWARE), which must print
# what the host build prints with --firmware; compile it for a Cortex-M3 with arm-none-eabi-gcc
# (-Os -c, the firmware build), run it on the
# chart's .events file (the
# W3C tests get no input besides start-up), and compare its standard output with
# `statechart trace` on the same input, byte for byte. Charts the generator refuses are listed
# with its reason; a refusal of a chart expected to generate is a failure.
# The trace program checks that NAME_MACHINE_SIZE (SC_MACHINE_SIZE) is sc_machine_size() in that
# build, so every chart also checks the size macro.
#   scxml/bench/large.scxml is included (its C build takes a few seconds).
# needs: gcc clang gcc-arm-none-eabi swift
set -euo pipefail
cd "$(dirname "$0")/../.."
build_log=$(swift build --product statechart 2>&1) || { echo "$build_log" | tail -20; echo "generated-c: 0 passed, 1 failed"; exit 1; }
tool="$(swift build --show-bin-path)/statechart"
[ -x "$tool" ] || { echo "no $tool after the build"; echo "generated-c: 0 passed, 1 failed"; exit 1; }
clang=/opt/swift/usr/bin/clang
[ -x "$clang" ] || clang=clang
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
flags=(-std=c11 -Wall -Wextra -Wpedantic -Werror -I CStateCore/include)
passed=0 failed=0 refused=()

# Documents the generator must refuse (content with no C form), with a word of the reason.
declare -A expected_refusals=([invalid]="an invalid document" [ecmascript]="the ECMAScript datamodel" [w3clike]="the ECMAScript datamodel")

# The core, compiled once per compiler and configuration (charts with the same switches share it).
core_for() {   # core_for COMPILER CONFIG-FILE: prints the folder of the core's objects
  local cc=$1 config=$2 key dir
  key=$(grep '^#define SC_CONFIG_' "$config" | md5sum | cut -c1-12)
  dir="$work/core-$(basename "$cc")-$key"
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir"
    for f in CStateCore/*.c; do
      "$cc" "${flags[@]}" -O1 -include "$config" -c "$f" -o "$dir/$(basename "$f" .c).o"
    done
  fi
  echo "$dir"
}

check() {   # check FILE EVENTS-FILE-or-empty
  local file=$1 events=$2 name dir out
  name=$(basename "$file" .scxml)
  dir="$work/$name"
  if ! out=$("$tool" generate c "$file" -o "$dir" --trace-main 2>&1); then
    refused+=("$file: $(echo "$out" | head -1)")
    if [ -n "${expected_refusals[$name]:-}" ]; then passed=$((passed + 1)); else
      echo "FAIL $file: refused: $out"; failed=$((failed + 1)); fi
    return
  fi
  if [ -n "${expected_refusals[$name]:-}" ]; then
    echo "FAIL $file: expected a refusal (${expected_refusals[$name]})"; failed=$((failed + 1)); return
  fi
  [ -n "$events" ] || events=/dev/null
  "$tool" trace "$file" < "$events" > "$dir/expected.txt" 2>/dev/null || true
  local ok=1 cc config core
  config=$(ls "$dir"/*_config.h)
  for cc in gcc "$clang"; do
    core=$(core_for "$cc" "$config")
    if ! "$cc" "${flags[@]}" -O1 -include "$config" "$dir"/*.c "$core"/*.o -o "$dir/trace-$(basename "$cc")" 2> "$dir/cc.txt"; then
      echo "FAIL $file: $cc: $(head -5 "$dir/cc.txt")"; ok=0; continue
    fi
    "$dir/trace-$(basename "$cc")" < "$events" > "$dir/actual.txt" 2>/dev/null || true
    if ! cmp -s "$dir/expected.txt" "$dir/actual.txt"; then
      echo "FAIL $file: $cc build's output differs from statechart trace:"
      diff "$dir/expected.txt" "$dir/actual.txt" | head -10
      ok=0
    fi
  done
  # The trace program's firmware build (-DSC_TRACE_FIRMWARE: the static machine of NAME_options
  # only) prints what the host build prints with --firmware.
  core=$(core_for gcc "$config")
  if gcc "${flags[@]}" -O1 -DSC_TRACE_FIRMWARE -include "$config" "$dir"/*.c "$core"/*.o -o "$dir/trace-firmware" 2> "$dir/cc.txt"; then
    "$dir/trace-gcc" --firmware < "$events" > "$dir/firmware-expected.txt" 2>/dev/null || true
    "$dir/trace-firmware" < "$events" > "$dir/firmware-actual.txt" 2>/dev/null || true
    if ! cmp -s "$dir/firmware-expected.txt" "$dir/firmware-actual.txt"; then
      echo "FAIL $file: the -DSC_TRACE_FIRMWARE build's output differs from --firmware's:"
      diff "$dir/firmware-expected.txt" "$dir/firmware-actual.txt" | head -10
      ok=0
    fi
  else
    echo "FAIL $file: gcc -DSC_TRACE_FIRMWARE: $(head -5 "$dir/cc.txt")"; ok=0
  fi
  local c
  for c in "$dir"/*.c; do
    if ! arm-none-eabi-gcc "${flags[@]}" -include "$config" -DSC_TRACE_FIRMWARE -mcpu=cortex-m3 -mthumb -Os -c "$c" -o "$dir/arm.o" 2> "$dir/arm.txt"; then
      echo "FAIL $file: arm-none-eabi-gcc $(basename "$c"): $(head -5 "$dir/arm.txt")"; ok=0
    fi
  done
  if ((ok)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

for file in scxml/examples/*.scxml scxml/bench/*.scxml scxml/fixtures/*.scxml; do
  events="${file%.scxml}.events"
  [ -f "$events" ] || events=""
  check "$file" "$events"
done
for file in Tests/W3C/null/*.scxml; do
  check "$file" ""
done

# --firmware traces the machine made with NAME_options (8 internal slots that do not grow).
# many-raises raises 70 ticks and "last" at start-up: 8 ticks fit (none enables anything), the
# rest and "last" are refused, so start-up ends in a, and sc_machine_start's SC_ERR_QUEUE_FULL is
# printed on standard error; the machine goes on: the input "last" takes it to done.
firmware_check() {
  local dir="$work/many-raises" cc out err
  printf '%s\n' '{"event": null, "configuration": ["a"]}' '{"event": "last", "configuration": ["done"]}' > "$work/firmware-expected.txt"
  echo "trace: event queue is full: an event raised or sent in this macrostep was not queued" > "$work/firmware-expected-err.txt"
  for cc in gcc "$clang"; do
    if ! echo last | "$dir/trace-$(basename "$cc")" --firmware > "$work/firmware-out.txt" 2> "$work/firmware-err.txt"; then
      echo "FAIL many-raises --firmware ($cc): exit status $?"; failed=$((failed + 1)); continue
    fi
    if cmp -s "$work/firmware-out.txt" "$work/firmware-expected.txt" && cmp -s "$work/firmware-err.txt" "$work/firmware-expected-err.txt"; then
      passed=$((passed + 1))
    else
      echo "FAIL many-raises --firmware ($cc):"; cat "$work/firmware-out.txt" "$work/firmware-err.txt" | head -5
      failed=$((failed + 1))
    fi
  done
}
firmware_check

# NAME.c stops a build that leaves out a feature the chart needs (door.scxml: history, parallel
# states, guards, content; traffic-light.scxml: a final state), naming the switch; its own
# configuration compiles (above).
for refusal in door/door:SC_CONFIG_NO_HISTORY door/door:SC_CONFIG_NO_PARALLEL door/door:SC_CONFIG_NO_GUARDS \
               door/door:SC_CONFIG_NO_CONTENT traffic-light/traffic_light:SC_CONFIG_NO_FINAL; do
  IFS=: read -r path switch <<<"$refusal"
  name=$(basename "$path")
  if gcc "${flags[@]}" -D$switch=1 -c "$work/$path.c" -o "$work/$name-refused.o" 2>"$work/refused.txt"; then
    echo "FAIL $name.c compiled with $switch=1"; failed=$((failed + 1))
  elif grep -q "error: #error \"$name: the chart has [a-z ,-]*; build without $switch (see ${name}_config.h)\"" "$work/refused.txt"; then
    passed=$((passed + 1))
  else
    echo "FAIL $name.c with $switch=1: $(head -3 "$work/refused.txt")"; failed=$((failed + 1))
  fi
done

# In() of a state that does not exist: validate and generate refuse it (exit status 2), naming
# the place, the id and the known ids.
printf '%s\n' '<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">' \
  '  <state id="closed"><transition event="e" cond="In('"'"'zz'"'"')" target="closed"/></state>' '</scxml>' >"$work/zz.scxml"
expected_zz="$work/zz.scxml:2:22: error: cond=\"In('zz')\": In() of 'zz' does not name a state; known ids include 'closed'"
for command in validate "generate c"; do
  # shellcheck disable=SC2086
  status=0; "$tool" $command "$work/zz.scxml" $([ "$command" = validate ] || echo "-o $work/zz") >"$work/zz.out" 2>"$work/zz.err" || status=$?
  # (validate prints its diagnostics on standard output until the CLI convention moves them.)
  if [ $status -eq 2 ] && [ "$(cat "$work/zz.out" "$work/zz.err")" = "$expected_zz" ]; then passed=$((passed + 1)); else
    echo "FAIL statechart $command on In('zz'): status $status, output: $(cat "$work/zz.out" "$work/zz.err")"; failed=$((failed + 1)); fi
done

if ((${#refused[@]})); then
  echo "refused by the generator:"
  printf '  %s\n' "${refused[@]}"
fi
echo "generated-c: $passed passed, $failed failed"
((failed == 0))
