#ifndef KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_BOTS_H_
#define KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_BOTS_H_

// The laying okeys' bots (okey51, okey101). They read a SeatView (their hand and the public table),
// never the State.
//
// `random`: a uniform choice among LegalActions.
//
// `heuristic`, turn by turn:
//   - Draw or take: takes the discard when it can use it (an addition, a new meld or pair, or an
//     opening that holds it), else draws.
//   - Opens as soon as its tidiest (else its highest) runs and sets reach what the opening needs;
//     with six pairs and no such opening it opens with pairs (after five, too many tiles are left
//     to pair).
//   - Once opened: takes okeys out of melds with the real tile, lays the melds of its tidiest
//     arrangement, adds loose tiles that fit the table (never its okeys, unless an okey and one
//     tile that fits nowhere are all it has left: then the okey goes down and the tile finishes).
//   - Keeps a tile to finish with: when every tile is in melds it holds back an okey (for the okey
//     finish) or a tile a longer meld can spare.
//   - Discards the loose tile worth least to its hand: never a penalty tile while another will do,
//     never an okey before the last tile, and rather a face the next player has discarded before
//     (it is not building with it). Before opening it keeps high numbers (they reach 51 sooner);
//     after it, it sheds them first (tiles left cost at the end) and keeps tiles one step from
//     fitting a run on the table.

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/bot_kind.h"
#include "engine/core/rng.h"
#include "engine/okey_laying/okey_laying_moves.h"

namespace kahve::engine::okey_laying {

using engine::BotKind;
using engine::ParseBotKind;

// The heuristic bot's actions for the rest of this phase of the turn, in order: before the draw a
// single draw or take; after it the lays and additions, then the discard. The seat must act.
std::vector<Action> PlanHeuristic(const SeatView& view);

// A uniform choice among LegalActions(view).
Action ChooseRandom(const SeatView& view, Rng& rng);

// The next action of bot `kind` for the seat of `view` (the seat to act).
Action ChooseAction(BotKind kind, const SeatView& view, Rng& rng);

}  // namespace kahve::engine::okey_laying

#endif  // KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_BOTS_H_
