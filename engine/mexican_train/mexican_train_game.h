#ifndef KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_GAME_H_
#define KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_GAME_H_

// Mexican Train behind the engine interface: kahve.v1 moves in; events, views and results out.

#include <memory>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/core/seating.h"
#include "engine/core/simulation.h"

namespace kahve::engine::mexican_train {

// Writes the default into every optional field `settings.mexican_train` leaves unset.
void FillDefaults(v1::GameSettings& settings);
// The settings' `players`, never fewer: hand sizes follow the number of players.
Seating SeatingOf(const v1::GameSettings& settings);

// InvalidArgument for bad settings or preset.
absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal);

// `kahve sim` for Mexican Train: options.games seeded matches (match i from GameSeed(seed, i)).
absl::StatusOr<SimSummary> Simulate(const SimOptions& options);

}  // namespace kahve::engine::mexican_train

#endif  // KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_GAME_H_
