#!/usr/bin/env bash
# Failover between table hosts (docs/table.md, "Ownership and failover"): three kahve-table
# processes, a kahve-matchmaking and a kahve-rating on one PostgreSQL. Bot clients
# (`kahve load tables --via_matchmaking`) queue 60 parties of two for Liar's dice; matchmaking
# learns the hosts from the table service (ListHosts, over gRPC only) and places each table on the
# least loaded, and hands out host 3 as the one entry address through which the clients make
# every call (host 3 serves or forwards). Mid-game host 1 is killed with SIGKILL and not started
# again: its tables must be claimed by the others, every game must finish, every acknowledged move
# must be in table_log, and every result must reach the rating service once.
# The lease is 2 s here (5 s by default) to keep the test short; the mechanism is the same.
# Usage: table_failover_test.sh KAHVE_TABLE KAHVE_RATING KAHVE_MATCHMAKING KAHVE_CLI ADMIN_URL_FILE
set -euo pipefail
table="$1"
rating="$2"
matchmaking="$3"
cli="$4"
admin_url="$(cat "$5")"
# shellcheck source=tests/support/table_load.sh
source "$(dirname "$0")/../support/table_load.sh"
start_load_test "e2e_table_failover_$$"
fail() { fail_with_logs "$@"; }

psql "$admin_url" -qc "CREATE DATABASE $database" >/dev/null
export KAHVE_DATABASE="$database_url"
export KAHVE_JWT_HS256_SECRET="e2e-secret-0123456789abcdef0123456789"
# Each driven player plays at machine speed: no per-identity call rate here (its own tests have it).
export KAHVE_MAX_CALLS_PER_SECOND=0
"$cli" migrate >/dev/null

# Fixed ports: each host advertises its own for the others to forward to.
read -r rating_port port1 port2 port3 mm_port < <(free_ports 5)

"$rating" --host 127.0.0.1 --port "$rating_port" --metrics_port 0 --drain_seconds 0 \
  >"$work/rating.log" 2>&1 &
pids+=($!)
wait_serving "$work/rating.log" kahve-rating "${pids[-1]}"

declare -A host_pid
for n in 1 2 3; do
  port_var="port$n"
  "$table" --host 127.0.0.1 --port "${!port_var}" --metrics_port 0 --host_id "host-$n" \
    --advertise "127.0.0.1:${!port_var}" --drain_seconds 0 --host_lease_seconds 2 \
    --host_heartbeat_seconds 0.5 --rating_target "127.0.0.1:$rating_port" --log_level info \
    >"$work/table$n.log" 2>&1 &
  host_pid[$n]=$!
  pids+=($!)
  wait_serving "$work/table$n.log" kahve-table "${host_pid[$n]}"
done

# The table service's address and the clients' entry address are both host 3's.
"$matchmaking" --host 127.0.0.1 --port "$mm_port" --metrics_port 0 --drain_seconds 0 \
  --table_target "127.0.0.1:$port3" --table_client_endpoint "127.0.0.1:$port3" \
  --rating_target "127.0.0.1:$rating_port" --pass_interval_ms 100 --log_level info \
  >"$work/matchmaking.log" 2>&1 &
pids+=($!)
wait_serving "$work/matchmaking.log" kahve-matchmaking "${pids[-1]}"

"$cli" load tables --target "127.0.0.1:$port3" --via_matchmaking \
  --matchmaking_target "127.0.0.1:$mm_port" --tables 60 \
  --games_per_table 1 --seconds 100 --concurrency 16 --ack_log "$work/acks" \
  >"$work/load.json" 2>"$work/load.err" &
load_pid=$!

# Mid-game: some moves acknowledged, the games far from over.
for _ in $(seq 600); do
  [ -f "$work/acks" ] && [ "$(wc -l <"$work/acks")" -ge 300 ] && break
  kill -0 "$load_pid" 2>/dev/null || fail "the load ended before the kill"
  sleep 0.025
done
held_by_1=$(psql "$database_url" -qAtc \
  "SELECT count(*) FROM table_tables WHERE host_id = 'host-1' AND finished_us IS NULL")
kill -9 "${host_pid[1]}"
killed_at=$(date +%s.%N)
acked_before=$(wc -l <"$work/acks")
[ "$held_by_1" -gt 0 ] || fail "host 1 held no unfinished table at the kill"

