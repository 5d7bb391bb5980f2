#!/usr/bin/env bash
# needs: duktape pkg-config gcc swift
# Suite: the Duktape the ECMAScript datamodel links (scripts/build-duktape.sh) has the hook that
# stops runaway scripts wired to CDuktapeShim, and the shim is -std=c11 -Wall -Wextra -Wpedantic
# -Werror clean with gcc and clang. (The shim's behaviour is tested by the Swift suite:
# Tests/StatechartECMAScriptTests/ScriptTimeLimitTests.swift, ScriptMemoryLimitTests.swift.)
set -uo pipefail
cd "$(dirname "$0")/../.."
passed=0 failed=0
check() { # check NAME COMMAND...
  local name=$1; shift
  if output=$("$@" 2>&1); then
    passed=$((passed + 1)); echo "ok: $name"
  else
    failed=$((failed + 1)); echo "FAIL: $name"; echo "$output" | head -20
  fi
}
has_hook() {
  local config
  config="$(pkg-config --variable=includedir statechart-duktape3)/duk_config.h"
  grep -q '^#define DUK_USE_INTERRUPT_COUNTER$' "$config" &&
    grep -q '^#define DUK_USE_EXEC_TIMEOUT_CHECK(udata) (dukshim_exec_timeout_check((udata)) != 0)$' "$config"
}
calls_shim() {
  local symbols
  symbols=$(nm "$(pkg-config --variable=libdir statechart-duktape3)/libstatechart_duktape3.a")
  grep -qE '^ +U dukshim_exec_timeout_check$' <<<"$symbols" && grep -qE '^ +U dukshim_native_timeout_check$' <<<"$symbols"
}
compile_shim() { # compile_shim CC
  local cc=$1 f
  for f in Sources/CDuktapeShim/*.c; do
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -ISources/CDuktapeShim/include \
      $(pkg-config --cflags statechart-duktape3) -c "$f" -o /dev/null || return 1
  done
}
check "pkg-config finds statechart-duktape3" pkg-config --exists statechart-duktape3
check "duk_config.h enables the interrupt counter and the timeout check" has_hook
check "the engine calls dukshim_exec_timeout_check and dukshim_native_timeout_check" calls_shim
check "CDuktapeShim is warning-free with gcc" compile_shim gcc
check "CDuktapeShim is warning-free with clang" compile_shim /opt/swift/usr/bin/clang
echo "$passed passed, $failed failed"
((failed == 0))
