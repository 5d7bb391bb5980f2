#!/usr/bin/env bash
# Builds and installs the Duktape the ECMAScript datamodel links: Duktape 2.7 from Debian's own
# source package, compiled with its execution-timeout hook switched on. Run by scripts/setup.sh;
# does nothing when the same recipe is already installed.
#
# Why not Debian's libduktape: it is compiled without DUK_USE_INTERRUPT_COUNTER and
# DUK_USE_EXEC_TIMEOUT_CHECK, the only way Duktape offers to stop running bytecode, so
# `while (true) {}` in a document would block its machine forever. Both are compile-time options
# of the engine (the header's duk_config.h only mirrors them), so the engine is rebuilt here:
#   - source: `apt-get source duktape` (Debian bookworm, the version Debian ships), downloaded
#     with a private apt list directory, so the machine's apt configuration is left untouched;
#   - configuration: upstream's prebuilt src/duk_config.h with exactly two changes, the
#     interrupt counter and DUK_USE_EXEC_TIMEOUT_CHECK(udata) calling
#     dukshim_exec_timeout_check(udata), which CDuktapeShim defines (so this library is only
#     for linking with the shim);
#   - result: /usr/local/lib/libstatechart_duktape.a, headers in
#     /usr/local/include/statechart-duktape, pkg-config name `statechart-duktape` (what
#     Package.swift's CDuktape target asks for).
# Nothing third-party is committed to the repository.
set -euo pipefail

recipe=1 # bump when anything below changes, so machines rebuild
prefix=/usr/local
stamp="$prefix/lib/statechart-duktape.recipe"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$recipe" ] && pkg-config --exists statechart-duktape; then
  exit 0
fi

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "build-duktape: building Duktape from Debian's source package in $work" >&2

mkdir -p "$work/lists/partial" "$work/src"
cat >"$work/sources.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
apt_private=(-o "Dir::Etc::SourceList=$work/sources.sources" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists" -o APT::Sandbox::User=root)
apt-get "${apt_private[@]}" -qq update
(cd "$work/src" && apt-get "${apt_private[@]}" -qq source --download-only duktape >/dev/null)
orig=("$work"/src/duktape_*.orig.tar.xz)
[ -f "${orig[0]}" ] || { echo "build-duktape: no duktape source tarball was downloaded" >&2; exit 1; }
tar -C "$work/src" -xf "${orig[0]}"
dist=("$work"/src/duktape-*/src)
dist=${dist[0]}

# The two configuration changes; each must match exactly once, or the recipe is out of date.
config="$dist/duk_config.h"
for option in DUK_USE_INTERRUPT_COUNTER DUK_USE_EXEC_TIMEOUT_CHECK; do
  count=$(grep -c "^#undef $option\$" "$config" || true)
  [ "$count" = 1 ] || { echo "build-duktape: expected one '#undef $option' in duk_config.h, found $count" >&2; exit 1; }
done
sed -i \
  -e 's|^#undef DUK_USE_INTERRUPT_COUNTER$|#define DUK_USE_INTERRUPT_COUNTER|' \
  -e 's|^#undef DUK_USE_EXEC_TIMEOUT_CHECK$|/* Statechart: CDuktapeShim decides when running bytecode must stop (scripts/build-duktape.sh). */\
int dukshim_exec_timeout_check(void *udata);\
#define DUK_USE_EXEC_TIMEOUT_CHECK(udata) (dukshim_exec_timeout_check((udata)) != 0)|' \
  "$config"

cc -std=c99 -O2 -fPIC -w -c "$dist/duktape.c" -o "$work/duktape.o"
ar rcs "$work/libstatechart_duktape.a" "$work/duktape.o"
version=$(sed -n 's/^#define DUK_VERSION  *\([0-9]*\)L.*/\1/p' "$dist/duktape.h")
version="$((version / 10000)).$((version / 100 % 100)).$((version % 100))"
cat >"$work/statechart-duktape.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include/statechart-duktape

Name: statechart-duktape
Description: Duktape built from Debian's source with DUK_USE_EXEC_TIMEOUT_CHECK for CDuktapeShim
Version: $version
Libs: -L\${libdir} -lstatechart_duktape -lm
Cflags: -I\${includedir}
EOF

$sudo install -d "$prefix/lib/pkgconfig" "$prefix/include/statechart-duktape"
$sudo install -m 644 "$dist/duktape.h" "$config" "$prefix/include/statechart-duktape/"
$sudo install -m 644 "$work/libstatechart_duktape.a" "$prefix/lib/"
$sudo install -m 644 "$work/statechart-duktape.pc" "$prefix/lib/pkgconfig/"
echo "$recipe" | $sudo tee "$stamp" >/dev/null
echo "build-duktape: installed Duktape $version (statechart-duktape)" >&2
