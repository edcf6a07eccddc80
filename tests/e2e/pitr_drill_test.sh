#!/usr/bin/env bash
# The point-in-time recovery drill (docs/operations.md, "Backup and restore"), on a PostgreSQL 15
# of its own (scripts/stack.sh) that archives its WAL: archive_mode on, an archive_command copying
# each segment to a folder. A base backup is taken as the doc says (pg_basebackup -Ft -z -Xs);
# then bot clients play Liar's dice on kahve-table (`kahve load tables`, which logs every
# acknowledged move). Mid-game the clients are paused (SIGSTOP): once the database is idle, its
# table_log is saved and its clock read: the moment T. The clients resume and play every game to
# its end, every acknowledged move stored. The base backup and the archived WAL are restored into
# a new data folder with recovery_target_time T and started on another port. Its table_log must be
# exactly the rows at T: every move acknowledged before T there, none of those acknowledged after.
# A fresh kahve-table on the restored database reloads the unfinished tables and plays new games
# to the end.
# Usage: pitr_drill_test.sh BUILD_DIR
set -euo pipefail
build="$1"
NAME=pitr-drill
started=$(date +%s%N)
# shellcheck source=scripts/stack.sh
source "$(dirname "$0")/../../scripts/stack.sh"
# shellcheck source=tests/support/table_load.sh
source "$(dirname "$0")/../support/table_load.sh"

restored="$work/restored"
restored_port=$((port + 1))
restored_url="postgresql://postgres@127.0.0.1:$restored_port/kahve"
drill_cleanup() {
  if [ -n "${load_pid:-}" ]; then kill -9 "$load_pid" 2>/dev/null || true; fi
  if [ -f "$restored/postmaster.pid" ]; then
    run_pg "$pg_bin/pg_ctl" -D "$restored" -m immediate stop >/dev/null 2>&1 || true
  fi
  kahve_stop
}
trap drill_cleanup EXIT

fail() { fail_with_logs "$@"; }
query() { psql "$1" -v ON_ERROR_STOP=1 -qAtc "$2"; }
export KAHVE_MAX_CALLS_PER_SECOND=0

# WAL archiving needs a restart; pg_ctl restart keeps stack.sh's server options.
run_pg mkdir "$work/archive"
for setting in "wal_level = replica" "archive_mode = on" \
  "archive_command = 'test ! -f $work/archive/%f && cp %p $work/archive/%f'"; do
  query "$KAHVE_DATABASE" "ALTER SYSTEM SET $setting"
done
run_pg "$pg_bin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w -m fast restart >/dev/null
[ "$(query "$KAHVE_DATABASE" "SHOW archive_mode")" = on ] || fail "archive_mode is not on"

run_pg "$pg_bin/pg_basebackup" -h 127.0.0.1 -p "$port" -U postgres -D "$work/base" -Ft -z -Xs \
  -c fast

# start_table LOG: kahve-table on KAHVE_DATABASE, any free port (set in table_port). The host id
# is fixed, so a host on the restored database reloads the tables this one left unfinished.
start_table() {
  "$build/services/kahve-table" --host 127.0.0.1 --port 0 --metrics_port 0 --host_id pitr-drill \
    --drain_seconds 0 --rating_target 127.0.0.1:1 --log_level info >"$1" 2>&1 &
  kahve_started "$1" $! kahve-table
  table_port="$(served_port "$1" kahve-table)"
}
# stop_table: stops the last kahve-table started, while its database is still up.
stop_table() {
  kill "${kahve_pids[-1]}"
  wait "${kahve_pids[-1]}" 2>/dev/null || true
}
start_table "$work/table.log"
"$build/tools/kahve" load tables --target "127.0.0.1:$table_port" --tables 6 --games_per_table 1 \
  --seconds 40 --concurrency 6 --ack_log "$work/acks" >"$work/load.json" 2>"$work/load.err" &
load_pid=$!
await_acks 60 "the pause"
kill -STOP "$load_pid"
acked_at_pause=$(wc -l <"$work/acks")
[ "$acked_at_pause" -ge 60 ] || fail "only $acked_at_pause moves acknowledged before the pause"
head -n "$acked_at_pause" "$work/acks" >"$work/acks_at_pause"

