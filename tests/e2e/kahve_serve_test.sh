#!/usr/bin/env bash
# `kahve serve --all`: refuses what it cannot do with a precise message; runs the three services in
# one process, wired to each other (`kahve demo` plays a game through them, its result reaching
# the history, `kahve replay` prints its games); and on SIGTERM stops them all and exits 0. Also
# `kahve demo`'s refusals.
# Usage: kahve_serve_test.sh KAHVE_CLI ADMIN_URL_FILE
set -euo pipefail
cli="$1"
admin_url="$(cat "$2")"
work="$(mktemp -d)"
database="e2e_serve_$$"
trap 'kill "${pid:-}" 2>/dev/null || true; psql "$admin_url" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1; rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; cat "$work/log" 2>/dev/null || true; exit 1; }

# refuses EXPECTED_TEXT ARGS...: the command exits 2 and says EXPECTED_TEXT on stderr.
refuses() {
  local expected="$1" status=0
  shift
  "$cli" "$@" >"$work/out" 2>"$work/err" || status=$?
  [ "$status" -eq 2 ] || fail "kahve $* exited $status, not 2"
  grep -qF -- "$expected" "$work/err" || fail "kahve $* did not say \"$expected\": $(cat "$work/err")"
}
refuses "which services? (--all for all three)" serve
refuses "--all and service names together" serve --all table
refuses "no service \"tables\"" serve tables
refuses "--port and --metrics_port can only be -1 (defaults) or 0 (free)" serve --all --port 50051
refuses "--port and --metrics_port can only be -1 (defaults) or 0 (free)" serve rating --metrics_port 9093
refuses "players' tokens are signed with" demo
export KAHVE_JWT_HS256_SECRET="e2e-secret-0123456789abcdef0123456789"
refuses "no ruleset \"chess\"" demo --rulesets liars_dice,chess
refuses "unexpected argument \"now\"" demo now

source "$(dirname "$0")/../support/serve_all.sh"
start_serve_all e2e-serve
rating_port="$(port_of kahve-rating)"
mm_port="$(port_of kahve-matchmaking)"
[ -n "$(port_of kahve-table)" ] || fail "no kahve-table in the process"

# The demo reaches the table through the endpoint matchmaking hands out, and its history check
# passes only if the table found the in-process rating service on its own (no --rating_target).
"$cli" demo --matchmaking_target "127.0.0.1:$mm_port" --rating_target "127.0.0.1:$rating_port" \
  >"$work/demo" 2>&1 || { cat "$work/demo"; fail "kahve demo against kahve serve --all"; }
grep -q '^== demo done: ' "$work/demo" || fail "demo output: $(tail -n 3 "$work/demo")"

# `kahve replay` fetches each finished demo game from the table service (GetReplay, with a token
# it signs) and prints seat 0's transcript down to the result.
table_port="$(port_of kahve-table)"
sed -n 's/^== \([a-z0-9_]*\): table \([^ ]*\) at .*/\1 \2/p' "$work/demo" >"$work/tables"
[ -s "$work/tables" ] || fail "no table ids in the demo's output"
while read -r ruleset table; do
  "$cli" replay "$table" --target "127.0.0.1:$table_port" --seat 0 >"$work/replay" 2>&1 ||
    fail "kahve replay $table: $(cat "$work/replay")"
  for line in "ruleset $ruleset: " "seen by seat 0 " "move 1, seat " "result: "; do
    grep -q "^$line" "$work/replay" || fail "kahve replay $table: no \"$line\": $(head "$work/replay")"
  done
done <"$work/tables"
status=0
"$cli" replay t-no-such-table --target "127.0.0.1:$table_port" >"$work/replay" 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "kahve replay of no table exited $status, not 1"

kill -TERM "$pid"
status=0
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "kahve serve still running 30 s after SIGTERM"
wait "$pid" || status=$?
[ "$status" -eq 0 ] || fail "kahve serve exited $status after SIGTERM"
[ "$(grep -c '"msg":"server stopped"' "$work/log")" -eq 3 ] || fail "not every server stopped: $(grep -c '"msg":"server stopped"' "$work/log")"

# As in a cluster whose assignments name the public entry address (k8s/README.md, the smoke
# check): unreachable from here, so the game is played only if --demo_table_target is followed.
psql "$admin_url" -qc "DROP DATABASE $database WITH (FORCE)" >/dev/null
KAHVE_TABLE_CLIENT_ENDPOINT=kahve.invalid:443 start_serve_all e2e-serve-entry
"$cli" demo --rulesets liars_dice --matchmaking_target "127.0.0.1:$(port_of kahve-matchmaking)" \
  --rating_target "127.0.0.1:$(port_of kahve-rating)" \
  --demo_table_target "127.0.0.1:$(port_of kahve-table)" >"$work/demo" 2>&1 ||
  { cat "$work/demo"; fail "kahve demo --demo_table_target"; }
grep -q '^== demo done: ' "$work/demo" || fail "demo output: $(tail -n 3 "$work/demo")"
kill -TERM "$pid"
wait "$pid" || fail "kahve serve exited $? after SIGTERM"
echo "ok: kahve serve --all refused bad input, served a demo game end to end (replayed by kahve replay) and stopped cleanly; a demo played through --demo_table_target"
