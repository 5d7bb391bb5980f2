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
#   - three one-line additions to duktape.c for built-ins that loop in C without running
#     bytecode, where the executor's check never comes: the regular expression matcher's step
#     loop (catastrophic backtracking runs ~1e9 steps, tens of seconds, before Duktape's own
#     step limit) and the entries of property get and has (Array.prototype.sort, indexOf,
#     forEach, ... on a huge or sparse array: `a.length = 4294967295; a.indexOf(1)`). They call
#     dukshim_native_timeout_check, which reads the clock every 4096 calls;
#   - result: /usr/local/lib/libstatechart_duktape2.a, headers in
#     /usr/local/include/statechart-duktape2, pkg-config name `statechart-duktape2` (what
#     Package.swift's CDuktape target asks for; 2 is the recipe number below).
# Nothing third-party is committed to the repository.
set -euo pipefail

# The recipe number is part of every installed name (library, headers, pkg-config), so worktrees
# or checkouts of different recipes on one machine each find their own build instead of
# replacing each other's. Bump it (and the names in Package.swift and
# Sources/CDuktape/module.modulemap) when anything below changes.
recipe=2
name="statechart-duktape$recipe"     # pkg-config name and header folder
library="statechart_duktape$recipe"  # libstatechart_duktape2.a
prefix=/usr/local
if pkg-config --exists "$name" && [ -f "$prefix/lib/lib$library.a" ]; then
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
#define DUK_USE_EXEC_TIMEOUT_CHECK(udata) (dukshim_exec_timeout_check((udata)) != 0)\
int dukshim_native_timeout_check(void *udata);\
#define DUKSHIM_NATIVE_CHECK(thr) do { if (dukshim_native_timeout_check((thr)->heap->heap_udata)) { DUK_ERROR_RANGE((thr), "execution timeout"); } } while (0)|' \
  "$config"

# The native-loop checks: each anchor must match exactly once.
engine="$dist/duktape.c"
getprop='^DUK_INTERNAL duk_bool_t duk_hobject_getprop(duk_hthread \*thr, duk_tval \*tv_obj, duk_tval \*tv_key) {$'
hasprop='^DUK_INTERNAL duk_bool_t duk_hobject_hasprop(duk_hthread \*thr, duk_tval \*tv_obj, duk_tval \*tv_key) {$'
restep=$'^\t\tre_ctx->steps_count++;$'
for anchor in "$getprop" "$hasprop" "$restep"; do
  count=$(grep -c "$anchor" "$engine" || true)
  [ "$count" = 1 ] || { echo "build-duktape: expected one line matching '$anchor' in duktape.c, found $count" >&2; exit 1; }
done
sed -i \
  -e "/$getprop/a\\	DUKSHIM_NATIVE_CHECK(thr);" \
  -e "/$hasprop/a\\	DUKSHIM_NATIVE_CHECK(thr);" \
  -e "/$restep/a\\		DUKSHIM_NATIVE_CHECK(re_ctx->thr);" \
  "$engine"
[ "$(grep -c 'DUKSHIM_NATIVE_CHECK(' "$engine")" = 3 ] || { echo "build-duktape: the native checks were not inserted" >&2; exit 1; }

cc -std=c99 -O2 -fPIC -w -c "$dist/duktape.c" -o "$work/duktape.o"
ar rcs "$work/lib$library.a" "$work/duktape.o"
version=$(sed -n 's/^#define DUK_VERSION  *\([0-9]*\)L.*/\1/p' "$dist/duktape.h")
version="$((version / 10000)).$((version / 100 % 100)).$((version % 100))"
cat >"$work/$name.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include/$name

Name: $name
Description: Duktape built from Debian's source with DUK_USE_EXEC_TIMEOUT_CHECK for CDuktapeShim
Version: $version
Libs: -L\${libdir} -l$library -lm
Cflags: -I\${includedir}
EOF

$sudo install -d "$prefix/lib/pkgconfig" "$prefix/include/$name"
$sudo install -m 644 "$dist/duktape.h" "$config" "$prefix/include/$name/"
$sudo install -m 644 "$work/lib$library.a" "$prefix/lib/"
$sudo install -m 644 "$work/$name.pc" "$prefix/lib/pkgconfig/"
echo "build-duktape: installed Duktape $version ($name)" >&2
