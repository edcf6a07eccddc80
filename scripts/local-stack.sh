#!/usr/bin/env bash
# The local stack, from a build: a throwaway PostgreSQL with its data in .kahve/ (as the postgres
# user when run as root), migrated; kahve-rating, kahve-table and kahve-matchmaking; the gRPC-Web
# gateway in front of them with the web client (when the web tier is built: scripts/web-build.sh
# --app, which scripts/run.sh runs); then `kahve demo`, bot clients playing one game of every
# ruleset over gRPC, and a check of the gateway. Then it keeps running, endpoints and the web
# client's address printed, until Ctrl-C, which stops everything and removes the database.
#
# Usage: scripts/local-stack.sh [--exit] [--free-ports] [--one-process] [--verbose] [--build DIR]
#                               [--data DIR]
#   --exit         stop after the demo (its exit status is the script's)
#   --free-ports   free ports instead of the defaults (50051-50053, /metrics 9091-9093; the
#                  gateway 8080, its /metrics 9094)
#   --one-process  the three services in one process (`kahve serve --all`)
#   --verbose      the demo's full transcript instead of a line per ruleset and check
#   --build DIR    the build folder (default build/);  --data DIR  instead of .kahve/stack
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
exit_after_demo=""
work="$root/.kahve/stack"
free_ports=""
one_process=""
demo_flags=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --exit) exit_after_demo=1 ;;
    --free-ports) free_ports=1 ;;
    --one-process) one_process=1 ;;
    --verbose) demo_flags+=(--verbose) ;;
    --build) build="$(cd "$2" && pwd)"; shift ;;
    --data) work="$2"; shift ;;
    *) echo "local-stack.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

NAME=local
gateway_port=0 gateway_metrics_port=0
if [ -z "$free_ports" ]; then
  port=55432
  rating_port=50053 table_port=50052 mm_port=50051 default_metrics=1
  gateway_port=8080 gateway_metrics_port=9094
  for taken in "$mm_port" "$gateway_port"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$taken") 2>/dev/null; then
      echo "local-stack.sh: port $taken is taken (a stack already running?); try --free-ports" >&2
      exit 1
    fi
  done
fi
# A secret of this run: tokens minted for it are worthless afterwards.
KAHVE_JWT_HS256_SECRET="local-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
export KAHVE_JWT_HS256_SECRET
echo "== starting PostgreSQL 15 (data in ${work#"$root"/})"
# shellcheck source=scripts/stack.sh
source "$root/scripts/stack.sh"
trap 'exit 130' INT TERM

if [ -n "$one_process" ]; then
  echo "== starting kahve serve --all (rating, table and matchmaking in one process)"
  ports=(--port -1 --metrics_port -1)
  [ -n "$free_ports" ] && ports=(--port 0 --metrics_port 0)
  "$build/tools/kahve" serve --all "${ports[@]}" --drain_seconds 0 --host_id "$NAME" \
    >"$work/serve.log" 2>&1 &
  kahve_started "$work/serve.log" $! kahve-matchmaking
  rating_port="$(served_port "$work/serve.log" kahve-rating)"
  table_port="$(served_port "$work/serve.log" kahve-table)"
  mm_port="$(served_port "$work/serve.log" kahve-matchmaking)"
  logs="$work/serve.log"
else
  echo "== starting kahve-rating, kahve-table, kahve-matchmaking"
  kahve_start_services
  logs="$work/{rating,table,matchmaking}.log"
fi

# The browser entry: gRPC-Web for every public RPC, the web client's files, guest tokens (a local
# stack only: docs/web.md). Skipped, with a hint, when the web tier is not built.
gateway_main="$root/web/gateway/dist/src/main.js"
web_url=""
if [ -f "$gateway_main" ] && command -v node >/dev/null; then
  echo "== starting kahve-gateway (gRPC-Web and the web client)"
  node "$gateway_main" --port "$gateway_port" --metrics_port "$gateway_metrics_port" \
    --matchmaking_target "127.0.0.1:$mm_port" --table_target "127.0.0.1:$table_port" \
    --rating_target "127.0.0.1:$rating_port" --static_dir "$root/web/app/dist" --guest_tokens \
    --drain_seconds 0 >"$work/gateway.log" 2>&1 &
  kahve_started "$work/gateway.log" $! kahve-gateway
  gateway_port="$(served_port "$work/gateway.log" kahve-gateway)"
  web_url="http://127.0.0.1:$gateway_port/"
  if [ -n "$one_process" ]; then logs="$work/{serve,gateway}.log"; else logs="$work/{rating,table,matchmaking,gateway}.log"; fi
fi

demo_status=0
"$build/tools/kahve" demo --matchmaking_target "127.0.0.1:$mm_port" \
  --rating_target "127.0.0.1:$rating_port" "${demo_flags[@]}" || demo_status=$?
if [ "$demo_status" -eq 0 ] && [ -n "$web_url" ]; then
  page=()
  [ -f "$root/web/app/dist/index.html" ] && page=(--page)
  node "$root/web/gateway/dist/src/smoke.js" --url "http://127.0.0.1:$gateway_port" "${page[@]}" ||
    demo_status=$?
fi
if [ "$demo_status" -ne 0 ]; then
  echo "== the demo failed (exit $demo_status); the services' last log lines:" >&2
  tail -n 20 "$work"/*.log >&2
fi
[ -n "$exit_after_demo" ] && exit "$demo_status"

if [ -n "$web_url" ] && [ -f "$root/web/app/dist/index.html" ]; then
  web_line="web client   $web_url   (gRPC-Web at ${web_url}rpc; guest sign-in on)"
elif [ -n "$web_url" ]; then
  web_line="gateway      ${web_url}rpc   (gRPC-Web; no web client built: scripts/web-build.sh --app)"
else
  web_line="web client   not running: build the web tier first (scripts/web-build.sh --app)"
fi
cat <<EOF

== kahve is running
   $web_line
   matchmaking  127.0.0.1:$mm_port
   table        127.0.0.1:$table_port
   rating       127.0.0.1:$rating_port
   metrics      /metrics on $([ -n "$free_ports" ] && echo "free ports (see the logs)" || echo "9091, 9092, 9093; the gateway's 9094")
   PostgreSQL   $KAHVE_DATABASE
   logs         ${logs#"$root"/}
   a player's token:  KAHVE_JWT_HS256_SECRET=$KAHVE_JWT_HS256_SECRET ${build#"$root"/}/tools/kahve token --player ana
   another demo:      ${build#"$root"/}/tools/kahve demo --matchmaking_target 127.0.0.1:$mm_port --rating_target 127.0.0.1:$rating_port --jwt_hs256_secret \$SECRET
Ctrl-C stops it all and removes the database.
EOF
if [ -n "$web_url" ] && [ -f "$root/web/app/dist/index.html" ]; then
  echo "== play in a browser: $web_url"
fi
sleep infinity &
kahve_pids+=($!)
wait $!
