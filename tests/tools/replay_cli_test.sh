#!/usr/bin/env bash
# `kahve replay --file` on a real game's replay (tests/tools/verify/liars_dice_replay.json, as
# kahve-table's GetReplay wrote it): seat 0 reads its own dice and the bids, a spectator no dice
# before the reveal; unusable input is refused with a precise error and exit code 2. Then a game
# of every other ruleset (tests/tools/replay/: replays in the same format, played on the engine by
# its heuristic bots, seat 0 named "ana"; they carry no deal commitment): seat 0 reads its hand
# and the table, a spectator never a hand nor a private event.
# Usage: replay_cli_test.sh KAHVE_CLI VERIFY_FIXTURE_DIR REPLAY_FIXTURE_DIR
set -euo pipefail
cli="$1"
fixtures="$2"
replays="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

# run STATUS ARGS...: `kahve replay ARGS` exits STATUS; its output (stdout and stderr) in $work/out.
run() {
  local status="$1" got=0
  shift
  "$cli" replay "$@" >"$work/out" 2>&1 || got=$?
  [ "$got" -eq "$status" ] || fail "kahve replay $* exited $got, not $status: $(cat "$work/out")"
}

# has LINE...: each line occurs, whole, in the last output.
has() {
  for line in "$@"; do
    grep -qxF -- "$line" "$work/out" || fail "no line \"$line\" in: $(cat "$work/out")"
  done
}

# lacks TEXT...: no text occurs anywhere in the last output.
lacks() {
  for text in "$@"; do
    if grep -qF -- "$text" "$work/out"; then fail "\"$text\" in: $(cat "$work/out")"; fi
  done
}

replay="$fixtures/liars_dice_replay.json"

run 0 --file "$replay" --seat 0
has "table t-d74a15f215889fcc58a54123, match match-1, 6 moves" \
    "seats: 0 ana, 1 ben" \
    "ruleset liars_dice: 2 players, 2 dice each" \
    "seen by seat 0 (ana)" \
    "move 1, seat 1 (ben): bids 1 x 2" \
    "  - seat 1 bids 1 x 2" \
    "  | current bid 1 x 2 by seat 1" \
    "move 2, seat 0 (ana): challenges the last bid" \
    "result: last_player_standing" \
    "  rank 1: seat 0 (ana), score 1" \
    "  rank 2: seat 1 (ben), score 0" \
    "  round 3: 0:1 1:0"
grep -q '^  | your dice \[[1-6] [1-6]\]$' "$work/out" || fail "seat 0 sees no dice of its own"
grep -q '^  - seat 0 rolled \[' "$work/out" || fail "seat 0 sees no roll of its own"
lacks "seat 1 rolled"
# Seat 1's dice appear only in the reveals: every line naming them is a "dice shown" line.
[ "$(grep -c 'dice shown: ' "$work/out")" -eq 3 ] || fail "not three reveals: $(cat "$work/out")"

run 0 --file "$replay"
has "seen by a spectator (public information only)" "move 6, seat 0 (ana): challenges the last bid"
lacks "your dice" " rolled ["

run 0 --file "$replay" --seat 1 --full_state
has "seen by seat 1 (ben)"
[ "$(grep -c '^  | your dice' "$work/out")" -eq 7 ] || fail "--full_state: no dice line per step"

run 2 --file "$work/missing.json"
has "kahve replay: $work/missing.json: cannot read it"
echo '{"tableId": "t", "moves": [' >"$work/broken.json"
run 2 --file "$work/broken.json"
grep -qF "kahve replay: $work/broken.json: not a kahve.v1.Replay in JSON: " "$work/out" ||
  fail "malformed JSON: $(cat "$work/out")"
run 2 --file "$replay" --seat 2
has "kahve replay: seat 2 is not a seat of this game: it has seats 0..1 (-1 for a spectator)"
run 2 --file "$replay" --seat -2
has "kahve replay: seat -2 is not a seat of this game: it has seats 0..1 (-1 for a spectator)"
run 2
grep -qF "name a table" "$work/out" || fail "no usage error: $(cat "$work/out")"
run 2 t-1 --file "$replay"
grep -qF "one of them" "$work/out" || fail "a table and a file: $(cat "$work/out")"
# A move the engine refuses (a challenge with no bid) names the move.
sed -e '0,/"bid": *{"quantity":1,"face":2}/s//"challenge":{}/' "$replay" >"$work/refused.json"
cmp -s "$replay" "$work/refused.json" && fail "the refused-move edit changed nothing"
run 2 --file "$work/refused.json"
grep -qF "kahve replay: move 1 (seat 1): the engine refuses it: " "$work/out" ||
  fail "refused move: $(cat "$work/out")"

run 0 --file "$replays/okey_replay.json" --seat 0
has "ruleset okey: 4 players, at most 1 deal, first starter seat 0" "seen by seat 0 (ana)" \
    "  | discards 0:[-] 1:[-] 2:[-] 3:[-]" "  rank 1: seat 0 (ana), score 20"
grep -q '^  | your hand [RBKY] [0-9]' "$work/out" || fail "okey: seat 0 sees no hand"
grep -q '^move [0-9]*, seat 0 (ana) \[bot: timeout\]: ' "$work/out" || fail "okey: no bot note"
run 0 --file "$replays/okey51_replay.json" --seat 0
has "ruleset okey51: 4 players solo, 1 deal, first starter seat 0" "  | table -"
grep -q '^  - seat 0 opens with #0 ' "$work/out" || fail "okey51: no opening"
grep -q '^  | table #0 ' "$work/out" || fail "okey51: no meld on the table"
run 0 --file "$replays/okey101_replay.json" --seat 2
has "ruleset okey101: 4 players solo, 3 deals, first dealer seat 0" "seen by seat 2 (bot heuristic)"
grep -q '^  - seat 2 is dealt ' "$work/out" || fail "okey101: seat 2 is dealt nothing"
lacks "seat 0 is dealt" "seat 1 drew " "seat 3 drew "
run 0 --file "$replays/mexican_train_replay.json" --seat 0
has "ruleset mexican_train: 2 players, 13 rounds (12-12 to 0-0)" "  | train 0: - end 12, closed" \
    "  | Mexican train: - end 12"
grep -q '^  - seat 0 holds [0-9]*-[0-9]* ' "$work/out" || fail "mexican_train: seat 0 holds nothing"
lacks "seat 1 holds" "seat 1 drew "
for ruleset in okey okey51 okey101 mexican_train; do
  run 0 --file "$replays/${ruleset}_replay.json"
  has "seen by a spectator (public information only)"
  lacks "your hand" " is dealt " " holds " " drew "
  grep -q '^result: ' "$work/out" || fail "$ruleset: no result"
done
echo "replay_cli_test: ok"
