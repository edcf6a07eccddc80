#!/usr/bin/env bash
# Crash safety of kahve-table: 50 games played by bot clients (`kahve load tables`) that log every
# move the server acknowledged; kahve-table is killed with SIGKILL mid-game and started again on
# the same port; the clients retry (same request ids) until every game is over. Then PostgreSQL
# must hold every acknowledged (table, seq) in table_log, and all 50 tables must be finished.
# Usage: table_kill9_test.sh KAHVE_TABLE KAHVE_CLI ADMIN_URL_FILE
set -euo pipefail
table="$1"
cli="$2"
admin_url="$(cat "$3")"
work="$(mktemp -d)"
database="e2e_table_kill9_$$"
database_url="${admin_url%/*}/$database"
cleanup() {
  kill "${load_pid:-}" 2>/dev/null || true
  kill -9 "${pid:-}" 2>/dev/null || true
  psql "$admin_url" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*"
  tail -20 "$work/table.log" 2>/dev/null || true
  cat "$work/load.json" "$work/load.err" 2>/dev/null || true
  exit 1
}
# shellcheck source=tests/support/table_load.sh
source "$(dirname "$0")/../support/table_load.sh"

psql "$admin_url" -qc "CREATE DATABASE $database" >/dev/null
export KAHVE_DATABASE="$database_url"
export KAHVE_JWT_HS256_SECRET="e2e-secret-0123456789abcdef0123456789"
# Each driven player plays at machine speed: no per-identity call rate here (its own tests have it).
export KAHVE_MAX_CALLS_PER_SECOND=0
"$cli" migrate >/dev/null

# start_table PORT: starts kahve-table (fixed host id, so a restart reloads its tables) and waits
# until it serves; sets pid and port.
start_table() {
  "$table" --host 127.0.0.1 --port "$1" --metrics_port 0 --host_id e2e-kill9 --drain_seconds 0 \
    --rating_target 127.0.0.1:1 --log_level info >>"$work/table.log" 2>&1 &
  pid=$!
  local before
  before=$(grep -c '"msg":"kahve-table serving"' "$work/table.log" || true)
  for _ in $(seq 200); do
    [ "$(grep -c '"msg":"kahve-table serving"' "$work/table.log" || true)" -gt "$before" ] && break
    kill -0 "$pid" 2>/dev/null || fail "kahve-table exited at start"
    sleep 0.05
  done
  port=$(grep -o '"msg":"server started".*' "$work/table.log" | tail -1 | grep -o '"port":[0-9]*' |
    cut -d: -f2)
  [ -n "$port" ] && [ "$port" -gt 0 ] || fail "no port logged"
}

start_table 0
"$cli" load tables --target "127.0.0.1:$port" --tables 50 --games_per_table 1 --seconds 45 \
  --concurrency 16 --ack_log "$work/acks" >"$work/load.json" 2>"$work/load.err" &
load_pid=$!

# Mid-game: some moves acknowledged, the games far from over (a game takes dozens of moves).
for _ in $(seq 400); do
  [ "$(wc -l <"$work/acks" 2>/dev/null || echo 0)" -ge 300 ] && break
  kill -0 "$load_pid" 2>/dev/null || fail "the load ended before the kill"
  sleep 0.025
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
acked_before=$(wc -l <"$work/acks")
[ "$acked_before" -ge 300 ] || fail "only $acked_before moves acknowledged before the kill"
sleep 0.5
start_table "$port"
reloaded=$(grep -o '"msg":"tables reloaded","tables":"[0-9]*"' "$work/table.log" | tail -1 |
  grep -o '[0-9]*"$' | tr -d '"')
[ "${reloaded:-0}" -gt 0 ] || fail "no tables reloaded after the restart"

await_complete_load
acked=$(wc -l <"$work/acks")
[ "$acked" -gt "$acked_before" ] || fail "no move acknowledged after the restart"

# Two acknowledgements of one (table, seq) would mean a second move took an acknowledged one's
# place; every acknowledged entry must be stored; every table must be over.
duplicates=$(sort "$work/acks" | uniq -d | wc -l)
[ "$duplicates" -eq 0 ] || fail "$duplicates (table, seq) pairs acknowledged twice"
result=$(psql "$database_url" -v ON_ERROR_STOP=1 -qAt <<SQL
CREATE TEMP TABLE acks (table_id text, seq bigint);
\copy acks FROM '$work/acks' WITH (DELIMITER ' ')
SELECT (SELECT count(*) FROM acks),
       (SELECT count(*) FROM acks a WHERE NOT EXISTS
          (SELECT 1 FROM table_log l WHERE l.table_id = a.table_id AND l.seq = a.seq)),
       (SELECT count(DISTINCT table_id) FROM acks),
       (SELECT count(*) FROM table_tables),
       (SELECT count(*) FROM table_tables WHERE finished_us IS NOT NULL);
SQL
)
IFS='|' read -r stored_acks missing ack_tables tables finished <<<"$result"
[ "$stored_acks" -eq "$acked" ] || fail "psql read $stored_acks of $acked acknowledgements"
[ "$missing" -eq 0 ] || fail "$missing acknowledged moves are not in table_log"
[ "$tables" -eq 50 ] || fail "$tables tables in table_tables, expected 50"
[ "$finished" -eq 50 ] || fail "only $finished of 50 tables finished"
[ "$ack_tables" -eq 50 ] || fail "acknowledged moves on $ack_tables tables, expected 50"
echo "kahve-table: kill -9 after $acked_before of $acked acknowledged moves, $reloaded tables reloaded;"
echo "every acknowledged move stored, 50 of 50 games finished"
echo "load: $(cat "$work/load.json")"
