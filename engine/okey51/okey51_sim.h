#ifndef KAHVE_ENGINE_OKEY51_OKEY51_SIM_H_
#define KAHVE_ENGINE_OKEY51_OKEY51_SIM_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "engine/core/rng.h"
#include "engine/core/simulation.h"
#include "engine/okey51/okey51.h"
#include "engine/okey51/okey51_bots.h"

namespace kahve::engine::okey51 {

// Plays `state` to its end, each seat moved by `seat_bots[seat]` from its own view; returns the
// number of moves. No protobuf: the playout loop of sims, benchmarks and the bot figures. With
// `checked`, every action is first put to State::Check (tests); a refusal aborts.
int64_t PlayOut(State& state, const BotKind* seat_bots, Rng& bot_rng, bool checked = false);

// `kahve sim` for okey51: options.games seeded games (game i from GameSeed(seed, i)).
absl::StatusOr<SimSummary> Simulate(const SimOptions& options);

}  // namespace kahve::engine::okey51

#endif  // KAHVE_ENGINE_OKEY51_OKEY51_SIM_H_
