# Sourced by shell tests that need the whole suite in one process: creates $database at the
# PostgreSQL of $admin_url, migrates it, starts `kahve serve --all` on free ports with its log in
# $work/log (pid in $pid), waits until it is ready, and defines port_of SERVICE. Needs $cli,
# $admin_url, $work, $database, and a fail function, from the caller.
# Usage: start_serve_all HOST_ID
start_serve_all() {
  psql "$admin_url" -qc "CREATE DATABASE $database" >/dev/null
  export KAHVE_DATABASE="${admin_url%/*}/$database"
  "$cli" migrate >/dev/null
  "$cli" serve --all --port 0 --metrics_port 0 --host 127.0.0.1 --drain_seconds 1 \
    --host_id "$1" --pass_interval_ms 100 >"$work/log" 2>&1 &
  pid=$!
  for _ in $(seq 200); do
    grep -q '"msg":"kahve serve ready"' "$work/log" && break
    kill -0 "$pid" 2>/dev/null || fail "kahve serve exited at start"
    sleep 0.05
  done
  grep -q '"msg":"kahve serve ready"' "$work/log" || fail "kahve serve did not start"
}

# The gRPC port SERVICE (kahve-rating, kahve-table, kahve-matchmaking) serves on.
port_of() { sed -n "s/.*\"msg\":\"$1 serving\".*\"port\":\([0-9]*\).*/\1/p" "$work/log"; }
