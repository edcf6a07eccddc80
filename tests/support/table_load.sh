# shellcheck shell=bash disable=SC2154  # work, load_pid and fail come from the sourcing test
# Sourced by the e2e tests that play games with `kahve load tables` in the background while they
# break table hosts: waiting for that load and checking it played every game to the end.

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
