#ifndef KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_BOTS_H_
#define KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_BOTS_H_

// Liar's dice bots. They receive a SeatView (own dice, public counts and bids), never the State.
//
// `random`: a uniform choice among the legal moves (RandomLegalAction).
//
// `heuristic`: judges every bid by the chance it is true given its own dice, treating each unknown
// die as an independent fair roll (a die counts for face f with chance 1/3 when ones are wild,
// 1/6 otherwise; for ones, 1/6).
//   - Путана window: declares whenever it may; it then opens on the face of its own die, which it
//     alone knows for sure.
//   - Its turn with a bid standing: it compares the chance that the standing bid is false with the
//     chance that its best raise is true; it challenges when the first is at least as large.
//   - Raising or opening: the legal bid most likely to be true; among equals the lowest one, so as
//   to
//     leave the next seat the least room.
// It ignores what others' bids say about their dice; that is enough to beat random play by far.

#include <string_view>

#include "absl/status/statusor.h"
#include "engine/core/bot_kind.h"
#include "engine/core/rng.h"
#include "engine/liars_dice/liars_dice.h"

namespace kahve::engine::liars_dice {

using engine::BotKind;
using engine::BotName;
using engine::ParseBotKind;

// The chance that `bid` is true, seen from `view` (its own dice known, the rest unknown).
double ChanceBidIsTrue(const SeatView& view, Bid bid);

// The heuristic bot's choice for the seat of `view`, which must be the seat to act.
Action ChooseHeuristic(const SeatView& view);

// The choice of bot `kind` for the seat of `view` (the seat to act); `rng` drives random choices.
Action ChooseAction(BotKind kind, const SeatView& view, Rng& rng);

}  // namespace kahve::engine::liars_dice

#endif  // KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_BOTS_H_
