#!/usr/bin/env bash
# Durable-session throughput (docs/PERFORMANCE.md, "Durable sessions"): SQLite (WAL,
# synchronous FULL and NORMAL) and PostgreSQL (1 and 4 worker processes), one session and 100
# sessions, one event per claim and batches of 10 (eventsPerClaim), against the same events
# sent to in-memory machines. Starts and stops its own
# PostgreSQL (scripts/postgres.sh). Usage: scripts/bench-store.sh [WORKER_BINARY]
# (default: a release build of StatechartStoreWorker in .build-release-store).
set -euo pipefail
cd "$(dirname "$0")/.."
worker="${1:-}"
if [ -z "$worker" ]; then
  swift build -c release --scratch-path .build-release-store --product StatechartStoreWorker >&2
  worker=.build-release-store/release/StatechartStoreWorker
fi
tmp="$(mktemp -d /tmp/statechart-bench-XXXXXX)"
export STATECHART_PG_DIR="$(mktemp -d /tmp/statechart-postgres-XXXXXX)"
trap 'scripts/postgres.sh stop; rm -rf "$tmp"' EXIT
started="$(scripts/postgres.sh start)"    # a failed start stops the script (set -e)
eval "$started"
url="$STATECHART_POSTGRES_URL"
drop() {     # an empty database for the next run
  local port=${url#*127.0.0.1:}; port=${port%%/*}
  PGOPTIONS="-c client_min_messages=warning" psql -q -h 127.0.0.1 -p "$port" -U postgres statechart -c "DROP TABLE IF EXISTS statechart_schema, \
    statechart_sessions, statechart_applied, statechart_inbox, statechart_timers, statechart_outbox, statechart_faults"
}
echo "in memory (100 sessions x 100 events): $("$worker" memory "sqlite:$tmp/memory.sqlite" 100 100)"
for shape in "1 1000 1" "1 1000 10" "100 10 1" "100 10 10"; do
  set -- $shape      # sessions, events per session, events per claim
  what="$1 session(s), $3 event(s) per claim"
  echo "SQLite FULL, $what: $("$worker" bench "sqlite:$tmp/full-$1-$3.sqlite" "$1" "$2" "$3")"
  echo "SQLite NORMAL, $what: $("$worker" bench "sqlite-normal:$tmp/normal-$1-$3.sqlite" "$1" "$2" "$3")"
  drop
  echo "PostgreSQL 1 worker, $what: $("$worker" bench "$url" "$1" "$2" "$3")"
  drop
  "$worker" enqueue "$url" "$1" "$2"
  start=$(date +%s.%N)
  pids=()
  for n in 1 2 3 4; do "$worker" work "$url" "w$n" 120 300 "$3" & pids+=($!); done
  wait "${pids[@]}"
  end=$(date +%s.%N)
  # The workers exit after 300 ms idle with an empty backlog: that wait is taken off.
  echo "PostgreSQL 4 workers, $what: $(echo "$1 $2 $start $end" | awk '{e=$1*$2; t=$4-$3-0.3; printf "%d events in %.2f s: %.0f events/s", e, t, e/t}')"
  "$worker" verify "$url" "$1" "$2" >&2     # every event applied once (set -e stops otherwise)
done
