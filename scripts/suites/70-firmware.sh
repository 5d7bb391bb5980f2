#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config gcc make gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
# Suite: the plain C example (Examples/C) and the same dispatch loop as firmware under QEMU, on a
# Cortex-M3 and a Cortex-M0. Checks, each counted:
#   - the committed generated files are what `statechart generate c` produces now;
#   - the example builds with `make` (cc, -Werror) and with gcc and clang;
#   - the timer table's own tests pass (make test);
#   - on the example's events, on edge.events (unknown and extended names, data, JSON escapes) and
#     on lines that are not UTF-8 it prints exactly what `statechart trace` prints;
#   - on timed.events (delayed events firing from the tick counter, a cancelled timer) it prints
#     timed.expected, worked out by hand;
#   - the firmware builds with arm-none-eabi-gcc -Os for each board, the Cortex-M3 `mps2-an385`
#     (-mcpu=cortex-m3) and the Cortex-M0 `microbit` (-mcpu=cortex-m0, ARMv6-M), runs under
#     qemu-system-arm within a timeout, exits 0 and prints what the host build prints, for every
#     event script; a failing firmware makes QEMU exit non-zero;
#   - no heap: CStateCore/README.md's firmware build line, run as written, makes a library whose
#     only object referencing malloc/free is sc_machine_alloc.o, and the firmware linked against it
#     (newlib-nano, no --gc-sections) has no malloc, free or _sbrk and runs like the others;
#   - scripts/footprint.sh prints its tables.
# A missing toolchain or QEMU fails the suite (scripts/setup.sh installs them).
# needs: gcc clang make gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm swift
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

boards=(mps2-an385 microbit)
for board in "${boards[@]}"; do
  echo "== firmware under QEMU ($board)"
  for script in "$events" "$edge" "$timed"; do
    name=$(basename "$script" .events)
    expected="$work/host-$name.txt"
    if make -s -C $example/cortex-m BOARD=$board EVENTS="$root/$script" >"$work/fw-make.txt" 2>&1; then
      pass "$board firmware builds for $script"
    else
      fail "$board firmware build for $script"; cat "$work/fw-make.txt" >&2; continue
    fi
    # `make run` is the one place the QEMU command line lives (it has a 60 s timeout).
    make -s -C $example/cortex-m run BOARD=$board EVENTS="$root/$script" \
      >"$work/qemu-$name.txt" 2>"$work/qemu-$name-err.txt" </dev/null; status=$?
    [ $status -eq 0 ] && pass "$board QEMU run of $script exits 0" \
      || { fail "$board QEMU run of $script exits $status"; cat "$work/qemu-$name-err.txt" >&2; }
    same "$board QEMU output on $script equals the host build's" "$expected" "$work/qemu-$name.txt"
    [ ! -s "$work/qemu-$name-err.txt" ] && pass "$board QEMU run of $script reports no error" \
      || { fail "$board QEMU run of $script wrote to stderr"; cat "$work/qemu-$name-err.txt" >&2; }
  done
