#!/usr/bin/env bash
# Suite: the C core's tests and warning checks (gcc and clang, -Wall -Wextra -Wpedantic -Werror).
set -euo pipefail
cd "$(dirname "$0")/../.."
make -C CStateCore test warnings
