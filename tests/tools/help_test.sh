#!/usr/bin/env bash
# --help on every binary: exits 0 and lists that binary's own flags with their KAHVE_ variables;
# `kahve COMMAND --help` lists the flags the command reads, and every flag of kahve's own commands
# is listed by at least one of them. --version on every binary prints its name and the project's
# version (VERSION, from CMake's project(): the one place it is set).
# Usage: help_test.sh KAHVE KAHVE_RATING KAHVE_TABLE KAHVE_MATCHMAKING VERSION
set -euo pipefail
kahve="$1" rating="$2" table="$3" matchmaking="$4" version="$5"
failed=0

fail() {
  echo "FAILED: $*"
  failed=1
}

# help BINARY ARGS...: the help text; fails the test unless the exit code is 0.
help() {
  local out status=0
  out=$("$@" 2>&1) || status=$?
  [ "$status" -eq 0 ] || fail "$(basename "$1") ${*:2}: exit $status"
  printf '%s\n' "$out"
}

# expect TEXT NAME PATTERN...: each pattern occurs in TEXT (fixed strings).
expect() {
  local text="$1" name="$2"
  shift 2
  for pattern in "$@"; do
    grep -qF -- "$pattern" <<<"$text" || fail "$name: no \"$pattern\" in its help"
  done
}

# refuse TEXT NAME PATTERN...: no pattern occurs in TEXT.
refuse() {
  local text="$1" name="$2"
  shift 2
  for pattern in "$@"; do
    if grep -qF -- "$pattern" <<<"$text"; then fail "$name: \"$pattern\" in its help"; fi
  done
}

common=("--port=-1  (KAHVE_PORT)" "--database=  (KAHVE_DATABASE)" "(KAHVE_LOG_LEVEL)"
        "--max_streams_per_identity=32  (KAHVE_MAX_STREAMS_PER_IDENTITY)")
text=$(help "$table" --help)
expect "$text" kahve-table "kahve-table: " "${common[@]}" "(KAHVE_MAX_PRACTICE_TABLES)" "--host_id"
refuse "$text" kahve-table "--max_active_queues" "No flags matched"
text=$(help "$matchmaking" --help)
expect "$text" kahve-matchmaking "kahve-matchmaking: " "${common[@]}" "(KAHVE_MAX_ACTIVE_QUEUES)"
refuse "$text" kahve-matchmaking "--max_practice_tables" "No flags matched"
text=$(help "$rating" -h)
expect "$text" kahve-rating "kahve-rating: " "--port=-1  (KAHVE_PORT)" "(KAHVE_DATABASE)"
refuse "$text" kahve-rating "--max_practice_tables" "--max_active_queues" "No flags matched"

text=$(help "$kahve" --help)
for command in sim scenario migrate token health rate load demo serve verify replay; do
  expect "$text" "kahve --help" "  $command "
done
text=$(help "$kahve" sim --help)
expect "$text" "kahve sim --help" "kahve sim --game" "--games=1000  (KAHVE_GAMES)" "(KAHVE_BOTS)"
refuse "$text" "kahve sim --help" "--database" "--port="
text=$(help "$kahve" token --help)
expect "$text" "kahve token --help" "--player=" "(KAHVE_JWT_HS256_SECRET)"
refuse "$text" "kahve token --help" "--games="
text=$(help "$kahve" serve --help)
expect "$text" "kahve serve --help" "(KAHVE_ALL)" "(KAHVE_MAX_PRACTICE_TABLES)" "(KAHVE_MAX_ACTIVE_QUEUES)"
text=$(help "$kahve" replay --help)
expect "$text" "kahve replay --help" "kahve replay TABLE_ID --target" "--file=  (KAHVE_FILE)" \
  "--seat=-1  (KAHVE_SEAT)" "(KAHVE_FULL_STATE)" "(KAHVE_TARGET)" "(KAHVE_JWT_HS256_SECRET)"
refuse "$text" "kahve replay --help" "--games=" "--port="
status=0
"$kahve" nonsense --help >/dev/null 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "kahve nonsense --help: exit $status, not 2"

# Every flag defined in tools/kahve/ is listed by some command's --help (absl's --helpfull names
# the file each flag comes from).
listed=""
for command in sim scenario migrate token health rate load demo verify replay; do
  listed+=$("$kahve" "$command" --help)$'\n'
done
ours=$("$kahve" --helpfull 2>&1 | awk '
  /^  Flags from / { ours = ($0 ~ /tools\/kahve\//) && ($0 !~ /serve_command/) }
  ours && /^    --/ { name = $1; sub(/^--/, "", name); print name }' || true)
[ -n "$ours" ] || fail "no flags of tools/kahve/ found in --helpfull"
for flag in $ours; do
  grep -qF -- "--$flag=" <<<"$listed" || fail "--$flag (tools/kahve) is listed by no command's --help"
done

for binary in "$kahve" "$rating" "$table" "$matchmaking"; do
  name="$(basename "$binary")"
  text=$(help "$binary" --version)
  [ "$text" = "$name $version" ] || fail "$name --version printed \"$text\", not \"$name $version\""
done
text=$(help "$kahve" --help)
expect "$text" "kahve --help" "kahve $version"

[ "$failed" -eq 0 ] && echo "help_test: every binary explains itself"
exit "$failed"
