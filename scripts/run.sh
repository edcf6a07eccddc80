#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install, build, then simulate Liar's dice games between
# bots and print one JSON summary per line. Later issues grow this into the full service stack.
set -euo pipefail
source "$(dirname "$0")/common.sh"
kahve_install_deps
kahve_build default kahve
kahve="$kahve_root/build/tools/kahve"

echo "== one heuristic bot against three random bots, 10,000 four-player games =="
"$kahve" sim --game liars_dice --games 10000 --seed 1 --bots heuristic,random,random,random
echo "== four heuristic bots, 10,000 games =="
"$kahve" sim --game liars_dice --games 10000 --seed 2 --bots heuristic
echo "== single-round two-player five-dice random playouts, 3,000,000 rounds =="
"$kahve" sim --game liars_dice --games 3000000 --seed 3 --players 2 --dice 5 --rounds 1 --bots random,random
