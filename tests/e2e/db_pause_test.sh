#!/usr/bin/env bash
# A database that stops answering for 30 s (a CloudNativePG switchover, a stalled disk) must not
# move every table (docs/table.md, "The lease"). Three table hosts on a PostgreSQL 15 of their
# own (scripts/stack.sh) hold unfinished games of Liar's dice; the clients are paused
# (SIGSTOP), then every PostgreSQL process is stopped for 30 s, six times the lease. Every host's
# heartbeat hangs meanwhile and each comes back with the others' heartbeats 30 s old: a host
# that claimed the tables of hosts it saw as silent would take them all. After the pause and three
# leases more, each table must be on the host it was on, its owner epoch unchanged; then the
# clients resume and play every game to its end, every acknowledged move stored.
# Usage: db_pause_test.sh BUILD_DIR [PAUSE_SECONDS]
set -euo pipefail
build="$1"
pause_seconds="${2:-30}"
# shellcheck disable=SC2034  # scripts/stack.sh names its folder after it
NAME=db-pause
# shellcheck source=scripts/stack.sh
source "$(dirname "$0")/../../scripts/stack.sh"
# shellcheck source=tests/support/table_load.sh
source "$(dirname "$0")/../support/table_load.sh"

# signal_pg SIGNAL: sends SIGNAL to the postmaster and every process it started.
signal_pg() {
  local postmaster pids
  postmaster="$(head -n 1 "$work/data/postmaster.pid")"
  mapfile -t pids < <(pgrep -P "$postmaster")
  kill "$1" "$postmaster" "${pids[@]}"
}
pause_cleanup() {
  signal_pg -CONT 2>/dev/null || true
  if [ -n "${load_pid:-}" ]; then kill -9 "$load_pid" 2>/dev/null || true; fi
  kahve_stop
}
trap pause_cleanup EXIT
fail() { fail_with_logs "$@"; }
query() { psql "$KAHVE_DATABASE" -v ON_ERROR_STOP=1 -qAtc "$1"; }
export KAHVE_MAX_CALLS_PER_SECOND=0

targets=()
for host in a b c; do
  "$build/services/kahve-table" --host 127.0.0.1 --port 0 --metrics_port 0 \
    --host_id "pause-$host" --drain_seconds 0 --rating_target 127.0.0.1:1 \
    >"$work/table-$host.log" 2>&1 &
  kahve_started "$work/table-$host.log" $! kahve-table
  targets+=("127.0.0.1:$(served_port "$work/table-$host.log" kahve-table)")
done
create_targets="$(IFS=,; echo "${targets[*]}")"
"$build/tools/kahve" load tables --target "${targets[0]}" --create_targets "$create_targets" \
  --tables 9 --games_per_table 1 --seconds 120 --concurrency 9 --ack_log "$work/acks" \
  >"$work/load.json" 2>"$work/load.err" &
load_pid=$!
await_acks 45 "the pause"
kill -STOP "$load_pid"
sleep 0.5   # the calls in flight are answered

holders() {
  query "SELECT table_id, host_id, owner_epoch FROM table_tables ORDER BY table_id"
}
before="$(holders)"
hosts_before="$(query "SELECT count(DISTINCT host_id) FROM table_tables WHERE finished_us IS NULL")"
[ "$hosts_before" -eq 3 ] || fail "unfinished tables on $hosts_before hosts, not 3: $before"

signal_pg -STOP
paused_at=$SECONDS
sleep "$pause_seconds"
signal_pg -CONT
echo "database paused for $((SECONDS - paused_at)) s"
# Three leases and a beat: long enough for any host to have claimed what it would.
sleep 16
after="$(holders)"
if [ "$after" != "$before" ]; then
  moved="$(diff <(echo "$before") <(echo "$after") | grep -c '^>' || true)"
  fail "$moved of $(echo "$before" | wc -l) tables changed hands after the pause:
$(diff <(echo "$before") <(echo "$after") || true)"
fi
kill -CONT "$load_pid"
await_complete_load
acked=$(wc -l <"$work/acks")
stored="$(stored_acks "$KAHVE_DATABASE" "$work/acks")"
[ "$stored" -eq "$acked" ] || fail "$stored of $acked acknowledged moves stored"
echo "ok: a ${pause_seconds} s database pause moved none of $(echo "$before" | wc -l) tables on 3 hosts;" \
  "every game then played to its end, $acked moves acknowledged and stored"
