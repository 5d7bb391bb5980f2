#!/usr/bin/env bash
# The test suites: scripts/suites/NN-NAME.sh, run in order (C core, machine lock, Swift, W3C,
# generated C, firmware under QEMU, fuzz smoke runs, sanitizers, ...).
#   scripts/test.sh                       every suite (what CI runs, through .ci/run)
#   scripts/test.sh NAME...               the suites with exactly these names (c-core is not
#                                         c-core-sanitizers)
#   scripts/test.sh NAME -- ARGUMENT...   one suite, with arguments passed through to it
#                                         (scripts/test.sh swift -- --filter ReadmeExampleTests)
#   scripts/test.sh --list                the suites, each with what it needs
# First installs what the chosen suites need and nothing more (scripts/setup.sh NAME..., from
# each suite's `# needs:` line). Each suite exits non-zero when anything in it fails and prints,
# as its last "N passed, M failed" line, its own count. This script adds them up into one
# closing line and exits non-zero when any suite failed (2 for a bad command line).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/suites.sh

names=() passthrough=()
while (($#)); do
  case "$1" in
    --list)
      while read -r file; do
        printf '%-19s %-39s needs: %s\n' "$(suite_name "$file")" "scripts/suites/$(basename "$file")" "$(suite_needs "$file" | grep . || echo "(none declared)")"
      done < <(all_suites)
      exit 0 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; passthrough=("$@"); break ;;
    -*) echo "error: unknown option $1 (see scripts/test.sh --help)" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
selected=$(select_suites "${names[@]}") || exit 2
mapfile -t suites <<< "$selected"
if ((${#passthrough[@]})) && ((${#suites[@]} != 1)); then
  echo "error: arguments after -- go to one suite; name exactly one (scripts/test.sh swift -- --filter X)" >&2
  exit 2
fi
scripts/setup.sh "${names[@]}"

log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT
total_passed=0 total_failed=0 failed_suites=() summary=()
for suite in "${suites[@]}"; do
  name=$(suite_name "$suite")
  echo "== suite $name (scripts/suites/$(basename "$suite"))"
  start=$SECONDS status=0
  bash "$suite" "${passthrough[@]}" 2>&1 | tee "$log_dir/$name.txt" || status=$?
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
