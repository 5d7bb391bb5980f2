#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, only those missing: libxml2 (SCXML
# importer), pkg-config (how SwiftPM finds libxml2 and the built Duktape), gcc and make
# (C core tests and warnings), the Cortex-M toolchain and QEMU (firmware tests), Graphviz (chart
# export), valgrind (profiles).
# The ECMAScript datamodel's Duktape is built from Debian's source package by
# scripts/build-duktape.sh (at the end), with the hook that stops runaway scripts.
# clang (with libFuzzer and the sanitizers) ships with the Swift toolchain (/opt/swift/usr/bin).
set -euo pipefail
packages=(libxml2-dev pkg-config gcc make xz-utils python3-yaml gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm graphviz valgrind)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
"$(dirname "$0")/build-duktape.sh"
