#!/usr/bin/env bash
# The whole test suite. Runs every scripts/suites/NN-*.sh in order (C core, machine lock, Swift,
# generated C, firmware under QEMU, fuzz smoke runs, sanitizers, ...). Each suite is a script that
# exits non-zero when anything in it fails and prints, as its last "N passed, M failed" line, its
# own count. This script adds them up into one closing line and exits non-zero when any suite
# failed. `scripts/test.sh NAME...` runs only the suites whose file names contain a NAME.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT
total_passed=0 total_failed=0 failed_suites=() summary=()
for suite in scripts/suites/[0-9]*.sh; do
  name=$(basename "$suite" .sh); name=${name#[0-9][0-9]-}
  if (($#)); then
    wanted=0; for w in "$@"; do [[ $name == *"$w"* ]] && wanted=1; done
    ((wanted)) || continue
  fi
  echo "== suite $name ($suite)"
  start=$SECONDS status=0
  bash "$suite" 2>&1 | tee "$log_dir/$name.txt" || status=$?
  line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' "$log_dir/$name.txt" | tail -1 || true)
  line=${line#*: }
  if [ -z "$line" ]; then
    echo "error: suite $name printed no 'N passed, M failed' line" >&2
    status=1 passed=0 failed=1
  else
    passed=${line%% passed*}; failed=${line#*, }; failed=${failed%% failed*}
  fi
  [ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
  total_passed=$((total_passed + passed)); total_failed=$((total_failed + failed))
  summary+=("$name: $passed passed, $failed failed ($((SECONDS - start)) s)")
  [ "$status" -eq 0 ] || failed_suites+=("$name")
done
# The end of each failing suite's output again, so that the tail of a CI log says what failed.
for name in "${failed_suites[@]}"; do
  echo "== the last 40 lines of failing suite $name"
  tail -40 "$log_dir/$name.txt"
done
echo "== summary"
printf 'test.sh: %s\n' "${summary[@]}"
((${#failed_suites[@]})) && echo "error: failing suites: ${failed_suites[*]}" >&2
echo "$total_passed passed, $total_failed failed"
((${#failed_suites[@]} == 0))
