#!/usr/bin/env bash
# Runs the Node.js example client end to end: installs and builds the TypeScript client library it
# uses (scripts/web-build.sh: one npm ci at the repository's root, once per lock file), starts a
# throwaway PostgreSQL and the three services (scripts/stack.sh), mints two players' JWTs
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

# --- Node.js from Debian, the npm packages and @kahve/client (clients/typescript) ---------------
bash "$root/scripts/web-build.sh" >/dev/null || fail "scripts/web-build.sh"

# --- The stack: PostgreSQL, kahve-rating, kahve-table, kahve-matchmaking ------------------------
NAME=node-example
# shellcheck source=scripts/stack.sh
source "$root/scripts/stack.sh"

# No wait for the table host's first heartbeat: until matchmaking sees a live host, tickets just
# wait. --bot_fill=false: the example is a game between its two players, never against a bot.
kahve_start_services --pass_interval_ms 100 --bot_fill=false

# --- The client ---------------------------------------------------------------------------------
# Tokens as a deployment's identity provider would hand them out; here signed with the stack's
# HS256 secret (KAHVE_JWT_HS256_SECRET, set by scripts/stack.sh).
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
