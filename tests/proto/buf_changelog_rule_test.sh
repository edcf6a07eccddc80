#!/usr/bin/env bash
# The changelog rule of proto/contract/buf_check.sh on a copy of a kahve.v1 file: a breaking change since
# the baseline fails the check until CHANGELOG's entry for the version being built names it; a
# name under another version's entry does not count; a version without an entry fails; a lint
# finding fails whatever the changelog says.
# Usage: buf_changelog_rule_test.sh BUF_CHECK PROTO_DIR
set -euo pipefail
check="$1"
proto="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

# expect STATUS TEXT: buf_check.sh on the copy exits STATUS and prints TEXT (when not empty).
expect() {
  local status="$1" text="$2" got=0
  "$check" 9.9.9 --proto "$work/proto" --baseline "$work/baseline.txtpb" \
    --changelog "$work/CHANGELOG.md" >"$work/out" 2>&1 || got=$?
  [ "$got" -eq "$status" ] || fail "exited $got, not $status: $(cat "$work/out")"
  [ -z "$text" ] || grep -qF -- "$text" "$work/out" || fail "did not say \"$text\": $(cat "$work/out")"
}

# One file of the contract (it imports nothing) keeps each buf run short.
mkdir -p "$work/proto/kahve/v1"
cp "$proto/buf.yaml" "$work/proto/"
cp "$proto/kahve/v1/liars_dice.proto" "$work/proto/kahve/v1/"
"$check" 9.9.8 --write-baseline --proto "$work/proto" --baseline "$work/baseline.txtpb" >/dev/null
printf '# Changelog\n\n## 9.9.9 (unreleased)\n\n- Nothing yet.\n\n## 9.9.8\n\n- The baseline.\n' \
  >"$work/CHANGELOG.md"
expect 0 "0 breaking change(s)"

# A rename: two findings (the name and the JSON name), which the entry for 9.9.9 must both name.
sed -i 's/int32 face = 2;/int32 pips = 2;/' "$work/proto/kahve/v1/liars_dice.proto"
name='`FIELD_SAME_NAME` kahve/v1/liars_dice.proto: Field "2" on message "LiarsDiceBid" changed name from "face" to "pips".'
json='`FIELD_SAME_JSON_NAME` kahve/v1/liars_dice.proto: Field "2" with name "pips" on message "LiarsDiceBid" changed option "json_name" from "face" to "pips".'
expect 1 "- $name"
expect 1 "- $json"
printf '# Changelog\n\n## 9.9.9 (unreleased)\n\n- Nothing yet.\n\n## 9.9.8\n\n- %s\n- %s\n' \
  "$name" "$json" >"$work/CHANGELOG.md"
expect 1 "does not name"
printf '# Changelog\n\n## 9.9.9 (unreleased)\n\n- Renamed a field.\n  - %s\n\n## 9.9.8\n' \
  "$name" >"$work/CHANGELOG.md"
expect 1 "- $json"
printf '# Changelog\n\n## 9.9.9 (unreleased)\n\n- Renamed a field.\n  - %s\n  - %s\n\n## 9.9.8\n' \
  "$name" "$json" >"$work/CHANGELOG.md"
expect 0 "2 breaking change(s)"
printf '# Changelog\n\n## 9.9.10\n\n- %s\n- %s\n' "$name" "$json" >"$work/CHANGELOG.md"
expect 1 "no entry for 9.9.9"

# Lint is not a matter of the changelog: a message named against the style fails.
printf '# Changelog\n\n## 9.9.9\n\n- %s\n- %s\n' "$name" "$json" >"$work/CHANGELOG.md"
printf '\nmessage bad_name {}\n' >>"$work/proto/kahve/v1/liars_dice.proto"
expect 1 "buf lint"

echo "buf_changelog_rule_test: breaks need the changelog; lint needs fixing"
