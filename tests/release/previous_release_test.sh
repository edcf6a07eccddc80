#!/usr/bin/env bash
# The previous release against this one (docs/operations.md, "Expand and contract"; k8s/README.md,
# section 10): builds `kahve` from the previous release's commit (tests/release/previous_release:
# its tag and commit, so that a clone without tags finds it too), then on one PostgreSQL:
#
# 1. Schema: this build migrates, then a probe migration stands for the next release's expand
#    migration (new table, new nullable and defaulted columns on the tables every service writes).
#    The previous release's `kahve migrate` must accept the newer schema, listing what is ahead.
# 2. Rolling upgrade: kahve-rating of the previous release, matchmaking of this build, two table
#    hosts (one of each); the previous release's `kahve load` plays 30 games through matchmaking;
#    mid-game the previous release's host is stopped with SIGTERM (a rollout's stop: it drains
#    and lets go of its tables) and this build's host must claim them and finish every game.
# 3. Rollback: the reverse. kahve-rating of this build, matchmaking of the previous release, two
#    table hosts; this build's `kahve load` plays 30 games; this build's host is killed with
#    SIGKILL mid-game and the previous release's host must claim its tables.
#    After each: every acknowledged move stored once, every game finished and rated once.
# 4. A contract migration beyond the previous release's schema: its `kahve migrate` refuses it.
#
# The previous release's binaries are built in .kahve/previous-release/COMMIT with the default
# preset's flags, sharing ccache with this build (CMakeLists.txt sets CCACHE_BASEDIR per tree),
# so only the files that changed since compile again.
# Usage: previous_release_test.sh KAHVE KAHVE_RATING KAHVE_TABLE KAHVE_MATCHMAKING ADMIN_URL_FILE
set -euo pipefail
declare -A current=([cli]="$1" [rating]="$2" [table]="$3" [matchmaking]="$4")
admin_url="$(cat "$5")"
root="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=tests/support/table_load.sh
source "$root/tests/support/table_load.sh"
start_load_test "release_previous_$$"
fail() { fail_with_logs "$@"; }

# The previous release's tree and binary.
read -r tag commit <"$root/tests/release/previous_release"
found="$(git -C "$root" cat-file -t "$commit" 2>&1)" ||
  fail "$tag's commit $commit is not in this clone (a shallow one needs its history): $found"
# Where tags were cloned too: the file names the newest release tag before this commit.
if tagged="$(git -C "$root" rev-parse -q --verify "refs/tags/$tag^{commit}")"; then
  [ "$tagged" = "$commit" ] || fail "tag $tag is $tagged, tests/release/previous_release says $commit"
fi
newest="$(git -C "$root" tag --merged HEAD --list 'v[0-9]*' --sort=-v:refname | head -1)"
[ -z "$newest" ] || [ "$newest" = "$tag" ] ||
  fail "the newest release tag is $newest; put it into tests/release/previous_release (CHANGELOG.md, Releasing)"
tree="$root/.kahve/previous-release/$commit"
if [ ! -f "$tree/.extracted" ]; then
  rm -rf "$tree"
  mkdir -p "$tree"
  git -C "$root" archive "$commit" | tar -x -C "$tree"
  touch "$tree/.extracted"
fi
build_started=$(date +%s)
(
  cd "$tree"
  # What CMakeLists.txt sets from 0.3.0 on, for trees from before.
  export CCACHE_BASEDIR="$tree" CCACHE_NOHASHDIR=true
  cmake --preset default -DKAHVE_BUILD_SERVICE_TESTS=OFF >"$work/previous-configure.log" 2>&1 ||
    fail "configuring $tag: $(tail -20 "$work/previous-configure.log")"
  cmake --build --preset default --target kahve kahve-rating kahve-table kahve-matchmaking \
    >"$work/previous-build.log" 2>&1 || fail "building $tag: $(tail -20 "$work/previous-build.log")"
)
declare -A previous
for name in cli rating table matchmaking; do
  file="kahve-$name"
  [ "$name" = cli ] && file=kahve
  previous[$name]="$(find "$tree/build" -name "$file" -type f -perm -u+x | head -1)"
  [ -n "${previous[$name]}" ] || fail "no $file in $tag's build"
done
echo "built $tag's binaries in $(($(date +%s) - build_started)) s"
previous_version="$("${previous[cli]}" --version)"
current_version="$("${current[cli]}" --version)"
[ "$previous_version" != "$current_version" ] ||
  fail "the previous release and this build both say \"$current_version\""

