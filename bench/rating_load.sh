#!/usr/bin/env bash
# The rating service's figures on this machine: starts a throwaway PostgreSQL with production
# durability (fsync and synchronous_commit on), migrates it, starts kahve-rating, then runs
#   kahve load rating   RecordMatch over gRPC vs a comparable plain insert transaction
#   kahve load history  ListMatches pages for a player with 10,000 matches, with the query plan
# and prints their JSON. Usage: bench/rating_load.sh [BUILD_DIR] [SECONDS] [CONCURRENCY]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
seconds="${2:-10}"
concurrency="${3:-32}"
NAME=rating-load
# shellcheck source=scripts/stack.sh
source "$root/scripts/stack.sh"
# The load drivers play each player at machine speed: the servers measured here take calls
# without a per-identity rate (docs/operations.md, section 8).
export KAHVE_MAX_CALLS_PER_SECOND=0
grpc_port=$(( port + 1 ))
"$build/services/rating/kahve-rating" --port "$grpc_port" --metrics_port 0 --db_pool_size 16 \
  --drain_seconds 0 >"$work/rating.log" 2>&1 &
kahve_started "$work/rating.log" $! kahve-rating
# Twice: first on the empty database (tables and indexes still growing, statistics not yet
# gathered), then on the warm one.
for pass in empty warm; do
  echo "== RecordMatch over gRPC into PostgreSQL vs plain insert transactions ($concurrency in flight, $pass database)"
  "$build/tools/kahve" load rating --target "127.0.0.1:$grpc_port" --seconds "$seconds" --concurrency "$concurrency"
done
# ListMatches twice: with 2 pages in flight (one per core here) the latency is a page's own; with
# 8 the two cores are saturated (the load generator runs on them too) and it is mostly queueing.
for in_flight in 2 8; do
  echo "== ListMatches pages (20 each) for one player with 10,000 matches ($in_flight in flight)"
  "$build/tools/kahve" load history --target "127.0.0.1:$grpc_port" --seconds "$seconds" \
    --concurrency "$in_flight"
done
