#!/usr/bin/env bash
# Prints the footprint tables of CStateCore/README.md: flash and RAM of the C core for generated
# charts on a Cortex-M3 and a Cortex-M0, each chart's firmware built as a firmware developer
# builds it from `statechart generate c --trace-main`:
#
#   - the core through `make -C CStateCore lib` with the chart's generated switches
#     (CONFIG="-include NAME_config.h") and arm-none-eabi-gcc -mcpu=cortex-mN -mthumb -Os -DNDEBUG
#     -ffunction-sections -fdata-sections;
#   - the generated NAME.c and NAME_main.c (the `statechart trace` program) compiled the same way,
#     linked with --gc-sections against newlib-nano (its system calls stubbed: it is measured,
#     not run) and Examples/C/cortex-m's startup code and linker script.
#
#   core flash   .text + .rodata the linker kept from libcstatecore.a, summed per input section
#                from the link map: what the trace program pulls from the core
#   chart flash  the same for NAME.o: tables, names, guard and action functions
#   RAM          bytes of one machine: NAME_MACHINE_SIZE as the target compiler computes it
#                (SC_MACHINE_SIZE, sc_machine_size() exactly, see sc_core.h) for NAME_options, and
#                the same without queue slots (queues a firmware may share or leave out)
#   full core    the firmware of scxml/fixtures/every-feature.scxml (every feature of the core), as
#                generated, then with the table check and with the plan cache given back; and every
#                object of the library built with no switch, summed (all of the API: not a firmware)
#
#   scripts/footprint.sh          # the tables, in Markdown
#   FOOTPRINT_KEEP=DIR scripts/footprint.sh   # the same, keeping each build (link maps) in DIR
set -euo pipefail
cd "$(dirname "$0")/.."
# row|chart|switches given on the command line before NAME_config.h (which keeps them): the
# full core's rows add what a generated chart leaves out although it could use it (invocations,
# which generated C has none of, so every feature of the core is in).
charts=("turnstile|scxml/bench/turnstile.scxml|" "traffic light|scxml/examples/traffic-light.scxml|"
        "door|scxml/fixtures/door.scxml|"
        "full core, every feature|scxml/fixtures/every-feature.scxml|-DSC_CONFIG_NO_INVOKE=0"
        "full core, every feature, with the table check (hand-written tables)|scxml/fixtures/every-feature.scxml|-DSC_CONFIG_NO_INVOKE=0 -DSC_CONFIG_NO_TABLE_CHECK=0"
        "full core, every feature, with the plan cache (a speed cache; 32-bit ids, 64-bit words)|scxml/fixtures/every-feature.scxml|-DSC_CONFIG_NO_INVOKE=0 -DSC_CONFIG_NO_PLAN_CACHE=0 -DSC_CONFIG_ID_BITS=32 -DSC_CONFIG_WORD_BITS=64")
boards=("Cortex-M3:cortex-m3:mps2-an385" "Cortex-M0:cortex-m0:microbit")

