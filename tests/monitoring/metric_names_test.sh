#!/usr/bin/env bash
# Every metric name the Grafana dashboard and the alert rules (k8s/monitoring/) query is one the
# services expose: runs `kahve serve --all` on a throwaway database, plays `kahve demo` (a game of
# every ruleset, a practice table) against it while scraping the three /metrics all along, and
# compares (metric_names.py: histograms count through _bucket, _sum and _count; families only a
# rare event brings are listed there with the reason). Prints each name no /metrics showed.
# Usage: metric_names_test.sh KAHVE_CLI ADMIN_URL_FILE
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cli="$1"
admin_url="$(cat "$2")"
work="$(mktemp -d)"
database="monitoring_names_$$"
trap 'kill "${scraper:-}" "${pid:-}" 2>/dev/null || true; wait 2>/dev/null || true
      psql "$admin_url" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1
      rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; tail -n 20 "$work/log" 2>/dev/null || true; exit 1; }

export KAHVE_JWT_HS256_SECRET="monitoring-secret-0123456789abcdef0123456789"
source "$here/../support/serve_all.sh"
start_serve_all monitoring
mapfile -t metrics_ports < <(sed -n 's/.*"msg":"server started".*"metrics_port":\([0-9]*\).*/\1/p' "$work/log")
[ "${#metrics_ports[@]}" -eq 3 ] || fail "expected 3 metrics ports, found: ${metrics_ports[*]}"

urls=()
for port in "${metrics_ports[@]}"; do urls+=("http://127.0.0.1:$port/metrics"); done
python3 "$here/metric_names.py" scrape "$work/scraped.json" "${urls[@]}" &
scraper=$!

"$cli" demo --matchmaking_target "127.0.0.1:$(port_of kahve-matchmaking)" \
  --rating_target "127.0.0.1:$(port_of kahve-rating)" >"$work/demo" 2>&1 ||
  { cat "$work/demo"; fail "kahve demo"; }
sleep 1  # a few more scrapes after the outbox relay and the passes that followed

kill -TERM "$scraper"
wait "$scraper" || fail "the scraper failed"
scraper=""
python3 "$here/metric_names.py" check "$root" "$work/scraped.json"
