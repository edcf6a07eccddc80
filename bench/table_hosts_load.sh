#!/usr/bin/env bash
# Table hosts side by side on one PostgreSQL (production durability, scripts/stack.sh):
#   scale-out  durable moves/s with 1, 2 and 3 kahve-table hosts, the same TABLES and CONCURRENCY
#              split evenly, each share played straight on its own host (kahve load tables);
#              the sum per host count and its ratio to one host
#   failover   3 hosts with the default lease (5 s) and heartbeat (1 s); tables created round robin
#              on them and played through host 3 (one entry address); host 1 is killed with
#              SIGKILL mid-game. For each table host 1 held: the time from the kill to its claim
#              by another host (from the claimers' logs), p50 and p99, over RUNS kills
# Usage: bench/table_hosts_load.sh [BUILD_DIR] [SECONDS] [TABLES] [CONCURRENCY] [RUNS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
seconds="${2:-10}"
tables="${3:-600}"
concurrency="${4:-48}"
runs="${5:-3}"
NAME=table-hosts
# shellcheck source=scripts/stack.sh
source "$root/scripts/stack.sh"
# The load drivers play each player at machine speed: the servers measured here take calls
# without a per-identity rate (docs/operations.md, section 8).
export KAHVE_MAX_CALLS_PER_SECOND=0

rating_port=$(( port + 1 ))
"$build/services/rating/kahve-rating" --port "$rating_port" --metrics_port 0 \
  --drain_seconds 0 >"$work/rating.log" 2>&1 &
kahve_started "$work/rating.log" $! kahve-rating

host_pids=()
# start_hosts N [FLAGS...]: N table hosts host-1..N on ports port+11.., advertising them.
start_hosts() {
  local n="$1" i
  shift
  host_pids=()
  for i in $(seq "$n"); do
    "$build/services/kahve-table" --port $(( port + 10 + i )) --metrics_port 0 \
      --host_id "host-$i" --advertise "127.0.0.1:$(( port + 10 + i ))" --drain_seconds 0 \
      --rating_target "127.0.0.1:$rating_port" --log_level info "$@" >"$work/table$i.log" 2>&1 &
    host_pids+=($!)
    kahve_started "$work/table$i.log" $! kahve-table
  done
}
stop_hosts() {
  local pid
  for pid in "${host_pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  for pid in "${host_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  # The next phase starts from empty tables (no claims of this phase's leftovers).
  psql "$KAHVE_DATABASE" -qc "TRUNCATE table_tables, table_log, table_outbox; DELETE FROM table_hosts" \
    >/dev/null
}

echo "== scale-out: $tables Liar's dice tables, $concurrency moves in flight in all, ${seconds}s"
one_host=0
for n in 1 2 3; do
  start_hosts "$n"
  load_pids=()
  for i in $(seq "$n"); do
    "$build/tools/kahve" load tables --target "127.0.0.1:$(( port + 10 + i ))" \
      --tables $(( tables / n )) --seconds "$seconds" --concurrency $(( concurrency / n )) \
      >"$work/load$n-$i.json" 2>"$work/load$n-$i.err" &
    load_pids+=($!)
  done
  for pid in "${load_pids[@]}"; do wait "$pid"; done
  total=$(cat "$work"/load"$n"-*.json | python3 -c '
import json, sys
print(round(sum(json.loads(line)["play"]["per_second"] for line in sys.stdin if line.strip())))')
  [ "$n" -eq 1 ] && one_host=$total
  ratio=$(python3 -c "print(f'{$total / max($one_host, 1):.2f}')")
  echo "hosts $n: durable moves/s $total (ratio to 1 host: $ratio)"
  stop_hosts
done

echo "== failover: 3 hosts, lease 5 s, heartbeat 1 s; $tables tables; host 1 killed mid-game; $runs runs"
claims_file="$work/claims"
: >"$claims_file"
for run in $(seq "$runs"); do
  start_hosts 3
  "$build/tools/kahve" load tables --target "127.0.0.1:$(( port + 13 ))" \
    --create_targets "127.0.0.1:$(( port + 11 )),127.0.0.1:$(( port + 12 )),127.0.0.1:$(( port + 13 ))" \
    --tables "$tables" --seconds "$(( seconds + 20 ))" --concurrency "$concurrency" \
    >"$work/failover$run.json" 2>"$work/failover$run.err" &
  load_pid=$!
  sleep "$seconds"
  kill -9 "${host_pids[0]}"
  killed_at=$(date +%s.%N)
  wait "$load_pid" || true
  cat "$work/table2.log" "$work/table3.log" | grep '"msg":"table claimed' | grep '"from":"host-1"' |
    grep -o '"ts":"[^"]*"' | cut -d'"' -f4 | python3 -c "
import datetime, sys
for line in sys.stdin:
    t = datetime.datetime.fromisoformat(line.strip().rstrip('Z')).replace(tzinfo=datetime.timezone.utc)
    print(f'{t.timestamp() - $killed_at:.3f}')" >>"$claims_file"
  host_pids=("${host_pids[@]:1}")
  stop_hosts
done
python3 - "$claims_file" <<'EOF'
import statistics, sys
times = sorted(float(line) for line in open(sys.argv[1]) if line.strip())
if not times:
    sys.exit("no claims recorded")
def pct(q):
    return times[min(len(times) - 1, int(q * len(times)))]
print(f"tables failed over: {len(times)}; kill to claim: p50 {pct(0.5):.2f} s, "
      f"p99 {pct(0.99):.2f} s, max {times[-1]:.2f} s")
EOF