psql "$admin_url" -qc "CREATE DATABASE $database" >/dev/null
export KAHVE_DATABASE="$database_url"
export KAHVE_JWT_HS256_SECRET="release-secret-0123456789abcdef0123456789"
export KAHVE_MAX_CALLS_PER_SECOND=0

# 1. This build's schema, and beyond it an expand migration of a release to come.
"${current[cli]}" migrate >/dev/null
mkdir "$work/migrations"
cp "$root"/migrations/*.sql "$work/migrations/"
cat >"$work/migrations/9000_next_release_probe.sql" <<'SQL'
-- kahve-migration: expand
CREATE TABLE next_release_probe (id bigint PRIMARY KEY, note text);
ALTER TABLE table_tables ADD COLUMN next_release_probe text;
ALTER TABLE table_log ADD COLUMN next_release_probe text DEFAULT 'probe';
ALTER TABLE table_outbox ADD COLUMN next_release_probe bigint;
ALTER TABLE mm_tickets ADD COLUMN next_release_probe jsonb;
ALTER TABLE mm_matches ADD COLUMN next_release_probe boolean NOT NULL DEFAULT false;
ALTER TABLE rating_matches ADD COLUMN next_release_probe text;
ALTER TABLE rating_match_players ADD COLUMN next_release_probe int DEFAULT 7;
SQL
"${current[cli]}" migrate --migrations_dir "$work/migrations" | grep -q '"applied": \[9000\]' ||
  fail "the probe migration did not apply"
for binary in "${previous[cli]}" "${current[cli]}"; do
  answer="$("$binary" migrate 2>&1)" || fail "$binary migrate refused the newer schema: $answer"
  grep -q '"applied": \[\], "ahead": \[9000\]' <<<"$answer" ||
    fail "$binary migrate on the newer schema said: $answer"
done

read -r port_a port_b port_c port_d < <(free_ports 4)

# start NAME BINARY PORT FLAGS...: one service, its log $work/NAME.log, its pid in started_pid,
# once it says it serves.
start() {
  local name="$1" binary="$2" port="$3"
  shift 3
  "$binary" --host 127.0.0.1 --port "$port" --metrics_port 0 --log_level info "$@" \
    >"$work/$name.log" 2>&1 &
  started_pid=$!
  pids+=("$started_pid")
  wait_serving "$work/$name.log" "$(basename "$binary")" "$started_pid"
}
# table_host NAME BINARY PORT RATING_PORT: a table host with a 2 s lease (the default is 5 s) and
# no drain wait: stopped, it lets go of its tables at once (bots finish a game in about a second).
table_host() {
  start "$1" "$2" "$3" --host_id "$1" --advertise "127.0.0.1:$3" --drain_seconds 0 \
    --host_lease_seconds 2 --host_heartbeat_seconds 0.5 --rating_target "127.0.0.1:$4"
}

# play PHASE CLI HOST_TO_STOP SIGNAL ENTRY_PORT MATCHMAKING_PORT TOTAL_TABLES_AFTER: 30 games
# through matchmaking with CLI, stopping HOST_TO_STOP (its pid in stop_pid) with SIGNAL
# mid-game; then the checks.
play() {
  local phase="$1" cli="$2" host="$3" signal="$4" entry="$5" matchmaking="$6" total="$7"
  rm -f "$work/acks"
  local claimed_before
  claimed_before=$(psql "$database_url" -qAtc "SELECT count(*) FROM table_tables WHERE owner_epoch > 1")
  "$cli" load tables --target "127.0.0.1:$entry" --via_matchmaking \
    --matchmaking_target "127.0.0.1:$matchmaking" --tables 30 --games_per_table 1 \
    --seconds 100 --concurrency 16 --ack_log "$work/acks" >"$work/load.json" 2>"$work/load.err" &
  load_pid=$!
  await_acks 150 "stopping $host"
  local held
  held=$(psql "$database_url" -qAtc \
    "SELECT count(*) FROM table_tables WHERE host_id = '$host' AND finished_us IS NULL")
  kill "-$signal" "$stop_pid" || fail "$phase: $host had exited before SIG$signal"
  [ "$held" -gt 0 ] || fail "$phase: $host held no unfinished table when stopped"
  await_complete_load
  local acked duplicates stored
  acked=$(wc -l <"$work/acks")
  duplicates=$(sort "$work/acks" | uniq -d | wc -l)
  [ "$duplicates" -eq 0 ] || fail "$phase: $duplicates (table, seq) pairs acknowledged twice"
  stored=$(stored_acks "$database_url" "$work/acks")
  [ "$stored" -eq "$acked" ] || fail "$phase: $stored of $acked acknowledged moves in table_log"
  for _ in $(seq 300); do
    [ "$(psql "$database_url" -qAtc "SELECT count(*) FROM rating_matches")" -ge "$total" ] && break
    sleep 0.1
  done
  IFS='|' read -r finished claimed rated rated_once < <(psql "$database_url" -qAtc "
    SELECT (SELECT count(*) FROM table_tables WHERE finished_us IS NOT NULL),
           (SELECT count(*) FROM table_tables WHERE owner_epoch > 1) - $claimed_before,
           (SELECT count(*) FROM rating_matches),
           (SELECT count(DISTINCT match_id) FROM rating_matches)")
  [ "$finished" -eq "$total" ] || fail "$phase: $finished of $total games finished"
  # Tables may end between the count and the signal: every table finished, and some moved.
  [ "$claimed" -gt 0 ] || fail "$phase: no table claimed, $host held $held"
  [ "$rated" -eq "$total" ] && [ "$rated_once" -eq "$total" ] ||
    fail "$phase: rating_matches has $rated rows for $rated_once matches, expected $total"
  echo "$phase: $host held $held unfinished tables at SIG$signal, $claimed claimed; $acked moves acknowledged and stored once; $total games finished and rated once"
}

# 2. Rolling upgrade: the previous release's host drains, this build's takes its tables.
start rating-previous "${previous[rating]}" "$port_a" --drain_seconds 0
rating_pid=$started_pid
table_host host-previous-1 "${previous[table]}" "$port_b" "$port_a"
stop_pid=$started_pid
table_host host-current-1 "${current[table]}" "$port_c" "$port_a"
entry_pid=$started_pid
start matchmaking-current "${current[matchmaking]}" "$port_d" --drain_seconds 0 \
  --table_target "127.0.0.1:$port_c" --table_client_endpoint "127.0.0.1:$port_c" \
  --rating_target "127.0.0.1:$port_a" --pass_interval_ms 100
matchmaking_pid=$started_pid
play "upgrade ($previous_version to $current_version)" "${previous[cli]}" host-previous-1 TERM \
  "$port_c" "$port_d" 30
kill -TERM "$entry_pid" "$matchmaking_pid" "$rating_pid"
wait "$stop_pid" "$entry_pid" "$matchmaking_pid" "$rating_pid" 2>/dev/null || true
pids=()  # all waited for: none of their ids may be killed again
# Fresh ports: phase 2's connections may have taken any left over.
read -r port_a port_d port_e port_f < <(free_ports 4)

# 3. Rollback: this build's host dies, the previous release's takes its tables.
start rating-current "${current[rating]}" "$port_a" --drain_seconds 0
table_host host-current-2 "${current[table]}" "$port_e" "$port_a"
stop_pid=$started_pid
table_host host-previous-2 "${previous[table]}" "$port_f" "$port_a"
start matchmaking-previous "${previous[matchmaking]}" "$port_d" --drain_seconds 0 \
  --table_target "127.0.0.1:$port_f" --table_client_endpoint "127.0.0.1:$port_f" \
  --rating_target "127.0.0.1:$port_a" --pass_interval_ms 100
play "rollback ($current_version to $previous_version)" "${current[cli]}" host-current-2 KILL \
  "$port_f" "$port_d" 60

# 4. A contract migration beyond the previous release: its migrate refuses, naming it.
printf -- '-- kahve-migration: contract from 9001\nDROP TABLE next_release_probe;\n' \
  >"$work/migrations/9001_next_release_contract.sql"
"${current[cli]}" migrate --migrations_dir "$work/migrations" >/dev/null
if answer="$("${previous[cli]}" migrate 2>&1)"; then fail "$tag's migrate accepted a contract migration: $answer"; fi
grep -q "9001_next_release_contract.sql" <<<"$answer" ||
  fail "$tag's migrate refused without naming the contract migration: $answer"
echo "$tag's migrate runs on the schema ahead of it by expand migrations and refuses a contract: $answer"
