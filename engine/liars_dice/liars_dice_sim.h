#ifndef KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_SIM_H_
#define KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_SIM_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "engine/core/rng.h"
#include "engine/core/simulation.h"
#include "engine/liars_dice/liars_dice.h"
#include "engine/liars_dice/liars_dice_bots.h"

namespace kahve::engine::liars_dice {

// Plays `state` to its end, each seat moved by `seat_bots[seat]` from its own view; returns the
// number of moves. No protobuf, no allocation per move: the playout loop of sims and benchmarks.
int64_t PlayOut(State& state, const BotKind* seat_bots, Rng& bot_rng);

// `kahve sim` for Liar's dice: options.games seeded games (game i from GameSeed(seed, i)).
absl::StatusOr<SimSummary> Simulate(const SimOptions& options);

}  // namespace kahve::engine::liars_dice

#endif  // KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_SIM_H_
