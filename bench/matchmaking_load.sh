#!/usr/bin/env bash
# Matchmaking's figures on this machine, end to end: starts a throwaway PostgreSQL with production
# durability (fsync and synchronous_commit on), migrates it, starts kahve-rating, one kahve-table
# and kahve-matchmaking (a pass every 50 ms), then runs
#   kahve load matchmaking   CONCURRENCY virtual players, each queuing alone for a 2-player Liar's
#                            dice table and watching the ticket until matched, then again as a new
#                            player, for SECONDS: tickets matched/s, enqueue-to-assignment latency,
#                            assignment checks; then the health check at the same concurrency
# and prints its JSON, then the matchmaker's pass metrics and the CPU seconds each process used.
# The tables matchmaking creates get an away grace of an hour: their players never connect, and
# with the default (10 s) bots would play every table out on the table host during the run.
# Usage: bench/matchmaking_load.sh [BUILD_DIR] [SECONDS] [CONCURRENCY]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
seconds="${2:-10}"
concurrency="${3:-256}"
NAME=matchmaking-load
# shellcheck source=scripts/stack.sh
source "$root/scripts/stack.sh"
# The load drivers play each player at machine speed: the servers measured here take calls
# without a per-identity rate (docs/operations.md, section 8).
export KAHVE_MAX_CALLS_PER_SECOND=0
# The CPU seconds (user + system) so far of the given processes, summed.
cpu_seconds() {
  local ticks=0 pid
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] || continue
    # Fields after the command (which may hold spaces): utime and stime are the 12th and 13th.
    ticks=$(( ticks + $(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}') ))
  done
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }'
}
# PostgreSQL's: the postmaster's and its backends' (those alive now).
pg_cpu_seconds() {
  local main pids
  main=$(head -1 "$work/data/postmaster.pid")
  read -ra pids <<<"$main $(pgrep -P "$main" | tr '\n' ' ')"
  cpu_seconds "${pids[@]}"
}

rating_port=$(( port + 1 ))
table_port=$(( port + 2 ))
mm_port=$(( port + 3 ))
mm_metrics_port=$(( port + 4 ))
table_metrics_port=$(( port + 5 ))
"$build/services/rating/kahve-rating" --port "$rating_port" --metrics_port 0 \
  --drain_seconds 0 >"$work/rating.log" 2>&1 &
rating_pid=$!
kahve_started "$work/rating.log" "$rating_pid" kahve-rating
"$build/services/kahve-table" --port "$table_port" --metrics_port "$table_metrics_port" --host_id bench \
  --advertise "127.0.0.1:$table_port" --rating_target "127.0.0.1:$rating_port" \
  --drain_seconds 0 >"$work/table.log" 2>&1 &
table_pid=$!
kahve_started "$work/table.log" "$table_pid" kahve-table
# Matchmaking places tables only on hosts whose heartbeat is fresh: wait for the first one.
for _ in $(seq 100); do
  fresh=$(psql "$KAHVE_DATABASE" -Atc "SELECT count(*) FROM table_hosts WHERE host_id = 'bench' AND
    NOT draining AND heartbeat_us > (extract(epoch FROM clock_timestamp()) * 1e6)::bigint - 5000000")
  [ "$fresh" = 1 ] && break
  sleep 0.05
done
[ "$fresh" = 1 ] || { cat "$work/table.log"; echo "kahve-table never registered"; exit 1; }
# The virtual players share 4 connections: their watch streams are not bounded per connection.
"$build/services/kahve-matchmaking" --port "$mm_port" --metrics_port "$mm_metrics_port" \
  --rating_target "127.0.0.1:$rating_port" --table_target "127.0.0.1:$table_port" \
  --pass_interval_ms 50 --away_grace_seconds 3600 \
  --max_streams_per_connection 0 --drain_seconds 0 >"$work/matchmaking.log" 2>&1 &
mm_pid=$!
kahve_started "$work/matchmaking.log" "$mm_pid" kahve-matchmaking

echo "== $concurrency virtual players queuing for 2-player Liar's dice, ${seconds}s; then the health check at the same concurrency"
before=("$(cpu_seconds "$mm_pid")" "$(cpu_seconds "$table_pid")" "$(cpu_seconds "$rating_pid")"
        "$(pg_cpu_seconds)")
status=0
"$build/tools/kahve" load matchmaking --target "127.0.0.1:$mm_port" --seconds "$seconds" \
  --concurrency "$concurrency" || status=$?

echo "== matchmaker metrics (whole run)"
curl -s "http://127.0.0.1:$mm_metrics_port/metrics" |
  grep -E '^kahve_(matchmaking_pass_seconds_(sum|count)|matches_formed_total|matchmaking_wait_seconds_(sum|count)|matchmaking_tickets)' || true
echo "== table host metrics (whole run): CreateTable, log commits, tables, bot moves (0: the tables sat idle)"
curl -s "http://127.0.0.1:$table_metrics_port/metrics" |
  grep -E '^(grpc_server_handling_seconds_(sum|count)\{[^}]*CreateTable|kahve_event_log_commit_seconds_(sum|count)|kahve_tables_active|kahve_bot_moves_total)' || true
echo "== CPU seconds during the load (both phases): matchmaking, table, rating, postgres"
echo "$(cpu_seconds "$mm_pid") $(cpu_seconds "$table_pid") $(cpu_seconds "$rating_pid") $(pg_cpu_seconds)" |
  awk -v b="${before[*]}" '{ split(b, x, " "); printf "%.1f %.1f %.1f %.1f\n", $1 - x[1], $2 - x[2], $3 - x[3], $4 - x[4] }'
echo "== warnings and errors in the matchmaking log: $(grep -c '"level":"\(warning\|error\)"' "$work/matchmaking.log" || true)"
exit "$status"
