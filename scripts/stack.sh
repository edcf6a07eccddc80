# shellcheck shell=bash disable=SC2154  # `build` and NAME come from the sourcing script
# Sourced by the local stack, the load benchmarks and the Node.js example: a throwaway PostgreSQL
# 15 with production durability (fsync and synchronous_commit on, the defaults), started as the
# `postgres` user when run as root, with a migrated database `kahve`; and the services on top.
#
# Needs `build` (the build folder) and NAME (for the temporary folder). May preset `work` (the
# folder for the database and logs; emptied first) and `port` (PostgreSQL's), or `pg_admin_url`
# (a running server's admin URL, e.g. ctest's `pg` fixture: a fresh database there, dropped at the
# end, instead of a server of our own). Sets work, port, KAHVE_DATABASE and KAHVE_JWT_HS256_SECRET
# (kept when already set). Services started through kahve_started go in kahve_pids; on exit they
# are stopped and all of `work` removed, unless KEEP is set (to look around afterwards).
pg_bin=/usr/lib/postgresql/15/bin
if [ -n "${work:-}" ]; then
  rm -rf "$work"
  mkdir -p "$work"
else
  work="$(mktemp -d "/tmp/kahve-$NAME.XXXXXX")"
fi
chmod 755 "$work"
run_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$work"
port="${port:-$(( 20000 + RANDOM % 20000 ))}"

kahve_pids=()
kahve_stop() {
  local pid
  for pid in "${kahve_pids[@]}"; do
    if kill "$pid" 2>/dev/null; then wait "$pid" 2>/dev/null || true; fi
  done
  if [ -n "${pg_admin_url:-}" ]; then
    psql "$pg_admin_url" -qc "DROP DATABASE IF EXISTS $pg_database WITH (FORCE)" >/dev/null 2>&1 || true
  else
    run_pg "$pg_bin/pg_ctl" -D "$work/data" -m fast stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
[ -z "${KEEP:-}" ] && trap kahve_stop EXIT

# kahve_started LOG PID NAME: records PID for the cleanup and waits until LOG has NAME's
# "<NAME> serving" line (printing LOG and failing when it exits or never serves).
kahve_started() {
  kahve_pids+=("$2")
  for _ in $(seq 200); do
    grep -qs "\"msg\":\"$3 serving\"" "$1" && return 0
    kill -0 "$2" 2>/dev/null || { cat "$1"; echo "$3 exited at start"; exit 1; }
    sleep 0.05
  done
  cat "$1"; echo "$3 did not start"; exit 1
}

# served_port LOG NAME: the port NAME's "<NAME> serving" line in LOG reports.
served_port() {
  sed -n "s/.*\"msg\":\"$2 serving\".*\"port\":\([0-9]*\).*/\1/p" "$1" | head -n 1
}

# kahve_start_services [MATCHMAKING FLAG...]: kahve-rating, kahve-table and kahve-matchmaking from
# `build`, logging to $work/<service>.log. Their gRPC ports are rating_port, table_port and
# mm_port when preset, else free ones (table: PostgreSQL's + 2), and are set on return; /metrics
# ports are the defaults when default_metrics is set, else free ones.
kahve_start_services() {
  local metrics=0
  [ -n "${default_metrics:-}" ] && metrics=-1
  "$build/services/rating/kahve-rating" --port "${rating_port:-0}" --metrics_port "$metrics" \
    --drain_seconds 0 >"$work/rating.log" 2>&1 &
  kahve_started "$work/rating.log" $! kahve-rating
  rating_port="$(served_port "$work/rating.log" kahve-rating)"

  table_port="${table_port:-$(( port + 2 ))}"
  "$build/services/kahve-table" --port "$table_port" --metrics_port "$metrics" \
    --host_id "$NAME" --advertise "127.0.0.1:$table_port" --rating_target "127.0.0.1:$rating_port" \
    --drain_seconds 0 >"$work/table.log" 2>&1 &
  kahve_started "$work/table.log" $! kahve-table

  "$build/services/kahve-matchmaking" --port "${mm_port:-0}" --metrics_port "$metrics" \
    --rating_target "127.0.0.1:$rating_port" --table_target "127.0.0.1:$table_port" \
    --drain_seconds 0 "$@" \
    >"$work/matchmaking.log" 2>&1 &
  kahve_started "$work/matchmaking.log" $! kahve-matchmaking
  mm_port="$(served_port "$work/matchmaking.log" kahve-matchmaking)"
}

if [ -n "${pg_admin_url:-}" ]; then
  pg_database="stack_${NAME//[^a-z0-9]/_}_$$_$RANDOM"
  psql "$pg_admin_url" -qc "CREATE DATABASE $pg_database" >/dev/null
  export KAHVE_DATABASE="${pg_admin_url%/*}/$pg_database"
else
  run_pg "$pg_bin/initdb" -D "$work/data" -U postgres -A trust >/dev/null
  run_pg "$pg_bin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w \
    -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=256MB" start >/dev/null
  run_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres kahve
  export KAHVE_DATABASE="postgresql://postgres@127.0.0.1:$port/kahve"
fi
export KAHVE_JWT_HS256_SECRET="${KAHVE_JWT_HS256_SECRET:-load-test-secret-0123456789abcdef}"
"$build/tools/kahve" migrate >/dev/null
