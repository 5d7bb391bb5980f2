#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config gcc graphviz python3 git postgresql
# Suite: every shell command of README.md and of the DocC articles runs, in order, and prints
# what the text shows (Tests/DocCommands/doc_commands.py: how blocks are marked and compared).
# The README's install command builds the tool in release mode, so this suite takes minutes.
# Arguments name the files to check (default: README.md and every DocC article). The debug
# build of `statechart` is on PATH for the articles, which assume an installed tool; README.md
# installs its own (scripts/install.sh) and puts that first on PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product statechart >&2
PATH="$(swift build --show-bin-path):$PATH" exec python3 Tests/DocCommands/doc_commands.py "$@"
