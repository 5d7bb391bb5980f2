#!/usr/bin/env bash
# needs: swift
# Suite: code that must not build. Each Tests/CompileFailures/fails-*.swift (with the shared
# Door.swift) is type-checked against the Statechart module and must fail with the error its
# `// expect:` line quotes (a typed context read as another type, a machine made with a context
# of another type, the removed untyped API); builds-*.swift must type-check, so that a failure
# above is the type checker's verdict and not a broken setup. Prints "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --target Statechart >/dev/null
bin="$(swift build --show-bin-path)"
flags=(-typecheck -swift-version 6 -I "$bin/Modules")
for map in "$bin"/CStateCore.build/module.modulemap "$bin"/CCallbackFrame.build/module.modulemap "$bin"/CMachineLock.build/module.modulemap; do
  flags+=(-Xcc "-fmodule-map-file=$map")
done
dir=Tests/CompileFailures
passed=0; failed=0
out="$(mktemp)"; trap 'rm -f "$out"' EXIT
for file in "$dir"/builds-*.swift; do
  if swiftc "${flags[@]}" "$dir/Door.swift" "$file" >"$out" 2>&1; then
    passed=$((passed + 1))
  else
    echo "FAIL $file: should type-check" >&2; cat "$out" >&2; failed=$((failed + 1))
  fi
done
for file in "$dir"/fails-*.swift; do
  expected="$(sed -n 's|^// expect: ||p' "$file")"
  [ -n "$expected" ] || { echo "FAIL $file: no '// expect:' line" >&2; failed=$((failed + 1)); continue; }
  if swiftc "${flags[@]}" "$dir/Door.swift" "$file" >"$out" 2>&1; then
    echo "FAIL $file: built, but must not" >&2; failed=$((failed + 1))
  elif grep -F -- "$(basename "$file"):" "$out" | grep -qF -- "error: $expected"; then
    passed=$((passed + 1))
  else
    echo "FAIL $file: failed without the expected error: $expected" >&2; cat "$out" >&2; failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