# The calls in flight at the pause are answered (their answers wait in the paused client); the
# database is idle once table_log stops growing. T is read inside that quiet spell.
log_rows() { query "$KAHVE_DATABASE" "SELECT count(*) FROM table_log"; }
rows=$(log_rows)
for _ in $(seq 50); do
  sleep 0.2
  previous=$rows
  rows=$(log_rows)
  [ "$rows" -eq "$previous" ] && break
done
[ "$rows" -eq "$previous" ] || fail "table_log still growing 10 s after the pause"
psql "$KAHVE_DATABASE" -v ON_ERROR_STOP=1 -qc \
  "\\copy (SELECT table_id, seq FROM table_log) TO '$work/log_at_t'"
target=$(query "$KAHVE_DATABASE" "SELECT clock_timestamp()")
[ "$(log_rows)" -eq "$rows" ] || fail "table_log changed around T"
saved=$(wc -l <"$work/log_at_t")
[ "$saved" -eq "$rows" ] || fail "saved $saved of $rows rows of table_log"
sleep 0.3
kill -CONT "$load_pid"
await_complete_load
acked=$(wc -l <"$work/acks")

# Every segment up to the last move reaches the archive before the server goes.
segment=$(query "$KAHVE_DATABASE" "SELECT pg_walfile_name(pg_switch_wal())")
for _ in $(seq 100); do
  archived=$(query "$KAHVE_DATABASE" "SELECT last_archived_wal >= '$segment' FROM pg_stat_archiver")
  [ "$archived" = t ] && break
  sleep 0.1
done
[ -f "$work/archive/$segment" ] || fail "WAL segment $segment not archived"
live_rows=$(log_rows)
stored=$(stored_acks "$KAHVE_DATABASE" "$work/acks")
[ "$stored" -eq "$acked" ] || fail "$stored of $acked acknowledged moves stored"
# A standby (the restore, until promoted) refuses to run with fewer connections than the primary.
max_connections=$(query "$KAHVE_DATABASE" "SHOW max_connections")
[ "$live_rows" -gt "$rows" ] || fail "no move stored after T"
stop_table
run_pg "$pg_bin/pg_ctl" -D "$work/data" -m fast stop >/dev/null

# The restore: the base backup, its WAL, then the archive up to T; promoted once there.
run_pg mkdir -m 700 "$restored"
run_pg tar -xzf "$work/base/base.tar.gz" -C "$restored"
run_pg tar -xzf "$work/base/pg_wal.tar.gz" -C "$restored/pg_wal"
run_pg tee -a "$restored/postgresql.auto.conf" >/dev/null <<CONF
restore_command = 'cp $work/archive/%f %p'
recovery_target_time = '$target'
recovery_target_action = 'promote'
archive_mode = off
CONF
run_pg touch "$restored/recovery.signal"
restore_started=$(date +%s%N)
# syncfs: the restore syncs the unpacked folder first, one file at a time by default (seconds).
options="-p $restored_port -k $work -c listen_addresses=127.0.0.1"
options+=" -c max_connections=$max_connections -c recovery_init_sync_method=syncfs"
run_pg "$pg_bin/pg_ctl" -D "$restored" -l "$work/restored-pg.log" -w -o "$options" start \
  >/dev/null || fail "the restored server did not start"
for _ in $(seq 200); do
  [ "$(query "$restored_url" "SELECT pg_is_in_recovery()")" = f ] && break
  sleep 0.1
done
[ "$(query "$restored_url" "SELECT pg_is_in_recovery()")" = f ] || fail "not promoted after 20 s"
restore_ms=$((($(date +%s%N) - restore_started) / 1000000))
grep -q 'recovery stopping before commit' "$work/restored-pg.log" ||
  fail "recovery did not stop at the target time"
"$build/tools/kahve" migrate --database "$restored_url" | grep -q '"applied": \[\]' ||
  fail "kahve migrate on the restored database applied migrations"

