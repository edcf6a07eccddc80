#!/usr/bin/env bash
# A whole kahve stack on free ports, for tests, benchmarks and tools: a throwaway PostgreSQL 15
# (scripts/stack.sh), or a fresh database on a running one (--pg-url-file: ctest's `pg` fixture),
# `kahve serve --all` (the three services in one process) and, with --gateway, the gRPC-Web
# gateway (web/gateway) in front of them. Prints one JSON line with every
# address and the signing secret, e.g.
#   {"gateway":"http://127.0.0.1:41231","gateway_metrics":"http://127.0.0.1:41232",
#    "matchmaking":"127.0.0.1:40017","table":"127.0.0.1:40019","rating":"127.0.0.1:40015",
#    "secret":"...","database":"postgresql://...","logs":"/tmp/kahve-..."}
# then runs until SIGTERM, SIGINT or the end of its standard input (a harness that dies takes the
# stack with it), and removes everything it started. The web tier must be built first
# (scripts/web-build.sh).
#
# Usage: scripts/serve-stack.sh [--build DIR] [--pg-url-file FILE] [--gateway] [--static DIR]
#                               [--serve-flag FLAG]... [--gateway-flag FLAG]...
#   --build DIR         the C++ build folder (default build/)
#   --pg-url-file FILE  a file holding a PostgreSQL admin URL: a database of this stack is created
#                       there (and dropped at the end) instead of starting a server
#   --gateway           also start the gateway (guest tokens on: a local stack)
#   --static DIR        the web client's files for the gateway to serve (default web/app/dist)
#   --serve-flag F      one more flag for `kahve serve --all` (repeatable)
#   --gateway-flag F    one more flag for the gateway (repeatable)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
gateway=""
static="$root/web/app/dist"
pg_url_file=""
serve_flags=()
gateway_flags=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift ;;
    --pg-url-file) pg_url_file="$2"; shift ;;
    --gateway) gateway=1 ;;
    --static) static="$2"; shift ;;
    --serve-flag) serve_flags+=("$2"); shift ;;
    --gateway-flag) gateway_flags+=("$2"); shift ;;
    *) echo "serve-stack.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$build/tools/kahve" ] || { echo "serve-stack.sh: no $build/tools/kahve: build it first" >&2; exit 1; }

NAME=serve-stack
KAHVE_JWT_HS256_SECRET="stack-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
export KAHVE_JWT_HS256_SECRET
[ -n "$pg_url_file" ] && pg_admin_url="$(cat "$pg_url_file")"
# shellcheck source=scripts/stack.sh
source "$root/scripts/stack.sh" >&2
trap 'exit 0' TERM INT

"$build/tools/kahve" serve --all --port 0 --metrics_port 0 --host 127.0.0.1 --drain_seconds 0 \
  --shutdown_deadline_seconds 1 --host_id "$NAME-$$" --pass_interval_ms 100 "${serve_flags[@]}" \
  >"$work/serve.log" 2>&1 &
serve_pid=$!
kahve_pids+=("$serve_pid")
for _ in $(seq 400); do
  grep -qs '"msg":"kahve serve ready"' "$work/serve.log" && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.log" >&2; echo "kahve serve exited at start" >&2; exit 1; }
  sleep 0.05
done
grep -qs '"msg":"kahve serve ready"' "$work/serve.log" || { cat "$work/serve.log" >&2; echo "kahve serve did not start" >&2; exit 1; }
rating_port="$(served_port "$work/serve.log" kahve-rating)"
table_port="$(served_port "$work/serve.log" kahve-table)"
mm_port="$(served_port "$work/serve.log" kahve-matchmaking)"

gateway_json=""
if [ -n "$gateway" ]; then
  # A node process of ours: the gateway's own flags (docs/web.md), free ports, this stack's secret.
  node "$root/web/gateway/dist/src/main.js" --port 0 --metrics_port 0 --host 127.0.0.1 \
    --matchmaking_target "127.0.0.1:$mm_port" --table_target "127.0.0.1:$table_port" \
    --rating_target "127.0.0.1:$rating_port" --static_dir "$static" --guest_tokens \
    --drain_seconds 0 --shutdown_deadline_seconds 1 "${gateway_flags[@]}" >"$work/gateway.log" 2>&1 &
  kahve_started "$work/gateway.log" $! kahve-gateway >&2
  gateway_port="$(served_port "$work/gateway.log" kahve-gateway)"
  gateway_metrics="$(sed -n 's/.*"msg":"kahve-gateway serving".*"metrics_port":\([0-9]*\).*/\1/p' "$work/gateway.log" | head -n 1)"
  gateway_json="\"gateway\":\"http://127.0.0.1:$gateway_port\",\"gateway_metrics\":\"http://127.0.0.1:$gateway_metrics\","
fi

printf '{%s"matchmaking":"127.0.0.1:%s","table":"127.0.0.1:%s","rating":"127.0.0.1:%s","secret":"%s","database":"%s","logs":"%s"}\n' \
  "$gateway_json" "$mm_port" "$table_port" "$rating_port" "$KAHVE_JWT_HS256_SECRET" "$KAHVE_DATABASE" "$work"
# Until a signal, or until whoever started us closes our standard input.
while read -r _; do :; done || true
