#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config
# Suite: every DocC catalog (Sources/TARGET/TARGET.docc) is generated with
# `swift package generate-documentation --target TARGET --warnings-as-errors` (swift-docc-plugin
# is a package dependency). One test per catalog; it fails on any warning (an unresolved link,
# a symbol not curated right, a missing article) or error. Prints each warning, then
# "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
passed=0 failed=0
log=$(mktemp); trap 'rm -f "$log"' EXIT
for catalog in Sources/*/*.docc; do
  target=$(basename "$(dirname "$catalog")")
  echo "== swift package generate-documentation --target $target --warnings-as-errors"
  status=0
  swift package generate-documentation --target "$target" --warnings-as-errors >"$log" 2>&1 || status=$?
  warnings=$(grep -cE '(warning|error): ' "$log" || true)
  if [ "$status" -eq 0 ] && [ "$warnings" -eq 0 ]; then
    passed=$((passed + 1)); echo "ok: $target: 0 warnings"
  else
    failed=$((failed + 1))
    grep -E '(warning|error): |-->|suggestion: ' "$log" | head -80
    [ "$warnings" -gt 0 ] || tail -20 "$log"
    echo "FAIL: $target: exit status $status, $warnings warnings and errors"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
