#ifndef KAHVE_ENGINE_OKEY101_OKEY101_CODEC_H_
#define KAHVE_ENGINE_OKEY101_OKEY101_CODEC_H_

// The kahve.v1 edge of okey101: its settings, and the Game behind the engine interface (moves,
// events and views are the laying core's, engine/okey_laying/okey_laying_codec.h).

#include <memory>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/core/seating.h"
#include "engine/core/simulation.h"
#include "engine/okey101/okey101.h"

namespace kahve::engine::okey101 {

// Settings with the unset fields at their defaults, validated (a written 0 is out of range).
absl::StatusOr<Settings> SettingsFromProto(const v1::Okey101Settings& proto);
// Writes the default into every optional field `settings.okey101` leaves unset.
void FillDefaults(v1::GameSettings& settings);
// Four seats, always.
Seating SeatingOf(const v1::GameSettings& settings);
v1::Okey101Settings SettingsToProto(const Settings& settings);

// An okey101 game behind the engine interface. InvalidArgument for bad settings or preset.
absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal);

// `kahve sim` for okey101: options.games seeded games (game i from GameSeed(seed, i)).
absl::StatusOr<SimSummary> Simulate(const SimOptions& options);

}  // namespace kahve::engine::okey101

#endif  // KAHVE_ENGINE_OKEY101_OKEY101_CODEC_H_
