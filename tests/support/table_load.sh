# shellcheck shell=bash disable=SC2154  # work, load_pid and fail come from the sourcing test
# Sourced by the e2e tests that play games with `kahve load tables` in the background while they
# break table hosts: their scratch space, waiting for that load and checking it played every game
# to the end.

# start_load_test DATABASE: a scratch folder ($work); the name and URL of a database on
# $admin_url's server for the caller to create ($database, $database_url); $pids, the processes to
# kill at the end; and an EXIT trap that stops the load ($load_pid) and those processes, drops the
# database and removes the folder.
start_load_test() {
  work="$(mktemp -d)"
  database="$1"
  database_url="${admin_url%/*}/$database"
  pids=()
  trap stop_load_test EXIT
}
stop_load_test() {
  kill "${load_pid:-}" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  psql "$admin_url" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}

# await_complete_load: waits for the load ($load_pid, its JSON in $work/load.json) and fails unless
# it exited 0 with every game finished and no table abandoned.
await_complete_load() {
  local status=0
  wait "$load_pid" || status=$?
  load_pid=""
  [ "$status" -eq 0 ] || fail "kahve load tables exited $status"
  grep -q '"complete": true' "$work/load.json" ||
    fail "not every game finished: $(cat "$work/load.json")"
  grep -q '"abandoned_tables": 0' "$work/load.json" ||
    fail "tables abandoned: $(cat "$work/load.json")"
}

# wait_serving LOG NAME PID: until LOG says NAME (kahve-rating, kahve-table, ...) serving; fails
# when process PID exits first or after 10 s.
wait_serving() {
  for _ in $(seq 200); do
    grep -q "\"msg\":\"$2 serving\"" "$1" && return 0
    kill -0 "$3" 2>/dev/null || fail "$2 exited at start"
    sleep 0.05
  done
  fail "$2 not serving after 10 s"
}

# fail_with_logs MESSAGE: prints MESSAGE, the end of every log in
# $work and the load's output, and exits 1.
fail_with_logs() {
  echo "FAIL: $*"
  for log in "$work"/*.log; do echo "--- $log"; tail -15 "$log"; done
  cat "$work/load.json" "$work/load.err" 2>/dev/null || true
  exit 1
}

# await_acks N WHAT: waits until the load has acknowledged N moves ($work/acks), failing with
# "the games ended before WHAT" when it ends first.
await_acks() {
  for _ in $(seq 400); do
    [ -f "$work/acks" ] && [ "$(wc -l <"$work/acks")" -ge "$1" ] && return
    kill -0 "$load_pid" 2>/dev/null || fail "the games ended before $2"
    sleep 0.025
  done
  fail "fewer than $1 moves acknowledged in 10 s, before $2"
}

# stored_acks URL ACK_LOG: how many of ACK_LOG's (table, seq) lines URL's table_log holds.
stored_acks() {
  psql "$1" -v ON_ERROR_STOP=1 -qAt <<SQL
CREATE TEMP TABLE acks (table_id text, seq bigint);
\copy acks FROM '$2' WITH (DELIMITER ' ')
SELECT count(*) FROM acks JOIN table_log USING (table_id, seq);
SQL
}

# free_ports N: N free TCP ports on 127.0.0.1, space-separated (for servers that must know their
# own port before they start, such as table hosts advertising themselves).
free_ports() {
  python3 -c '
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
for s in socks: s.close()' "$1"
}
