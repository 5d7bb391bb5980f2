# Sourced by scripts/test.sh and scripts/setup.sh: the test suites and what each needs.
#
# A suite is a file scripts/suites/NN-NAME.sh (NN orders them). Its header holds one line
#   # needs: WORD...
# naming what it needs: Debian package names, plus `swift` (the Swift 6 toolchain, which also
# brings clang, lld and the sanitizer runtimes) and `duktape` (the Duktape the ECMAScript
# datamodel links, built by scripts/build-duktape.sh). A suite is chosen by its exact NAME.

suites_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../suites" && pwd)"

# Every suite file, in order.
all_suites() {
  local file
  for file in "$suites_dir"/[0-9][0-9]-*.sh; do echo "$file"; done
}

# suite_name FILE: NAME of scripts/suites/NN-NAME.sh.
suite_name() {
  local name
  name=$(basename "$1" .sh)
  echo "${name#[0-9][0-9]-}"
}

# suite_needs FILE: the words of its `# needs:` line (nothing when it has none).
suite_needs() {
  sed -nE '1,20{s/^# needs:[[:space:]]*//p}' "$1" | head -1
}

# select_suites NAME...: prints the file of each named suite, in the suites' order (all of them
# when no NAME is given). An unknown NAME is an error (exit status 2) that lists the names.
select_suites() {
  local file wanted unknown=() found
  if (($# == 0)); then all_suites; return; fi
  for wanted in "$@"; do
    found=0
    while read -r file; do [ "$(suite_name "$file")" = "$wanted" ] && found=1; done < <(all_suites)
    ((found)) || unknown+=("$wanted")
  done
  if ((${#unknown[@]})); then
    echo "error: no suite named ${unknown[*]}; the suites are: $(all_suites | while read -r f; do suite_name "$f"; done | tr '\n' ' ')" >&2
    return 2
  fi
  while read -r file; do
    for wanted in "$@"; do
      if [ "$(suite_name "$file")" = "$wanted" ]; then echo "$file"; break; fi
    done
  done < <(all_suites)
}
