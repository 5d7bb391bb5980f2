#!/usr/bin/env bash
# Builds the `statechart` command-line tool in release mode and installs it as PREFIX/bin/statechart
# (PREFIX defaults to /usr/local; sudo is used when PREFIX/bin is not writable).
#   scripts/install.sh              /usr/local/bin/statechart
#   scripts/install.sh ~/.local     ~/.local/bin/statechart, no root needed
# First installs what the build needs (scripts/setup.sh --tool). The Swift runtime is linked
# statically (--static-swift-stdlib), so the installed program keeps working without the
# toolchain on the library path. Prints where it went, and how to put it on PATH when it is not.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
(($# <= 1)) || { echo "usage: scripts/install.sh [PREFIX]" >&2; exit 2; }
scripts/setup.sh --tool
echo "install: swift build -c release --product statechart --static-swift-stdlib" >&2
swift build -c release --product statechart --static-swift-stdlib >&2
binary="$(swift build -c release --show-bin-path)/statechart"
mkdir -p "$prefix/bin" 2>/dev/null || true
sudo=""
[ -w "$prefix/bin" ] || { [ "$(id -u)" = 0 ] || sudo=sudo; }
$sudo mkdir -p "$prefix/bin"
$sudo install -m 755 "$binary" "$prefix/bin/statechart"
bin=$(cd "$prefix/bin" && pwd)
echo "installed $bin/statechart"
case ":$PATH:" in
  *":$bin:"*) ;;
  *) echo "$bin is not on PATH; add it, e.g. for bash: echo 'export PATH=\"$bin:\$PATH\"' >> ~/.bashrc, then open a new shell" ;;
esac
