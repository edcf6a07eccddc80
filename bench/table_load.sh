#!/usr/bin/env bash
# The table service's figures on this machine: starts a throwaway PostgreSQL with production
# durability (fsync and synchronous_commit on), migrates it, starts kahve-rating and kahve-table,
# then runs
#   kahve load tables   TABLES Liar's dice tables played by bot clients for SECONDS, with
#                       CONCURRENCY moves in flight: acknowledged (durable) moves/s and latency,
#                       beside a health check's at the same concurrency on the same server
#   idle tables         IDLE tables created on a second, empty kahve-table (its own host id, so
#                       it reloads none of the first one's): its RSS per table
# and prints their JSON.
# Usage: bench/table_load.sh [BUILD_DIR] [SECONDS] [TABLES] [CONCURRENCY] [IDLE]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
seconds="${2:-10}"
tables="${3:-1000}"
concurrency="${4:-64}"
idle="${5:-10000}"
NAME=table-load
# shellcheck source=scripts/stack.sh
source "$root/scripts/stack.sh"
# The load drivers play each player at machine speed: the servers measured here take calls
# without a per-identity rate (docs/operations.md, section 8).
export KAHVE_MAX_CALLS_PER_SECOND=0
# start_table LOG HOST_ID PORT: starts kahve-table and waits until it serves; sets started_pid.
start_table() {
  "$build/services/kahve-table" --port "$3" --metrics_port 0 --host_id "$2" \
    --rating_target "127.0.0.1:$rating_port" --drain_seconds 0 >"$1" 2>&1 &
  started_pid=$!
  kahve_started "$1" "$started_pid" kahve-table
}

rating_port=$(( port + 1 ))
"$build/services/rating/kahve-rating" --port "$rating_port" --metrics_port 0 \
  --drain_seconds 0 >"$work/rating.log" 2>&1 &
kahve_started "$work/rating.log" $! kahve-rating
table_port=$(( port + 2 ))
start_table "$work/table.log" bench "$table_port"

echo "== $tables Liar's dice tables, bot clients, $concurrency moves in flight, ${seconds}s; then the health check at the same concurrency"
"$build/tools/kahve" load tables --target "127.0.0.1:$table_port" --tables "$tables" \
  --seconds "$seconds" --concurrency "$concurrency"

idle_port=$(( port + 3 ))
start_table "$work/idle.log" bench-idle "$idle_port"
idle_pid=$started_pid
echo "== $idle idle tables on a fresh kahve-table: its RSS per table"
"$build/tools/kahve" load tables --target "127.0.0.1:$idle_port" --tables 0 \
  --idle_tables "$idle" --server_pid "$idle_pid" --concurrency "$concurrency"
