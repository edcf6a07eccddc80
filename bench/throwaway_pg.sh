# shellcheck shell=bash disable=SC2154  # `build` and NAME come from the sourcing script
# Sourced by the load benchmarks: a throwaway PostgreSQL 15 with production durability (fsync and
# synchronous_commit on, the defaults), started as the `postgres` user when run as root, with a
# migrated database `kahve`. Needs `build` (the build folder) and NAME (for the temporary folder).
# Sets work, port, KAHVE_DATABASE and KAHVE_JWT_HS256_SECRET. Services the script starts go in
# bench_pids (see bench_started); on exit they are stopped and all of it removed, unless KEEP is
# set (to look around afterwards).
pg_bin=/usr/lib/postgresql/15/bin
work="$(mktemp -d "/tmp/kahve-$NAME.XXXXXX")"
chmod 755 "$work"
run_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$work"
port=$(( 20000 + RANDOM % 20000 ))

bench_pids=()
bench_stop() {
  local pid
  for pid in "${bench_pids[@]}"; do
    if kill "$pid" 2>/dev/null; then wait "$pid" 2>/dev/null || true; fi
  done
  run_pg "$pg_bin/pg_ctl" -D "$work/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
[ -z "${KEEP:-}" ] && trap bench_stop EXIT

# bench_started LOG PID NAME: records PID for the cleanup and waits until LOG has NAME's
# "<NAME> serving" line (printing LOG and failing when it exits or never serves).
bench_started() {
  bench_pids+=("$2")
  for _ in $(seq 200); do
    grep -q "\"msg\":\"$3 serving\"" "$1" && return 0
    kill -0 "$2" 2>/dev/null || { cat "$1"; echo "$3 exited at start"; exit 1; }
    sleep 0.05
  done
  cat "$1"; echo "$3 did not start"; exit 1
}

run_pg "$pg_bin/initdb" -D "$work/data" -U postgres -A trust >/dev/null
run_pg "$pg_bin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w \
  -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=256MB" start >/dev/null
run_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres kahve
export KAHVE_DATABASE="postgresql://postgres@127.0.0.1:$port/kahve"
export KAHVE_JWT_HS256_SECRET="load-test-secret-0123456789abcdef"
"$build/tools/kahve" migrate >/dev/null
