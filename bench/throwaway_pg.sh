# Sourced by the load benchmarks: a throwaway PostgreSQL 15 with production durability (fsync and
# synchronous_commit on, the defaults), started as the `postgres` user when run as root, with a
# migrated database `kahve`. Needs `build` (the build folder) and NAME (for the temporary folder).
# Sets work, port, KAHVE_DATABASE and KAHVE_JWT_HS256_SECRET; throwaway_pg_stop removes it all.
pg_bin=/usr/lib/postgresql/15/bin
work="$(mktemp -d "/tmp/kahve-$NAME.XXXXXX")"
chmod 755 "$work"
run_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$work"
port=$(( 20000 + RANDOM % 20000 ))

throwaway_pg_stop() {
  run_pg "$pg_bin/pg_ctl" -D "$work/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap throwaway_pg_stop EXIT  # until the sourcing script sets its own cleanup

run_pg "$pg_bin/initdb" -D "$work/data" -U postgres -A trust >/dev/null
run_pg "$pg_bin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w \
  -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=256MB" start >/dev/null
run_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres kahve
export KAHVE_DATABASE="postgresql://postgres@127.0.0.1:$port/kahve"
export KAHVE_JWT_HS256_SECRET="load-test-secret-0123456789abcdef"
"$build/tools/kahve" migrate >/dev/null
