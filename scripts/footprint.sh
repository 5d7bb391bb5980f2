#!/usr/bin/env bash
# Prints the footprint table of CStateCore/README.md: flash and RAM of the C core and of
# generated charts on a Cortex-M3, built with arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -Os
# -DNDEBUG (-ffunction-sections -fdata-sections, linked with --gc-sections against newlib-nano),
# with and without the plan cache (SC_CONFIG_NO_PLAN_CACHE=1); the core through
# `make -C CStateCore lib`.
#
#   flash  .text + .rodata the linker kept, summed per object file from the link map: the core's
#          objects (CStateCore/*.c) and the chart's generated NAME.c (tables, names, actions)
#   RAM    the machine block, sc_machine_size() as the firmware computes it on the target
#          (32-bit pointers), for the core's default queue capacities and for 4 + 4 slots
#
# Each chart is generated with `statechart generate c`, linked into the smallest complete firmware
# (Examples/C/cortex-m/footprint.c: a static machine that starts and dispatches the chart's
# events) and run under qemu-system-arm, which prints the RAM figures.
#
#   scripts/footprint.sh          # the table, in Markdown
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
charts=(scxml/bench/turnstile.scxml scxml/bench/hierarchical.scxml scxml/examples/traffic-light.scxml
        scxml/examples/microwave.scxml)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swift build --product statechart >&2
statechart="$(swift build --show-bin-path)/statechart"

fw=Examples/C/cortex-m
arch=(-mcpu=cortex-m3 -mthumb)
optimize=("${arch[@]}" -Os -ffunction-sections -fdata-sections -DNDEBUG)   # a release build
cflags=(-std=c11 -Wall -Wextra -Wpedantic -Werror "${optimize[@]}")

# flash_of MAP REGEX: bytes of the .text* and .rodata* input sections the link kept from the
# input files matching REGEX (an archive member reads "lib.a(member.o)"), from the link map's
# memory map part (discarded sections are listed before it). An input section's line is
# " .text.f 0xADDR 0xSIZE file", or its name alone and "0xADDR 0xSIZE file" on the next line.
flash_of() {
  awk -v wanted="$2" '
    function hex(text,   i, value) {   # "0x1a4" -> 420 (mawk has no strtonum)
      value = 0
      for (i = 3; i <= length(text); i++) value = value * 16 + index("0123456789abcdef", substr(tolower(text), i, 1)) - 1
      return value
    }
    /^Linker script and memory map/ { inmap = 1; next }
    !inmap { next }
    /^ \.(text|rodata)/ { if (NF == 1) { pending = 1; next }
                          file = $4; size = $3; pending = 0 }
    pending && NF == 3 && $1 ~ /^0x/ { file = $3; size = $2; pending = 0 }
    { if (file != "") { if (file ~ wanted) total += hex(size); file = "" } }
    END { print total + 0 }
  ' "$1"
}

printf '| chart | states, transitions | plan cache | core flash | chart flash | machine RAM, NAME_options | machine RAM, 4 + 4 queue slots | stack, whole run |\n'
printf '|---|---|---|---:|---:|---:|---:|---:|\n'
for variant in with without; do
  defines=()
  [ "$variant" = without ] && defines=(-DSC_CONFIG_NO_PLAN_CACHE=1)
  objects="$work/$variant"
  mkdir -p "$objects"
  # The core as CStateCore's Makefile builds its library, for the target.
  make -s -C CStateCore lib CC=arm-none-eabi-gcc AR=arm-none-eabi-ar BUILD="$objects/core" \
    CFLAGS="${optimize[*]}" CONFIG="${defines[*]:-}" >&2
  cp "$objects/core/libcstatecore.a" "$objects/"
  for source in $fw/startup.c $fw/semihosting.c; do
    arm-none-eabi-gcc "${cflags[@]}" -c "$source" -o "$objects/$(basename "$source" .c).o"
  done
  for chart in "${charts[@]}"; do
    base=$(basename "$chart" .scxml)
    name=${base//-/_}
    dir="$work/$variant/$name"
    mkdir -p "$dir"
    "$statechart" generate c "$chart" -o "$dir" --name "$name" >&2
    events="${chart%.scxml}.events"
    sed -e 's/\r$//' -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/",/' "$events" >"$dir/script.inc"
    arm-none-eabi-gcc "${cflags[@]}" "${defines[@]}" -ICStateCore/include -c "$dir/$name.c" -o "$dir/$name.o"
    # No-op definitions of the hooks the header declares (a real firmware implements them).
    {
      echo "#include \"$name.h\""
      grep -q "${name}_log(" "$dir/$name.h" && \
        echo "void ${name}_log(void *c, const char *l, const char *m) { (void)c; (void)l; (void)m; }"
      grep -q "${name}_timer_start(" "$dir/$name.h" && {
        echo "void ${name}_timer_start(void *c, sc_machine *m, const char *i, sc_event e, uint32_t d) { (void)c; (void)m; (void)i; (void)e; (void)d; }"
        echo "void ${name}_timer_cancel(void *c, sc_machine *m, const char *i) { (void)c; (void)m; (void)i; }"
      }
      true
    } >"$dir/hooks.c"
    arm-none-eabi-gcc "${cflags[@]}" -ICStateCore/include -I"$dir" -c "$dir/hooks.c" -o "$dir/hooks.o"
    arm-none-eabi-gcc "${cflags[@]}" "${defines[@]}" -ICStateCore/include -I"$dir" -I$fw \
      -DFOOTPRINT_HEADER="\"$name.h\"" -DFOOTPRINT_NAME="$name" -c $fw/footprint.c -o "$dir/footprint.o"
    arm-none-eabi-gcc "${arch[@]}" -nostartfiles --specs=nano.specs -T $fw/mps2-an385.ld -Wl,--gc-sections \
      -Wl,-Map="$dir/firmware.map" "$objects/startup.o" "$objects/semihosting.o" "$dir/footprint.o" \
      "$dir/hooks.o" "$dir/$name.o" "$objects/libcstatecore.a" -o "$dir/firmware.elf"
    core_flash=$(flash_of "$dir/firmware.map" 'libcstatecore[.]a[(]')
    chart_flash=$(flash_of "$dir/firmware.map" "/${name}[.]o\$")
    report=$(timeout 60 qemu-system-arm -machine mps2-an385 -nographic -monitor none -serial null \
               -semihosting-config enable=on,target=native -kernel "$dir/firmware.elf" </dev/null)
    # "machine 1234 default 456 small 2048 header 12 states 9 transitions 312 stack"
    read -r _ ram_default _ ram_small _ header _ states _ transitions _ stack _ <<<"$report"
    if [ "$ram_default" -gt "$header" ]; then
      echo "error: ${name}_MACHINE_SIZE ($header) is less than sc_machine_size() on the target ($ram_default)" >&2
      exit 1
    fi
    printf '| %s | %s, %s | %s | %s B | %s B | %s B | %s B | %s B |\n' "$base" "$states" "$transitions" "$variant" \
      "$core_flash" "$chart_flash" "$ram_default" "$ram_small" "$stack"
  done
done
