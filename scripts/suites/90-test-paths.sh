#!/usr/bin/env bash
# needs: swift chromium graphviz gcc python3
# Suite: test paths, coverage and the trace viewer, end to end through the built tool.
#  1. For every chart in scxml/examples: `statechart paths` (every transition) writes paths
#     whose .events, run through `statechart trace`, print exactly their .expected lines, and
#     `statechart coverage` of those .expected files reports every state and transition.
#     A chart whose condition reads event data (till.scxml below, with its <test:event>
#     examples) is covered whole, and its paths and those of a chart with an
#     <invoke> (W3C test 229) replay through `statechart trace` exactly.
#  2. Coverage reads the generated C trace main's output (traffic light, built with gcc).
#  3. The viewer in a browser: headless Chromium opens the traffic light's page from disk at
#     each step (trace.html#step=N) and the states highlighted in the DOM are the
#     configuration `statechart trace` printed for that step (with their ancestors); the
#     transitions highlighted at two steps are checked by name; the page refers to nothing
#     outside itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
build_log=$(swift build --product statechart 2>&1) || { echo "$build_log" | tail -20; echo "test-paths: 0 passed, 1 failed"; exit 1; }
tool="$(swift build --show-bin-path)/statechart"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# Whether every path of FILE written into DIR, its .events run through `statechart trace`,
# prints exactly its .expected lines (each difference reported).
replays() {
  local file=$1 dir=$2 events ok=1
  for events in "$dir"/*.events; do
    "$tool" trace "$file" < "$events" 2>/dev/null > "$work/actual.txt"
    cmp -s "$work/actual.txt" "${events%.events}.expected" || { fail "$file: $(basename "$events"): trace differs:"; diff "${events%.events}.expected" "$work/actual.txt" | head -5; ok=0; }
  done
  ((ok))
}

# 1. Paths and coverage of the examples.
for file in scxml/examples/*.scxml; do
  name=$(basename "$file" .scxml)
  "$tool" paths "$file" -o "$work/$name" > "$work/$name.out" 2>/dev/null || { fail "$file: paths exited $?"; continue; }
  grep -q '^unreached' "$work/$name.out" && fail "$file: paths left something unreached: $(grep unreached "$work/$name.out" | head -3)"
  replays "$file" "$work/$name" && pass
  coverage=$("$tool" coverage "$file" "$work/$name"/*.expected)
  if [[ "$coverage" =~ ^states:\ ([0-9]+)\ of\ ([0-9]+)\ entered\ \(100%\)\;\ transitions:\ ([0-9]+)\ of\ ([0-9]+)\ taken\ \(100%\)$ ]] \
     && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[3]}" = "${BASH_REMATCH[4]}" ]; then
    pass
  else
    fail "$file: coverage of the generated paths: $coverage"
  fi
done

# 1b. A till whose condition reads the payment's amount, with its <test:event> examples (all
#     of it covered), and a chart with an <invoke> (W3C test 229): the paths replay exactly.
cat > "$work/till.scxml" <<'EOF'
<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:test="urn:statechart:test" version="1.0" datamodel="ecmascript" initial="open">
  <datamodel><data id="paid" expr="0"/></datamodel>
  <state id="open">
    <transition event="pay" cond="paid + _event.data.amount &gt;= 10" target="closed"/>
    <transition event="pay"><assign location="paid" expr="paid + _event.data.amount"/></transition>
    <test:event name="pay" data='{"amount": 4}'/>
    <test:event name="pay" data='{"amount": 10}'/>
  </state>
  <final id="closed"/>
</scxml>
EOF
for file in "$work/till.scxml" Tests/W3C/ecma/test229.scxml; do
  name=$(basename "$file" .scxml)
  "$tool" paths "$file" -o "$work/$name" > "$work/$name.out" 2>/dev/null || { fail "$file: paths exited $?"; continue; }
  if [ "$name" = till ] && grep -q '^unreached' "$work/$name.out"; then fail "$file: unreached with its examples: $(grep unreached "$work/$name.out" | head -3)"; fi
  replays "$file" "$work/$name" && pass
done

# 2. The generated C trace main's output is a trace coverage reads (and replays).
"$tool" generate c scxml/examples/traffic-light.scxml -o "$work/c" --trace-main > /dev/null
gcc -std=c11 -O1 -I CStateCore/include "$work/c"/*.c CStateCore/*.c -o "$work/c/trace"
"$work/c/trace" < scxml/examples/traffic-light.events > "$work/c-trace.txt" 2>/dev/null
coverage=$("$tool" coverage scxml/examples/traffic-light.scxml "$work/c-trace.txt")
expected='states: 11 of 11 entered (100%); transitions: 7 of 7 taken (100%)'
[ "$(echo "$coverage" | head -1)" = "$expected" ] && pass || fail "coverage of the C trace: $coverage"

# 3. The viewer in headless Chromium.
"$tool" trace scxml/examples/traffic-light.scxml < scxml/examples/traffic-light.events > "$work/trace.txt" 2>/dev/null
"$tool" view scxml/examples/traffic-light.scxml --events scxml/examples/traffic-light.events -o "$work/trace.html" 2>/dev/null
if grep -Eiq '<script[^>]+src|<link|<img|url\(|@import|href="(https?:|//)' "$work/trace.html"; then
  fail "the page refers to something outside itself: $(grep -Eio '<script[^>]+src[^>]*|<link[^>]*|url\([^)]*\)|href="[^"]*"' "$work/trace.html" | head -3)"
else
  pass
fi
steps=$(wc -l < "$work/trace.txt")
for ((step = 0; step < steps; step++)); do
  timeout 60 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$work/trace.html#step=$step" \
    > "$work/dom-$step.html" 2>/dev/null || true
done
result=$(python3 - "$work" "$steps" scxml/examples/traffic-light.scxml <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
work, steps, chart = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# Each state's ancestors, from the document itself.
ns = '{http://www.w3.org/2005/07/scxml}'
parents = {}
def walk(element, parent):
    for child in element:
        if child.tag in (ns + 'state', ns + 'parallel', ns + 'final'):
            parents[child.get('id')] = parent
            walk(child, child.get('id'))
walk(ET.parse(chart).getroot(), None)
def with_ancestors(ids):
    result = set()
    for i in ids:
        while i is not None:
            result.add(i); i = parents[i]
    return result
lines = [json.loads(l) for l in open(f'{work}/trace.txt')]
highlight = re.compile(r'<g id="[^"]*" class="([^"]*)">\s*<title>([^<]*)</title>')
passed = failed = 0
taken_expected = {1: {'red->green'}, 4: {'yellow->red'}}
for step in range(steps):
    dom = open(f'{work}/dom-{step}.html').read()
    if f'data-current-step="{step}"' not in dom:
        print(f'FAIL step {step}: the page did not open at this step'); failed += 1; continue
    active = {t.replace('cluster_', '', 1) for c, t in highlight.findall(dom) if 'sc-active' in c.split()}
    expected = with_ancestors(lines[step]['configuration'])
    if active == expected: passed += 1
    else: print(f'FAIL step {step}: highlighted {sorted(active)}, trace says {sorted(expected)}'); failed += 1
    if step in taken_expected:
        taken = {t.replace('&gt;', '>') for c, t in highlight.findall(dom) if 'sc-taken' in c.split()}
        if taken == taken_expected[step]: passed += 1
        else: print(f'FAIL step {step}: transitions highlighted {sorted(taken)}, expected {sorted(taken_expected[step])}'); failed += 1
print(passed, failed)
PY
)
echo "$result" | sed '$d'
read -r p f <<< "$(echo "$result" | tail -1)"
passed=$((passed + p)); failed=$((failed + f))

echo "test-paths: $passed passed, $failed failed"
((failed == 0))
