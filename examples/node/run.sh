#!/usr/bin/env bash
# Runs the Node.js example client end to end: installs its npm packages into
# examples/node/node_modules (npm ci from the committed lock file, once per lock file), starts a
# throwaway PostgreSQL and the three services (bench/throwaway_pg.sh), mints two players' JWTs
# with `kahve token`, and runs play.js, which plays one game of Liar's dice against the stack.
# Everything it started is stopped and removed on exit. Exits with play.js's status.
#
# Usage: examples/node/run.sh [BUILD_DIR]    BUILD_DIR holds the built binaries (default: build/)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

fail() {
  echo "examples/node/run.sh: FAILED: $*" >&2
  exit 1
}

build="${1:-$root/build}"
[ -d "$build" ] || fail "no build folder $build: build the project first (cmake --preset default ...)"
build="$(cd "$build" && pwd)"

# --- Node.js and npm from Debian: scripts/install-deps.sh names them ---------------------------
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  [ "$(id -u)" -eq 0 ] || fail "node or npm missing: run scripts/install-deps.sh as root"
  bash "$root/scripts/install-deps.sh"
fi

# --- npm packages, from the committed lock file -----------------------------------------------
# npm ci starts from an empty node_modules, so it runs only when the lock file changed since the
# last install (the copy in node_modules marks a finished one).
marker="$here/node_modules/.kahve-installed-lock"
if ! cmp -s "$here/package-lock.json" "$marker"; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci in $here"
  cp "$here/package-lock.json" "$marker"
fi

# --- The stack: PostgreSQL, kahve-rating, kahve-table, kahve-matchmaking ------------------------
NAME=node-example
# shellcheck source=bench/throwaway_pg.sh
source "$root/bench/throwaway_pg.sh"

# The port a "<NAME> serving" line of LOG reports (the services below listen on any free port).
served_port() {
  sed -n "s/.*\"msg\":\"$2 serving\".*\"port\":\([0-9]*\).*/\1/p" "$1" | head -n 1
}
# kahve-table must know its port up front, to advertise it: take one the kernel calls free.
free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => {
    console.log(s.address().port); s.close(); });'
}

"$build/services/rating/kahve-rating" --port 0 --metrics_port 0 --drain_seconds 0 \
  >"$work/rating.log" 2>&1 &
bench_started "$work/rating.log" $! kahve-rating
rating_port="$(served_port "$work/rating.log" kahve-rating)"

table_port="$(free_port)"
"$build/services/kahve-table" --port "$table_port" --metrics_port 0 --host_id node-example \
  --advertise "127.0.0.1:$table_port" --rating_target "127.0.0.1:$rating_port" \
  --drain_seconds 0 >"$work/table.log" 2>&1 &
bench_started "$work/table.log" $! kahve-table

# No wait for the table host's first heartbeat: until matchmaking sees a live host, tickets just
# wait. --bot_fill=false: the example is a game between its two players, never against a bot.
"$build/services/kahve-matchmaking" --port 0 --metrics_port 0 \
  --rating_target "127.0.0.1:$rating_port" --pass_interval_ms 100 --bot_fill=false \
  --drain_seconds 0 >"$work/matchmaking.log" 2>&1 &
bench_started "$work/matchmaking.log" $! kahve-matchmaking
mm_port="$(served_port "$work/matchmaking.log" kahve-matchmaking)"

# --- The client ---------------------------------------------------------------------------------
# Tokens as a deployment's identity provider would hand them out; here signed with the stack's
# HS256 secret (KAHVE_JWT_HS256_SECRET, set by throwaway_pg.sh).
ana="$("$build/tools/kahve" token --player ana)"
bora="$("$build/tools/kahve" token --player bora)"
status=0
node "$here/play.js" --matchmaking "127.0.0.1:$mm_port" --rating "127.0.0.1:$rating_port" \
  --token "$ana" --token "$bora" --timeout 120 || status=$?
if [ "$status" -ne 0 ]; then
  for log in rating table matchmaking; do
    echo "== $log.log (last 20 lines)" >&2
    tail -n 20 "$work/$log.log" >&2
  done
  fail "play.js exited $status"
fi
echo "examples/node/run.sh: ok"
