#!/usr/bin/env bash
# The whole test suite: C core tests (plain C, no Swift), warning checks, Swift tests.
# Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

echo "== C core: tests and warnings (gcc/clang, -Wall -Wextra -Wpedantic -Werror)"
make -C CStateCore test warnings

echo "== Swift: build (warnings in this package's sources fail the build)"
swift build --build-tests 2>&1 | tee .build-log.txt
if grep -E "^/.*(Sources|Tests|Examples)/.*: warning:" .build-log.txt | grep -v "/.build/"; then
  echo "error: the build has warnings (listed above)" >&2
  exit 1
fi

echo "== Swift: tests"
swift test --skip-build
