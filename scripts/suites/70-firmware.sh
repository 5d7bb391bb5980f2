#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config gcc make gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
# Suite: the plain C example (Examples/C) and the same dispatch loop as Cortex-M3 firmware under
# QEMU. Checks, each counted:
#   - the committed generated files are what `statechart generate c` produces now;
#   - the example builds with `make` (cc, -Werror) and with gcc and clang;
#   - the timer table's own tests pass (make test);
#   - on the example's events, on edge.events (unknown and extended names, data, JSON escapes) and
#     on lines that are not UTF-8 it prints exactly what `statechart trace` prints;
#   - on timed.events (delayed events firing from the tick counter, a cancelled timer) it prints
#     timed.expected, worked out by hand;
#   - the firmware builds with arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -Os, runs under
#     qemu-system-arm (mps2-an385) within a timeout, exits 0 and prints what the host build prints,
#     for every event script; a failing firmware makes QEMU exit non-zero;
#   - scripts/footprint.sh runs.
# A missing toolchain or QEMU fails the suite (scripts/setup.sh installs them).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1" >&2; }
# same NAME EXPECTED ACTUAL: passes when the two files are byte for byte equal, else shows the diff.
same() {
  if cmp -s "$2" "$3"; then pass "$1"; else fail "$1"; diff "$2" "$3" | head -20 >&2; fi
}

for tool in cc gcc make arm-none-eabi-gcc arm-none-eabi-size qemu-system-arm; do
  if command -v "$tool" >/dev/null 2>&1; then pass "$tool is installed"
  else fail "$tool is not installed (run scripts/setup.sh)"; fi
done
clang=$(command -v clang || echo /opt/swift/usr/bin/clang)

echo "== building the statechart CLI (swift build --product statechart)"
if swift build --product statechart 2>&1 | tail -3; then
  statechart="$(swift build --show-bin-path)/statechart"
else
  statechart=""
fi
[ -x "$statechart" ] && pass "statechart builds" || fail "statechart does not build"

example=Examples/C
events=scxml/examples/microwave.events
timed=$example/timed.events
edge=$example/edge.events

if [ -n "$statechart" ]; then
  # The committed files are what the generator makes now (the same command as the README's).
  if "$statechart" generate c scxml/examples/microwave.scxml -o "$work/generated" --name microwave \
       2>"$work/generate.txt" && diff -r $example/generated "$work/generated" >"$work/generated.diff"; then
    pass "$example/generated is what statechart generate c produces"
  else
    fail "$example/generated differs from statechart generate c's output (regenerate: see $example/README.md)"
    cat "$work/generate.txt" >&2; head -20 "$work/generated.diff" >&2
  fi
fi

echo "== the host build (make, cc)"
make -s -C $example clean
if make -s -C $example >"$work/make.txt" 2>&1; then pass "make -C $example (cc, -Werror)"
else fail "make -C $example"; cat "$work/make.txt" >&2; fi
for compiler in gcc "$clang"; do
  if make -s -C $example clean all CC="$compiler" >"$work/make.txt" 2>&1; then pass "$example builds with $compiler -Werror"
  else fail "$example with $compiler"; cat "$work/make.txt" >&2; fi
done
host=$example/build/microwave
if make -s -C $example test >"$work/test.txt" 2>&1; then pass "timer table tests (make -C $example test)"
else fail "timer table tests"; cat "$work/test.txt" >&2; fi

# edge.events: unknown names, names extending known ones (turn.on.now), data, blank lines, and
# names that need JSON escapes (quote, backslash, tab, U+2028).
for script in "$events" "$edge" "$timed"; do
  name=$(basename "$script" .events)
  "$host" <"$script" >"$work/host-$name.txt" 2>"$work/host-$name-err.txt"; status=$?
  [ $status -eq 0 ] && [ ! -s "$work/host-$name-err.txt" ] && pass "host run on $script exits 0, no diagnostics" \
    || { fail "host run on $script exits $status"; cat "$work/host-$name-err.txt" >&2; }
  if [ "$script" = "$timed" ]; then
    same "host run on $script equals $example/timed.expected" $example/timed.expected "$work/host-$name.txt"
  elif [ -n "$statechart" ]; then
    "$statechart" trace scxml/examples/microwave.scxml <"$script" >"$work/trace-$name.txt" 2>/dev/null
    same "host run on $script equals statechart trace" "$work/trace-$name.txt" "$work/host-$name.txt"
  fi
