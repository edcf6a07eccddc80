#!/usr/bin/env bash
# `kahve verify` on a real game's files (tests/tools/verify/: a Liar's dice replay as GetReplay
# returned it, and seat 0's Connect stream, both written by kahve-table): the good files pass; a
# tampered salt, seed, move, event or commitment fails naming it; unusable input is refused.
# Usage: verify_cli_test.sh KAHVE_CLI FIXTURE_DIR
set -euo pipefail
cli="$1"
fixtures="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

# expect STATUS TEXT ARGS...: `kahve verify ARGS` exits STATUS and prints TEXT (stdout or stderr).
expect() {
  local status="$1" text="$2" got=0
  shift 2
  "$cli" verify "$@" >"$work/out" 2>&1 || got=$?
  [ "$got" -eq "$status" ] || fail "kahve verify $* exited $got, not $status: $(cat "$work/out")"
  grep -qF -- "$text" "$work/out" || fail "kahve verify $* did not say \"$text\": $(cat "$work/out")"
}

replay="$fixtures/liars_dice_replay.json"
stream="$fixtures/liars_dice_seat0.jsonl"
expect 0 "ok   $replay: liars_dice table" "$replay"
expect 0 "ok   $stream: seat 0," "$replay" "$stream"

# Each tampered copy changes one thing with sed and must fail naming it.
tamper() {  # tamper NAME FILE SED_SCRIPT: writes $work/NAME
  sed -e "$3" "$2" >"$work/$1"
  cmp -s "$2" "$work/$1" && fail "the $1 edit changed nothing"
  return 0
}
salt="$(sed -n 's/.*"salt": *"\([0-9a-f]*\)".*/\1/p' "$replay")"
[ "${#salt}" -eq 64 ] || fail "no salt in $replay"
tamper salt.json "$replay" "s/\"salt\": *\"$salt\"/\"salt\": \"${salt:1}0\"/"
expect 1 "FAIL $work/salt.json: reveal.material: " "$work/salt.json"
tamper salt_only.json "$work/salt.json" 's/,"material":"[0-9a-f]*"//'
expect 1 "commitment.sha256: published" "$work/salt_only.json"

seed="$(sed -n 's/.*"deal": *{ *"seed": *"\([0-9]*\)".*/\1/p' "$replay")"
[ -n "$seed" ] || fail "no deal seed in $replay"
other_seed="${seed%?}$(( (${seed: -1} + 1) % 10 ))"  # the last digit changed
tamper seed.json "$replay" "s/\"seed\": *\"$seed\"/\"seed\": \"$other_seed\"/g; s/,\"material\":\"[0-9a-f]*\"//"
expect 1 "commitment.sha256: published" "$work/seed.json"
tamper deal_seed.json "$replay" "0,/\"seed\": *\"$seed\"/s//\"seed\": \"$other_seed\"/"
expect 1 "reveal.seed: " "$work/deal_seed.json"

tamper result.json "$replay" 's/"ending": *"[a-z_]*"/"ending": "forfeit"/'
expect 1 "result: the replay's differs" "$work/result.json"
tamper move.json "$replay" '0,/"challenge": *{}/s//"bid": {"quantity": 1, "face": 2}/'
expect 1 "FAIL $work/move.json: moves[" "$work/move.json"

tamper commitment.json "$stream" '1s/"sha256": *"[0-9a-f]*"/"sha256": "00"/'
expect 1 "line 1 (seq 0): the snapshot's commitment" "$replay" "$work/commitment.json"
tamper event.json "$stream" '0,/"bidMade"/s/"quantity": *\([0-9]*\)/"quantity": 9\1/'
expect 1 ": event 0 differs: the stream has" "$replay" "$work/event.json"

expect 2 "name a replay"
expect 2 "name the replay too" "$stream"
expect 2 "cannot read it" "$work/missing.json"
echo '{"replay": 1}' >"$work/garbage.json"
expect 2 "neither a kahve.v1.Replay in JSON" "$work/garbage.json"
echo "verify_cli_test: ok"
