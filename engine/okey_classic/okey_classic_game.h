#ifndef KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_GAME_H_
#define KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_GAME_H_

// Classic okey's kahve.v1 edge: settings, the Game behind the engine interface, `kahve sim`.

#include <memory>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/core/seating.h"
#include "engine/core/simulation.h"
#include "engine/okey_classic/okey_classic.h"

namespace kahve::engine::okey_classic {

// Settings with the unset fields at their defaults, validated (a written 0 is out of range).
absl::StatusOr<Settings> SettingsFromProto(const v1::OkeySettings& proto);
// Writes the default into every optional field `settings.okey` leaves unset.
void FillDefaults(v1::GameSettings& settings);
// The settings' `players`, never fewer: 2, 3 and 4 players play different games.
Seating SeatingOf(const v1::GameSettings& settings);
// Stops a simulation after 10 deals: a game ends when a score reaches 0, which bots that seldom
// win may never bring about.
void FillSimDefaults(v1::GameSettings& settings);

// A classic okey game. InvalidArgument for bad settings or preset.
absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal);

// `kahve sim --game okey`.
absl::StatusOr<SimSummary> Simulate(const SimOptions& options);

}  // namespace kahve::engine::okey_classic

#endif  // KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_GAME_H_