done
# Lines that are not valid UTF-8 (a stray byte, a surrogate, an overlong '/', past U+10FFFF) are
# skipped with exit status 1, as statechart trace does; U+10FFFF itself is valid.
printf 'door.close\n\xff\xfe x\n  turn.on  \n\t\n\xed\xa0\x80\nx\xc0\xaf\nok\xf4\x8f\xbf\xbf\nbig\xf4\x90\x80\x80\n' \
  >"$work/utf8.events"
"$host" <"$work/utf8.events" >"$work/host-utf8.txt" 2>/dev/null; status=$?
if [ -n "$statechart" ]; then
  "$statechart" trace scxml/examples/microwave.scxml <"$work/utf8.events" >"$work/trace-utf8.txt" 2>/dev/null
  trace_status=$?
  same "host run equals statechart trace on lines that are not UTF-8" "$work/trace-utf8.txt" "$work/host-utf8.txt"
  [ $status -eq 1 ] && [ $trace_status -eq 1 ] && pass "both exit 1 after a line that is not UTF-8" \
    || fail "exit status after lines that are not UTF-8: host $status, trace $trace_status"
fi
printf 'door.close\n+5x\n' | "$host" >/dev/null 2>"$work/bad.txt"; status=$?
if [ $status -eq 1 ] && grep -q "'+' must be followed by milliseconds" "$work/bad.txt"; then
  pass "a malformed time line is an error"
else
  fail "a malformed time line: status $status, stderr: $(cat "$work/bad.txt")"
fi

echo "== Cortex-M3 firmware under QEMU (mps2-an385)"
for script in "$events" "$edge" "$timed"; do
  name=$(basename "$script" .events)
  expected="$work/host-$name.txt"
  if make -s -C $example/cortex-m EVENTS="$root/$script" >"$work/fw-make.txt" 2>&1; then
    pass "firmware builds for $script"
  else
    fail "firmware build for $script"; cat "$work/fw-make.txt" >&2; continue
  fi
  # `make run` is the one place the QEMU command line lives (it has a 60 s timeout).
  make -s -C $example/cortex-m run EVENTS="$root/$script" \
    >"$work/qemu-$name.txt" 2>"$work/qemu-$name-err.txt" </dev/null; status=$?
  [ $status -eq 0 ] && pass "QEMU run of $script exits 0" || { fail "QEMU run of $script exits $status"; cat "$work/qemu-$name-err.txt" >&2; }
  same "QEMU output on $script equals the host build's" "$expected" "$work/qemu-$name.txt"
  [ ! -s "$work/qemu-$name-err.txt" ] && pass "QEMU run of $script reports no error" \
    || { fail "QEMU run of $script wrote to stderr"; cat "$work/qemu-$name-err.txt" >&2; }
done

# A failing firmware must fail the run: main's status reaches QEMU's exit status through
# semihosting, and the diagnostic reaches standard error.
printf 'door.close\n+5x\n' >"$work/malformed.events"
if make -s -C $example/cortex-m EVENTS="$work/malformed.events" >"$work/fw-make.txt" 2>&1; then
  make -s -C $example/cortex-m run EVENTS="$work/malformed.events" >"$work/qemu-bad.txt" 2>"$work/qemu-bad-err.txt" </dev/null
  status=$?
  if [ $status -ne 0 ] && grep -q "'+' must be followed by milliseconds" "$work/qemu-bad-err.txt"; then
    pass "a firmware whose main fails makes QEMU exit non-zero, with its message on stderr"
  else
    fail "malformed script under QEMU: status $status, stderr: $(cat "$work/qemu-bad-err.txt")"
  fi
else
  fail "firmware build for a malformed script"; cat "$work/fw-make.txt" >&2
fi
rm -rf $example/cortex-m/build/malformed

# The footprint script keeps working (it also checks that every chart's NAME_MACHINE_SIZE covers
# sc_machine_size() on the 32-bit target); its figures are CStateCore/README.md's table.
if scripts/footprint.sh >"$work/footprint.md" 2>"$work/footprint-err.txt" &&
   [ "$(grep -c '^| [a-z-]* | [0-9]*, [0-9]* | with' "$work/footprint.md")" -eq 8 ]; then
  pass "scripts/footprint.sh measures 4 charts with and without the plan cache"
else
  fail "scripts/footprint.sh"; tail -5 "$work/footprint-err.txt" >&2
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
