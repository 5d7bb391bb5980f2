# The table of scripts/bench.sh's ECMAScript step from its TSV lines
# (RUNNER<TAB>CHART<TAB>METRIC<TAB>VALUE, RUNNER "project" or "qt"), with the verdicts of
# issue 29's targets: the ECMAScript chart at most 1,000 ns per event, at least 25x faster than
# Qt SCXML, at most 150x the null turnstile's ns per event, at most 32 KB resident per session.
{ value[$1 "," $2 "," $3] = $4; if (!($2 in seen)) { seen[$2] = 1; charts[++n] = $2 } }
function show(runner, chart, metric,   key) {
  key = runner "," chart "," metric
  return (key in value) ? sprintf("%12.0f", value[key]) : sprintf("%12s", "-")
}
function verdict(ok) { return ok ? "ok" : "MISSED" }
END {
  printf "\n%-11s %-8s %12s %12s %12s\n", "chart", "runner", "ns/event", "sessions/s", "bytes/sess."
  for (i = 1; i <= n; i++) {
    printf "%-11s %-8s %s %s %s\n", charts[i], "project", show("project", charts[i], "ns_per_event"),
      show("project", charts[i], "sessions_per_second"), show("project", charts[i], "resident_per_session")
    printf "%-11s %-8s %s %s %s\n", charts[i], "Qt SCXML", show("qt", charts[i], "ns_per_event"),
      show("qt", charts[i], "sessions_per_second"), show("qt", charts[i], "resident_per_session")
  }
  es = value["project,ecmascript,ns_per_event"]; null = value["project,turnstile,ns_per_event"]
  qt = value["qt,ecmascript,ns_per_event"]; resident = value["project,ecmascript,resident_per_session"]
  printf "\ntargets (issue 29), ECMAScript chart:\n"
  printf "  %-52s %10.0f ns  %s\n", "<= 1,000 ns per event", es, verdict(es <= 1000)
  if (qt > 0) printf "  %-52s %10.1fx  %s\n", ">= 25x faster than Qt SCXML (same run)", qt / es, verdict(qt / es >= 25)
  if (null > 0) printf "  %-52s %10.0fx  %s\n", "<= 150x the null turnstile's ns per event", es / null, verdict(es / null <= 150)
  printf "  %-52s %10.0f B  %s\n", "<= 32 KB resident per started session", resident, verdict(resident <= 32768)
}