await_complete_load
acked=$(wc -l <"$work/acks")
[ "$acked" -gt "$acked_before" ] || fail "no move acknowledged after the kill"

# Every result reaches the rating service once (the outbox retries until acknowledged).
for _ in $(seq 300); do
  delivered=$(psql "$database_url" -qAtc "SELECT count(*) FROM table_outbox WHERE delivered_us IS NOT NULL")
  [ "$delivered" -ge 60 ] && break
  sleep 0.1
done

duplicates=$(sort "$work/acks" | uniq -d | wc -l)
[ "$duplicates" -eq 0 ] || fail "$duplicates (table, seq) pairs acknowledged twice"
result=$(psql "$database_url" -v ON_ERROR_STOP=1 -qAt <<SQL
CREATE TEMP TABLE acks (table_id text, seq bigint);
\copy acks FROM '$work/acks' WITH (DELIMITER ' ')
SELECT (SELECT count(*) FROM acks),
       (SELECT count(*) FROM acks a WHERE NOT EXISTS
          (SELECT 1 FROM table_log l WHERE l.table_id = a.table_id AND l.seq = a.seq)),
       (SELECT count(*) FROM table_tables),
       (SELECT count(*) FROM table_tables WHERE finished_us IS NOT NULL),
       (SELECT count(*) FROM table_tables WHERE host_id = 'host-1' AND finished_us IS NULL),
       (SELECT count(*) FROM table_tables WHERE owner_epoch > 1),
       (SELECT count(*) FROM table_outbox WHERE delivered_us IS NOT NULL),
       (SELECT count(*) FROM rating_matches),
       (SELECT count(DISTINCT match_id) FROM rating_matches),
       (SELECT count(*) FROM mm_matches WHERE state = 'placed'),
       (SELECT count(DISTINCT host_id) FROM mm_matches),
       (SELECT count(*) FROM mm_matches m JOIN table_tables t USING (match_id));
SQL
)
IFS='|' read -r stored_acks missing tables finished stranded moved delivered rated rated_once \
  placed placed_hosts matched_tables <<<"$result"
[ "$stored_acks" -eq "$acked" ] || fail "psql read $stored_acks of $acked acknowledgements"
[ "$missing" -eq 0 ] || fail "$missing acknowledged moves are not in table_log"
[ "$tables" -eq 60 ] || fail "$tables tables in table_tables, expected 60"
[ "$finished" -eq 60 ] || fail "only $finished of 60 tables finished"
[ "$stranded" -eq 0 ] || fail "$stranded tables left unfinished on the killed host"
[ "$moved" -ge "$held_by_1" ] || fail "only $moved tables changed hands, host 1 held $held_by_1"
[ "$delivered" -eq 60 ] || fail "$delivered of 60 results delivered to the rating service"
[ "$rated" -eq 60 ] && [ "$rated_once" -eq 60 ] || fail "rating_matches: $rated rows, $rated_once matches"
# Every game came through matchmaking, which spread its tables over the hosts.
[ "$placed" -eq 60 ] || fail "$placed of 60 matches placed by matchmaking"
[ "$matched_tables" -eq 60 ] || fail "$matched_tables of 60 tables belong to a matchmaking match"
[ "$placed_hosts" -eq 3 ] || fail "matchmaking placed tables on $placed_hosts hosts, expected 3"

# When each of host 1's tables was claimed, from the claiming hosts' logs.
claims=$(cat "$work/table2.log" "$work/table3.log" | grep -c '"msg":"table claimed' || true)
last_claim=$(cat "$work/table2.log" "$work/table3.log" | grep '"msg":"table claimed' |
  grep -o '"ts":"[^"]*"' | cut -d'"' -f4 | sort | tail -1)
failover=$(python3 -c "
import datetime, sys
last = datetime.datetime.fromisoformat('$last_claim'.rstrip('Z')).replace(tzinfo=datetime.timezone.utc)
print(f'{last.timestamp() - $killed_at:.1f}')")
echo "kahve-table failover: kill -9 of host 1 (holding $held_by_1 unfinished tables) after $acked_before"
echo "of $acked acknowledged moves; $claims claims by hosts 2 and 3, the last ${failover} s after the kill"
echo "(lease 2 s, heartbeat 0.5 s); 60 games placed by matchmaking on 3 hosts; every acknowledged"
echo "move stored, 60 of 60 games finished, each rated once"
echo "load: $(cat "$work/load.json")"
