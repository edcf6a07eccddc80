#!/usr/bin/env bash
# The rating service's figures on this machine: starts a throwaway PostgreSQL with production
# durability (fsync and synchronous_commit on), migrates it, starts kahve-rating, then runs
#   kahve load rating   RecordMatch over gRPC vs a comparable plain insert transaction
#   kahve load history  ListMatches pages for a player with 10,000 matches, with the query plan
# and prints their JSON. Usage: bench/rating_load.sh [BUILD_DIR] [SECONDS] [CONCURRENCY]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
seconds="${2:-10}"
concurrency="${3:-32}"
pg_bin=/usr/lib/postgresql/15/bin
work="$(mktemp -d /tmp/kahve-rating-load.XXXXXX)"
chmod 755 "$work"
run_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$work"
port=$(( 20000 + RANDOM % 20000 ))
cleanup() {
  [ -n "${rating_pid:-}" ] && kill "$rating_pid" 2>/dev/null && wait "$rating_pid" 2>/dev/null || true
  run_pg "$pg_bin/pg_ctl" -D "$work/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT  # leave it running for a look
run_pg "$pg_bin/initdb" -D "$work/data" -U postgres -A trust >/dev/null
run_pg "$pg_bin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w \
  -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=256MB" start >/dev/null
run_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres kahve
url="postgresql://postgres@127.0.0.1:$port/kahve"
export KAHVE_DATABASE="$url" KAHVE_JWT_HS256_SECRET="load-test-secret-0123456789abcdef"
"$build/tools/kahve" migrate >/dev/null
grpc_port=$(( port + 1 ))
"$build/services/rating/kahve-rating" --port "$grpc_port" --metrics_port 0 --db_pool_size 16 \
  --log_level warning --drain_seconds 0 &
rating_pid=$!
for _ in $(seq 100); do
  "$build/tools/kahve" load rating --target "127.0.0.1:$grpc_port" --seconds 0 --concurrency 1 \
    >/dev/null 2>&1 && break
  sleep 0.1
done
# Twice: first on the empty database (tables and indexes still growing, statistics not yet
# gathered), then on the warm one.
for pass in empty warm; do
  echo "== RecordMatch over gRPC into PostgreSQL vs plain insert transactions ($concurrency in flight, $pass database)"
  "$build/tools/kahve" load rating --target "127.0.0.1:$grpc_port" --seconds "$seconds" --concurrency "$concurrency"
done
echo "== ListMatches pages (20 each) for one player with 10,000 matches"
"$build/tools/kahve" load history --target "127.0.0.1:$grpc_port" --seconds "$seconds" --concurrency 8