result=$(psql "$restored_url" -v ON_ERROR_STOP=1 -qAt <<SQL
CREATE TEMP TABLE at_t (table_id text, seq bigint);
\copy at_t FROM '$work/log_at_t'
CREATE TEMP TABLE acks (table_id text, seq bigint);
\copy acks FROM '$work/acks' WITH (DELIMITER ' ')
CREATE TEMP TABLE acks_at_pause (table_id text, seq bigint);
\copy acks_at_pause FROM '$work/acks_at_pause' WITH (DELIMITER ' ')
-- Acknowledged after T: not in table_log at T. The rest were stored by T (those in flight at the
-- pause too: answered before T, read by the client after it).
CREATE TEMP VIEW after_t AS SELECT * FROM acks a
  WHERE NOT EXISTS (SELECT 1 FROM at_t t WHERE (t.table_id, t.seq) = (a.table_id, a.seq));
SELECT (SELECT count(*) FROM (SELECT table_id, seq FROM table_log EXCEPT SELECT * FROM at_t) x),
       (SELECT count(*) FROM (SELECT * FROM at_t EXCEPT SELECT table_id, seq FROM table_log) x),
       (SELECT count(*) FROM acks_at_pause a WHERE NOT EXISTS
          (SELECT 1 FROM table_log l WHERE (l.table_id, l.seq) = (a.table_id, a.seq))),
       (SELECT count(*) FROM acks) - (SELECT count(*) FROM after_t),
       (SELECT count(*) FROM after_t),
       (SELECT count(*) FROM after_t a JOIN table_log l USING (table_id, seq)),
       (SELECT count(DISTINCT table_id) FROM after_t WHERE table_id IN (SELECT table_id FROM at_t)),
       (SELECT count(*) FROM table_tables WHERE finished_us IS NULL);
SQL
)
IFS='|' read -r extra missing missing_at_pause before_t after_t after_t_restored across \
  unfinished <<<"$result"
[ "$missing" -eq 0 ] || fail "$missing rows of table_log at T are not restored"
[ "$extra" -eq 0 ] || fail "$extra restored table_log rows were written after T"
[ "$missing_at_pause" -eq 0 ] || fail "$missing_at_pause moves acknowledged before T not restored"
[ "$before_t" -ge "$acked_at_pause" ] ||
  fail "$before_t moves acknowledged by T, $acked_at_pause by the pause before it"
[ "$after_t" -gt 0 ] || fail "no move acknowledged after T"
[ "$after_t_restored" -eq 0 ] || fail "$after_t_restored moves acknowledged after T were restored"
[ "$across" -gt 0 ] || fail "no table has moves on both sides of T"
[ "$unfinished" -gt 0 ] || fail "every game had ended by T"

# The system works on the restored database: a host reloads the unfinished tables and plays.
export KAHVE_DATABASE="$restored_url"
start_table "$work/restored-table.log"
reloaded=$(sed -n 's/.*"msg":"tables reloaded","tables":"\([0-9]*\)".*/\1/p' \
  "$work/restored-table.log")
[ "${reloaded:-0}" -eq "$unfinished" ] || fail "reloaded ${reloaded:-no} of $unfinished tables"
"$build/tools/kahve" load tables --target "127.0.0.1:$table_port" --tables 2 --games_per_table 1 \
  --seconds 20 --concurrency 2 --ack_log "$work/acks_restored" >"$work/load.json" \
  2>"$work/load.err" &
load_pid=$!
await_complete_load
played=$(wc -l <"$work/acks_restored")
stored=$(stored_acks "$restored_url" "$work/acks_restored")
[ "$played" -gt 0 ] || fail "no move acknowledged after the restore"
[ "$stored" -eq "$played" ] || fail "$stored of $played moves after the restore stored"
stop_table

echo "PITR drill: $acked moves acknowledged, $before_t before T and $after_t after (on $across" \
  "tables across T); restored to T in ${restore_ms} ms: table_log's $rows rows at T" \
  "exactly ($live_rows live), $unfinished unfinished tables reloaded, $played moves played after"
echo "the restore; $((($(date +%s%N) - started) / 1000000)) ms in all"