work="${FOOTPRINT_KEEP:-$(mktemp -d)}"
[ -n "${FOOTPRINT_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
swift build --product statechart >&2
statechart="$(swift build --show-bin-path)/statechart"
fw=Examples/C/cortex-m

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

# size_of OBJECT SYMBOL: the size in bytes of a data object, from the symbol table.
size_of() { arm-none-eabi-nm -S -t d "$1" | awk -v s="$2" '$4 == s { print $2 + 0 }'; }

for board in "${boards[@]}"; do
  IFS=: read -r label cpu machine <<<"$board"
  arch=(-mcpu="$cpu" -mthumb)
  optimize=("${arch[@]}" -Os -ffunction-sections -fdata-sections -DNDEBUG)   # a release build
  cflags=(-std=c11 -Wall -Wextra -Wpedantic -Werror "${optimize[@]}")
  echo
  echo "**$label** (\`arm-none-eabi-gcc -mcpu=$cpu -mthumb -Os\`, newlib-nano, \`--gc-sections\`, linked for the \`$machine\` board)"
  echo
  printf '| firmware | switches (NAME_config.h) | core flash | chart flash | RAM per machine, no queue slots | RAM per machine, NAME_options queues |\n'
  printf '|---|---|---:|---:|---:|---:|\n'
  number=0
  for entry in "${charts[@]}"; do
    IFS='|' read -r row chart defines <<<"$entry"
    name=$(basename "$chart" .scxml)
    name=${name//-/_}
    number=$((number + 1))
    dir="$work/$cpu/$number-$name"
    mkdir -p "$dir"
    "$statechart" generate c "$chart" -o "$dir" --name "$name" --trace-main >&2
    # shellcheck disable=SC2206
    config=($defines -include "$dir/${name}_config.h")
    make -s -C CStateCore lib CC=arm-none-eabi-gcc AR=arm-none-eabi-ar BUILD="$dir/core" \
      CFLAGS="${optimize[*]}" CONFIG="${config[*]}" >&2
    for source in $fw/startup.c $fw/semihosting.c; do
      arm-none-eabi-gcc "${cflags[@]}" -c "$source" -o "$dir/$(basename "$source" .c).o"
    done
    for source in "$dir/$name.c" "$dir/${name}_main.c"; do
      arm-none-eabi-gcc "${cflags[@]}" "${config[@]}" -DSC_TRACE_FIRMWARE -ICStateCore/include -I"$dir" -c "$source" \
        -o "${source%.c}.o"
    done
    # The machine's bytes as this target and these switches make them: SC_MACHINE_SIZE of the
    # header's facts, with NAME_options' queues and with none.
    facts=$(sed -n "s/^#define ${name}_MACHINE_SIZE SC_MACHINE_SIZE(\(.*\))$/\1/p" "$dir/$name.h")
    no_queues=$(echo "$facts" | sed 's/, [0-9]*u, [0-9]*u$/, 0u, 0u/')
    printf '#include "%s.h"\nchar ram_default[%s_MACHINE_SIZE];\nchar ram_no_queues[SC_MACHINE_SIZE(%s)];\n' \
      "$name" "$name" "$no_queues" >"$dir/probe.c"
    arm-none-eabi-gcc "${cflags[@]}" "${config[@]}" -fno-common -ICStateCore/include -I"$dir" -c "$dir/probe.c" -o "$dir/probe.o"
    arm-none-eabi-gcc "${arch[@]}" -nostartfiles --specs=nano.specs --specs=nosys.specs -L$fw -T $fw/$machine.ld \
      -Wl,--gc-sections -Wl,--defsym=end=bss_end -Wl,-Map="$dir/firmware.map" \
      "$dir/startup.o" "$dir/semihosting.o" "$dir/${name}_main.o" "$dir/$name.o" "$dir/core/libcstatecore.a" \
      -o "$dir/firmware.elf" 2>"$dir/link.txt" || { cat "$dir/link.txt" >&2; exit 1; }
    core_flash=$(flash_of "$dir/firmware.map" 'libcstatecore[.]a[(]')
    chart_flash=$(flash_of "$dir/firmware.map" "/${name}[.]o\$")
    # The switches in force: sc_core.h's values after the command line's and NAME_config.h's.
    in_force=$(echo '#include "sc_core.h"' | arm-none-eabi-gcc "${config[@]}" -ICStateCore/include -dM -E -x c -)
    switches=$(for feature in HISTORY PARALLEL EVENTLESS GUARDS CONTENT INVOKE FINAL DELAYED QUEUE PLAN_CACHE TABLE_CHECK; do
                 if echo "$in_force" | grep -qx "#define SC_CONFIG_NO_$feature 1"; then echo "$feature"; fi
               done | tr 'A-Z_' 'a-z ' | paste -sd, - | sed 's/,/, /g')
    bits=$(echo "$in_force" | sed -n 's/^#define SC_CONFIG_ID_BITS \([0-9]*\)$/\1/p')
    word_bits=$(echo "$in_force" | sed -n 's/^#define SC_CONFIG_WORD_BITS \([0-9]*\)$/\1/p')
    printf '| %s | without %s; %s-bit ids, %s-bit words | %s B | %s B | %s B | %s B |\n' "$row" "${switches:-nothing}" "$bits" "$word_bits" \
      "$core_flash" "$chart_flash" "$(size_of "$dir/probe.o" ram_no_queues)" "$(size_of "$dir/probe.o" ram_default)"
  done
  # The full core: every object of the library, built with no switch.
  make -s -C CStateCore lib CC=arm-none-eabi-gcc AR=arm-none-eabi-ar BUILD="$work/$cpu/full" \
    CFLAGS="${optimize[*]}" >&2
  full=$(arm-none-eabi-size -t "$work/$cpu/full/lib/"*.o | awk 'END { print $1 }')
  printf '| every object of the library (not a firmware: all of the API, no switch) | none | %s B | — | — | — |\n' "$full"
  printf '| QP-nano: their published figures, not measured here | — | "1-2KB of code" | — | "just several bytes of RAM" per state machine | — |\n'
done
