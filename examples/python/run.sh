#!/usr/bin/env bash
# Runs the Python example client end to end: starts a throwaway PostgreSQL and the three services
# (scripts/stack.sh), generates the kahve.v1 Python code from proto/ into the stack's temporary
# folder (never into the repository), mints one JWT per player with `kahve token`, and runs
# play.py, which plays one game of every ruleset. Everything it started is stopped and removed on
# exit. Exits with play.py's status.
#
# Usage: examples/python/run.sh [BUILD_DIR]    BUILD_DIR holds the built binaries (default: build/)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

fail() {
  echo "examples/python/run.sh: FAILED: $*" >&2
  exit 1
}

build="${1:-$root/build}"
[ -d "$build" ] || fail "no build folder $build: build the project first (cmake --preset default)"
build="$(cd "$build" && pwd)"

# --- Debian's Python, grpcio and protobuf; protoc and gRPC's Python plugin -----------------------
# /usr/bin/python3 by its full path: another python3 first on PATH (pyenv, a venv) lacks Debian's
# modules. scripts/install-deps.sh names the packages.
python=/usr/bin/python3
plugin=/usr/bin/grpc_python_plugin
if ! "$python" -c 'import grpc, google.protobuf' 2>/dev/null || ! command -v protoc >/dev/null ||
  [ ! -x "$plugin" ]; then
  [ "$(id -u)" -eq 0 ] ||
    fail "python3-grpcio, python3-protobuf or protoc missing: run scripts/install-deps.sh as root"
  bash "$root/scripts/install-deps.sh"
fi

# --- The stack: PostgreSQL, kahve-rating, kahve-table, kahve-matchmaking ------------------------
NAME="python-example"
# shellcheck source=scripts/stack.sh
source "$root/scripts/stack.sh"

# The system protoc (3.21) with gRPC's plugin: python3-grpc-tools bundles an older protoc that
# refuses proto3 `optional`. The output is kahve/v1/*_pb2.py and *_pb2_grpc.py.
gen="$work/python"
mkdir -p "$gen"
protoc -I "$root/proto" --python_out="$gen" --grpc_python_out="$gen" \
  --plugin=protoc-gen-grpc_python="$plugin" "$root"/proto/kahve/v1/*.proto ||
  fail "protoc could not generate the Python code"

# No wait for the table host's first heartbeat: until matchmaking sees a live host, tickets just
# wait. --bot_fill=false: every seat is one of the example's players, so every match is rated.
kahve_start_services --pass_interval_ms 100 --bot_fill=false

# --- The client ---------------------------------------------------------------------------------
# One player per seat of play.py's games, in its order (kahve_example/games.py): Liar's dice 2,
# okey 2, okey51 4, okey101 4, Mexican Train 2. Tokens as a deployment's identity provider would
# hand them out; here signed with the stack's HS256 secret (KAHVE_JWT_HS256_SECRET, stack.sh).
players=(ana bora can deniz ece fatih gul hakan ilke jale kaan lale mert nur)
token_args=()
for player in "${players[@]}"; do
  token_args+=(--token "$("$build/tools/kahve" token --player "$player")")
done
status=0
PYTHONPATH="$gen" PYTHONDONTWRITEBYTECODE=1 "$python" "$here/play.py" \
  --matchmaking "127.0.0.1:$mm_port" --rating "127.0.0.1:$rating_port" "${token_args[@]}" \
  --timeout 170 || status=$?
if [ "$status" -ne 0 ]; then
  for log in rating table matchmaking; do
    echo "== $log.log (last 20 lines)" >&2
    tail -n 20 "$work/$log.log" >&2
  done
  fail "play.py exited $status"
fi
echo "examples/python/run.sh: ok"
