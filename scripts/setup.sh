#!/usr/bin/env bash
# Installs what the build and the tests need, only what is missing:
#   scripts/setup.sh              everything: every suite's needs, and valgrind (scripts/bench.sh)
#   scripts/setup.sh SUITE...     what the named suites declare in their `# needs:` lines
#                                 (scripts/test.sh SUITE... calls this; scripts/test.sh --list
#                                 shows every suite's needs)
#   scripts/setup.sh --tool       what building the libraries and the `statechart` tool needs
#                                 (scripts/run-example.sh, scripts/install.sh)
# The words of a `# needs:` line are Debian package names, installed with apt-get (one
# `apt-get update` first, and only when something is missing), plus two more:
#   swift    the Swift 6 toolchain, which cannot come from apt: checked, with a hint when missing
#            (clang, lld and the sanitizer runtimes the C suites use ship with it), and git and
#            ca-certificates, with which SwiftPM fetches the package's dependencies;
#   duktape  the Duktape the ECMAScript datamodel links, built from Debian's source package with
#            the hook that stops runaway scripts (scripts/build-duktape.sh, once per machine).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/suites.sh

# What building the package needs (every library target and the tool).
tool_needs=(swift duktape libxml2-dev pkg-config)
# What SwiftPM needs besides the toolchain: it clones the dependencies over https, and the
# package's store target links SQLite (GRDB), so every build of the package needs its headers.
swift_packages=(git ca-certificates libsqlite3-dev)
# What scripts/build-duktape.sh uses: cc and ar, the .tar.xz source, the key of Debian's archive,
# and Debian's Python 3 with PyYAML for Duktape's configure tool.
duktape_packages=(gcc binutils xz-utils pkg-config debian-archive-keyring python3 python3-yaml)

needs=()
case "${1:-}" in
  --tool) needs=("${tool_needs[@]}") ;;
  -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *)
    files=$(select_suites "$@") || exit 2
    while read -r file; do
      read -ra words <<< "$(suite_needs "$file")"
      needs+=("${words[@]}")
    done <<< "$files"
    (($#)) || needs+=(valgrind "${tool_needs[@]}") ;;
esac

swift=0 duktape=0 packages=()
for word in "${needs[@]}"; do
  case "$word" in
    swift) swift=1; packages+=("${swift_packages[@]}") ;;
    duktape) duktape=1; packages+=("${duktape_packages[@]}") ;;
    *) packages+=("$word") ;;
  esac
done

missing=()
for p in $(printf '%s\n' "${packages[@]}" | sort -u); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ((swift)) && ! command -v swift >/dev/null; then
  echo "setup: no swift on PATH: install the Swift 6 toolchain (https://www.swift.org/install/linux/) and put its usr/bin on PATH" >&2
  exit 1
fi
if ((duktape)); then scripts/build-duktape.sh; fi
