#ifndef KAHVE_ENGINE_OKEY51_OKEY51_CODEC_H_
#define KAHVE_ENGINE_OKEY51_OKEY51_CODEC_H_

// The kahve.v1 edge of okey51: its settings, and the Game behind the engine interface (moves,
// events and views are the laying core's, engine/okey_laying/okey_laying_codec.h).

#include <memory>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/core/seating.h"
#include "engine/core/simulation.h"
#include "engine/okey51/okey51.h"

namespace kahve::engine::okey51 {

// Settings with the unset fields at their defaults, validated (a written 0 is out of range).
absl::StatusOr<Settings> SettingsFromProto(const v1::Okey51Settings& proto);
// Writes the default into every optional field `settings.okey51` leaves unset.
void FillDefaults(v1::GameSettings& settings);
// Four seats, always.
Seating SeatingOf(const v1::GameSettings& settings);
v1::Okey51Settings SettingsToProto(const Settings& settings);

// An okey51 game behind the engine interface. InvalidArgument for bad settings or preset.
absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal);

// `kahve sim` for okey51: options.games seeded games (game i from GameSeed(seed, i)).
absl::StatusOr<SimSummary> Simulate(const SimOptions& options);

}  // namespace kahve::engine::okey51

#endif  // KAHVE_ENGINE_OKEY51_OKEY51_CODEC_H_
