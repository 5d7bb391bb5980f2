#!/usr/bin/env bash
# A private PostgreSQL server for the durable-session tests and examples, on 127.0.0.1 only.
#
#   scripts/postgres.sh start   installs Debian's postgresql if missing, creates a cluster in
#                               $STATECHART_PG_DIR (default /tmp/statechart-postgres) with initdb,
#                               starts it on a free loopback port, creates the database
#                               `statechart`, and prints `export STATECHART_POSTGRES_URL=...`
#                               (also written to $STATECHART_PG_DIR/url)
#   scripts/postgres.sh stop    stops that server and removes its folder
#
# As root the server runs as the `postgres` user (PostgreSQL refuses to run as root).
# Usage: eval "$(scripts/postgres.sh start)"; ...; scripts/postgres.sh stop
set -euo pipefail
dir="${STATECHART_PG_DIR:-/tmp/statechart-postgres}"

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bin_dir() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  [ -n "$found" ] && [ -x "$found/initdb" ] && echo "$found"
}

case "${1:-}" in
  start)
    if ! bin_dir >/dev/null; then
      echo "postgres.sh: installing postgresql" >&2
      sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
      $sudo apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
    fi
    bin=$(bin_dir) || { echo "postgres.sh: no initdb after installing postgresql" >&2; exit 1; }
    if [ -f "$dir/url" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      echo "export STATECHART_POSTGRES_URL=$(cat "$dir/url")"; exit 0
    fi
    rm -rf "$dir"; mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    # A port nothing listens on (bash's /dev/tcp connects only when something does).
    port=""
    for _ in $(seq 1 50); do
      candidate=$((20000 + RANDOM % 30000))
      if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port=$candidate; break; fi
    done
    [ -n "$port" ] || { echo "postgres.sh: no free port found" >&2; exit 1; }
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=100 -c fsync=on" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres statechart
    url="postgres://postgres@127.0.0.1:$port/statechart"
    echo "$url" >"$dir/url"
    echo "export STATECHART_POSTGRES_URL=$url"
    ;;
  stop)
    if bin=$(bin_dir) && [ -d "$dir/data" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: scripts/postgres.sh start|stop" >&2; exit 2 ;;
esac