done
# The Cortex-M0 build is ARMv6-M code: its objects say so (Tag_CPU_arch: v6S-M), and the M3's v7.
arch_of() { arm-none-eabi-readelf -A "$1" | sed -n 's/^ *Tag_CPU_arch: //p' | head -1; }
m0=$(arch_of $example/cortex-m/build/microbit/microwave/firmware.elf)
m3=$(arch_of $example/cortex-m/build/mps2-an385/microwave/firmware.elf)
[ "$m0" = "v6S-M" ] && [ "$m3" = "v7" ] && pass "the microbit firmware is ARMv6-M ($m0), the mps2-an385 one ARMv7 ($m3)" \
  || fail "firmware architectures: microbit '$m0', mps2-an385 '$m3'"

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
rm -rf $example/cortex-m/build/*/malformed

echo "== no heap: the README's firmware build line"
# The block after <!-- firmware-build-line in CStateCore/README.md, run as written from the root.
sed -n '/^<!-- firmware-build-line/,/^```$/p' CStateCore/README.md | sed '1,2d;$d' >"$work/firmware-build.sh"
library=CStateCore/.build/libcstatecore.a
if [ -s "$work/firmware-build.sh" ] && sh -e "$work/firmware-build.sh" >"$work/lib.txt" 2>&1; then
  pass "CStateCore/README.md's firmware build line runs as written: $(cat "$work/firmware-build.sh")"
else
  fail "CStateCore/README.md's firmware build line"; cat "$work/firmware-build.sh" "$work/lib.txt" >&2
fi
heap='^(malloc|free|calloc|realloc|_sbrk|_malloc_r|_free_r|_sbrk_r)$'
# Undefined symbols per member: "lib.a:member.o:         U malloc" with -A.
arm-none-eabi-nm -A -u "$library" >"$work/undefined.txt" 2>&1
heap_users=$(awk -v heap="$heap" '{ split($1, p, ":"); if ($NF ~ heap) print p[2] }' "$work/undefined.txt" | sort -u | paste -sd' ' -)
[ "$heap_users" = "sc_machine_alloc.o" ] && pass "only sc_machine_alloc.o of the library references malloc/free" \
  || fail "library members referencing the heap: '$heap_users' (expected only sc_machine_alloc.o)"
# The microwave's firmware against that library: the core's defaults (no chart switches, as the
# library was built), no --gc-sections.
fwdir="$work/heapless"
mkdir -p "$fwdir"
sed -e 's/^/    "/' -e 's/$/",/' "$events" >"$fwdir/script.inc"
if (cd $example/cortex-m && arm-none-eabi-gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -mcpu=cortex-m3 -mthumb -Os \
      -DCPU_HZ=25000000u -I"$root/CStateCore/include" -I../generated -I"$fwdir" startup.c semihosting.c firmware.c \
      ../app.c ../timers.c ../generated/microwave.c "$root/$library" -nostartfiles --specs=nano.specs \
      -T mps2-an385.ld -o "$fwdir/firmware.elf") >"$work/heapless.txt" 2>&1; then
  pass "a firmware links against that library with newlib-nano and no --gc-sections"
  found=$(arm-none-eabi-nm "$fwdir/firmware.elf" | awk -v heap="$heap" '$NF ~ heap { print $NF }' | paste -sd' ' -)
  [ -z "$found" ] && pass "the firmware has no malloc, free or _sbrk (arm-none-eabi-nm)" \
    || fail "the firmware links the heap: $found"
  timeout 60 qemu-system-arm -machine mps2-an385 -nographic -monitor none -serial null \
    -semihosting-config enable=on,target=native -icount shift=0,sleep=off -kernel "$fwdir/firmware.elf" \
    </dev/null >"$fwdir/out.txt" 2>"$fwdir/err.txt"
  same "the heap-free firmware prints what the host build prints" "$work/host-microwave.txt" "$fwdir/out.txt"
else
  fail "a firmware against the README's library"; cat "$work/heapless.txt" >&2
fi

# The footprint script keeps working: a table per board (Cortex-M3, Cortex-M0), each with the
# three charts, the full core and QP-nano's published figures.
if scripts/footprint.sh >"$work/footprint.md" 2>"$work/footprint-err.txt" &&
   [ "$(grep -c '^| \(turnstile\|traffic light\|door\|full core, every feature\) | ' "$work/footprint.md")" -eq 8 ] &&
   [ "$(grep -c '^| QP-nano' "$work/footprint.md")" -eq 2 ]; then
  pass "scripts/footprint.sh measures 3 charts and the full core on 2 boards"
else
  fail "scripts/footprint.sh"; tail -5 "$work/footprint-err.txt" >&2; head -20 "$work/footprint.md" >&2
fi
# The targets of issue 23 stay met, on both boards (Cortex-M3 and M0, -Os, newlib-nano,
# --gc-sections): core flash (column 4) of the turnstile <= 2,048 B, the traffic light <= 6,144 B,
# the door <= 8,192 B, the full core with every feature <= 10,240 B; RAM per machine without
# queue slots (column 6) of the turnstile <= 16 B, the traffic light <= 48 B, the door <= 64 B.
for target in "4:core flash:turnstile:2048" "4:core flash:traffic light:6144" "4:core flash:door:8192" \
              "4:core flash:full core, every feature:10240" \
              "6:RAM per machine:turnstile:16" "6:RAM per machine:traffic light:48" "6:RAM per machine:door:64"; do
  IFS=: read -r column what row limit <<<"$target"
  sizes=$(grep "^| $row | " "$work/footprint.md" | awk -F'|' -v c="$column" '{ gsub(/[ B]/, "", $c); print $c }' | paste -sd' ' -)
  over=$(for size in $sizes; do [ "$size" -le "$limit" ] || echo "$size"; done)
  if [ "$(echo "$sizes" | wc -w)" -eq 2 ] && [ -z "$over" ]; then
    pass "$what of the $row firmware within $limit B on both boards ($sizes)"
  else
    fail "$what of the $row firmware: $sizes B (target $limit B)"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
