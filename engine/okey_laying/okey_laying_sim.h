#ifndef KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_SIM_H_
#define KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_SIM_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/core/rng.h"
#include "engine/core/simulation.h"
#include "engine/okey_laying/okey_laying.h"
#include "engine/okey_laying/okey_laying_bots.h"

namespace kahve::engine::okey_laying {

// Plays `state` to its end, each seat moved by `seat_bots[seat]` from its own view; returns the
// number of moves. No protobuf: the playout loop of sims, benchmarks and the bot figures. With
// `checked`, every action is first put to State::Check (tests); a refusal aborts.
int64_t PlayOut(State& state, const BotKind* seat_bots, Rng& bot_rng, bool checked = false);

// `kahve sim` for a laying okey played by `rules`: options.games seeded games (game i from
// GameSeed(seed, i)).
absl::StatusOr<SimSummary> Simulate(std::string_view ruleset, const SimOptions& options,
                                    const Rules& rules);

}  // namespace kahve::engine::okey_laying

#endif  // KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_SIM_H_
