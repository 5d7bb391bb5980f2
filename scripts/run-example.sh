#!/usr/bin/env bash
# The main job: build the statechart tool, load an example chart from scxml/examples/, run it
# on its event script and print the trace (one JSON line per macrostep). Pass another example's
# name to trace that one instead: traffic-light (default), microwave, media-player.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tool
example="${1:-traffic-light}"
swift build --product statechart >&2
tool="$(swift build --show-bin-path)/statechart"
echo "== statechart trace scxml/examples/$example.scxml < scxml/examples/$example.events" >&2
"$tool" trace "scxml/examples/$example.scxml" < "scxml/examples/$example.events"
