#!/usr/bin/env bash
# needs: swift duktape libxml2-dev pkg-config gcc python3
# Suite: random charts through the generated C and through the Swift engine (issue 10). A
# CI-sized batch of Tests/Differential/chartgen.py's charts (seeds 1-200) goes through
# `statechart trace` and through the program `statechart generate c --trace-main` writes; their
# standard output must be identical byte for byte and their <log> lines identical in order.
# Any count and seed: Tests/Differential/differential.py --count 1000 --seed S. A mismatch is kept
# in .build/differential-findings/seedN with the chart, the events and both outputs.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product statechart 2>&1 | grep -E "error|warning: " && exit 1
python3 Tests/Differential/differential.py --count 200 --seed 1 \
  --tool "$(swift build --show-bin-path)/statechart"
