#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config gcc graphviz python3 git
# Suite: every shell command of README.md and of the DocC articles runs, in order, and prints
# what the text shows (Tests/DocCommands/doc_commands.py: how blocks are marked and compared).
# The README's install command builds the tool in release mode, so this suite takes minutes.
# Arguments name the files to check (default: README.md and every DocC article).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 Tests/DocCommands/doc_commands.py "$@"
