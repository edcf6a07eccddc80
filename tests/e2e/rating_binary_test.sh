#!/usr/bin/env bash
# The shipped kahve-rating binary, configured only through KAHVE_ environment variables: it
# starts on a fresh migrated database, serves /metrics, reports SERVING to `kahve health`, and on
# SIGTERM drains (no longer SERVING) and exits 0.
# Usage: rating_binary_test.sh KAHVE_RATING KAHVE_CLI ADMIN_URL_FILE
set -euo pipefail
rating="$1"
cli="$2"
admin_url="$(cat "$3")"
work="$(mktemp -d)"
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; cat "$work/log" 2>/dev/null || true; exit 1; }

database="e2e_rating_$$"
database_url="${admin_url%/*}/$database"
psql "$admin_url" -qc "CREATE DATABASE $database" >/dev/null
trap 'kill "${pid:-}" 2>/dev/null || true; psql "$admin_url" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1; rm -rf "$work"' EXIT

export KAHVE_DATABASE="$database_url"
export KAHVE_JWT_HS256_SECRET="e2e-secret-0123456789abcdef0123456789"
# A fresh database gets every migration the binary embeds, in order: 1..version.
migrated="$("$cli" migrate)"
version="$(sed -E 's/.*"version": ([0-9]+).*/\1/' <<<"$migrated")"
[ "$version" -ge 3 ] && grep -qF "\"applied\": [$(seq -s ', ' 1 "$version")]" <<<"$migrated" ||
  fail "migrate did not apply every migration in order: $migrated"

export KAHVE_PORT=0 KAHVE_METRICS_PORT=0 KAHVE_HOST=127.0.0.1 KAHVE_DRAIN_SECONDS=1
"$rating" >"$work/log" 2>&1 &
pid=$!
for _ in $(seq 200); do
  grep -q '"msg":"server started"' "$work/log" && break
  kill -0 "$pid" 2>/dev/null || fail "kahve-rating exited at start"
  sleep 0.05
done
metrics_port=$(grep -o '"metrics_port":[0-9]*' "$work/log" | head -1 | cut -d: -f2)
[ -n "$metrics_port" ] && [ "$metrics_port" -gt 0 ] || fail "no metrics port logged"

exec 3<>"/dev/tcp/127.0.0.1/$metrics_port"
printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
metrics=$(cat <&3)
exec 3<&-
grep -q "kahve_record_match_seconds_count 0" <<<"$metrics" || fail "/metrics lacks the rating metrics"
grep -q "kahve_pg_pool_connections" <<<"$metrics" || fail "/metrics lacks the pool gauges"

grpc_port=$(grep -o '"msg":"server started".*' "$work/log" | grep -o '"port":[0-9]*' | head -1 | cut -d: -f2)
[ -n "$grpc_port" ] || fail "no gRPC port logged"
for service in "" kahve.v1.RatingService; do
  health="$("$cli" health --target "127.0.0.1:$grpc_port" --service "$service")" ||
    fail "kahve health --service '$service' exited non-zero: $health"
  [ "$health" = SERVING ] || fail "kahve health --service '$service' printed $health"
done
health=0
"$cli" health --target "127.0.0.1:$grpc_port" --service kahve.v1.NoSuchService >/dev/null 2>&1 ||
  health=$?
[ "$health" -eq 1 ] || fail "kahve health exited $health for a service the server does not have"

kill -TERM "$pid"
for _ in $(seq 200); do
  grep -q '"msg":"draining"' "$work/log" && break
  sleep 0.05
done
# Draining (NOT_SERVING) or already stopped: either way not SERVING, exit 1.
health=0
"$cli" health --target "127.0.0.1:$grpc_port" >"$work/health" 2>&1 || health=$?
[ "$health" -eq 1 ] || fail "kahve health exited $health while the server drains: $(cat "$work/health")"
status=0
wait "$pid" || status=$?
[ "$status" -eq 0 ] || fail "exit status $status after SIGTERM"
grep -q '"msg":"draining"' "$work/log" || fail "no drain logged"
grep -q '"msg":"server stopped"' "$work/log" || fail "no stop logged"
echo "kahve-rating: started from the environment, served /metrics and health, drained and exited 0 on SIGTERM"
