#!/usr/bin/env bash
# `kahve sim`: each flag writes the settings field of its name into the chosen ruleset's settings
# (docs/configuration.md), so a ruleset takes exactly the flags its settings have. A flag it has
# no field for is refused with exit code 2, naming the flag, the ruleset and where the flag
# belongs; settings out of range are the engine's to refuse.
# Usage: sim_cli_test.sh KAHVE_CLI
set -euo pipefail
cli="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

# sim STATUS ARGS...: `kahve sim ARGS` exits STATUS; its output (stdout and stderr) in $work/out.
sim() {
  local status="$1" got=0
  shift
  "$cli" sim "$@" >"$work/out" 2>&1 || got=$?
  [ "$got" -eq "$status" ] || fail "kahve sim $* exited $got, not $status: $(cat "$work/out")"
}

# has TEXT...: each text occurs in the last output.
has() {
  for text in "$@"; do
    grep -qF -- "$text" "$work/out" || fail "no \"$text\" in: $(cat "$work/out")"
  done
}

sim 0 --game liars_dice --games 3 --players 3 --dice 2 --rounds 1
has '"game": "liars_dice"' '"games": 3' '"bots": ["random", "random", "random"]'
sim 0 --game okey --games 2 --teams
has '"game": "okey"' '"games": 2'
sim 0 --game okey --games 1 --players 3 --deals 2
has '"bots": ["random", "random", "random"]'
sim 0 --game okey51 --games 1 --players 4 --deals 3 --teams --doubling
has '"game": "okey51"'
sim 0 --game okey101 --games 1 --deals 3 --teams
has '"game": "okey101"'
sim 0 --game mexican_train --games 1 --players 5
has '"bots": ["random", "random", "random", "random", "random"]'

sim 2 --game okey --dice 3
has "kahve sim: --dice: okey has no dice_per_player setting; a flag of liars_dice"
sim 2 --game okey101 --rounds 2
has "kahve sim: --rounds: okey101 has no max_rounds setting; a flag of liars_dice"
sim 2 --game okey51 --players 3
has "kahve sim: --players: okey51 is played by 4"
sim 2 --game okey101 --doubling
has "kahve sim: --doubling: okey101 has no doubling setting; a flag of okey51"
sim 2 --game mexican_train --teams
has "kahve sim: --teams: mexican_train has no partnerships; a flag of okey, okey101, okey51"
sim 2 --game liars_dice --deals 3
has "kahve sim: --deals: liars_dice has no deals or max_deals setting; a flag of okey, okey101, okey51"
sim 2 --game mexican_train --players 11
has "kahve sim: " "players"
sim 2 --game okey101 --deals 4
has "kahve sim: " "deals"
sim 2 --game chess
has 'kahve sim: unknown ruleset "chess"'
echo "sim_cli: ok"
