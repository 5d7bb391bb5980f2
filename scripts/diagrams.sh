#!/usr/bin/env bash
# Draws the example charts for the documentation, with the chart export and Graphviz:
#   scxml/examples/NAME.scxml  -> docs/images/scxml-NAME.dot and .svg   (README)
#   the README's lamp chart    -> docs/images/readme-lamp.dot and .svg   (README)
#   Examples/*.swift charts    -> docs/images/swift-NAME.dot, and
#                                 Sources/Statechart/Statechart.docc/Resources/swift-NAME.svg (DocC)
# The .dot files are committed with the pictures: tests compare them with the charts' export
# (ExportCommandTests, ExampleDiagramTests, ReadmeExampleTests), so a chart that changes fails
# until this script is run again. The Swift charts' .dot files are written by those tests when
# STATECHART_WRITE_DIAGRAMS is set.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v dot >/dev/null || { echo "error: Graphviz's dot is missing (scripts/setup.sh installs it)" >&2; exit 1; }
swift build --product statechart
for chart in scxml/examples/*.scxml; do
  name=scxml-$(basename "$chart" .scxml)
  .build/debug/statechart export "$chart" --format dot -o "docs/images/$name.dot"
done
STATECHART_WRITE_DIAGRAMS=1 swift test --filter 'ExampleDiagramTests|ReadmeExampleTests' >/dev/null
for file in docs/images/*.dot; do
  name=$(basename "$file" .dot)
  case $name in
    swift-*) output=Sources/Statechart/Statechart.docc/Resources/$name.svg ;;
    *) output=docs/images/$name.svg ;;
  esac
  dot -Tsvg "$file" -o "$output"
  echo "$output"
done
