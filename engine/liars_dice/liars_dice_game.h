#ifndef KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_CODEC_H_
#define KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_CODEC_H_

// The kahve.v1 edge of Liar's dice: the only file of the ruleset that speaks protobuf.

#include <memory>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/core/seating.h"
#include "engine/liars_dice/liars_dice.h"

namespace kahve::engine::liars_dice {

// Settings with the unset fields at their defaults, validated (a written 0 is out of range).
absl::StatusOr<Settings> SettingsFromProto(const v1::LiarsDiceSettings& proto);
// Writes the default into every optional field `settings.liars_dice` leaves unset.
void FillDefaults(v1::GameSettings& settings);
// The settings' `players`; any number from kMinPlayers up makes a game, so a table may start
// smaller after a wait.
Seating SeatingOf(const v1::GameSettings& settings);
// Sets `players`: a table that started smaller than the settings asked.
void WithPlayers(v1::GameSettings& settings, int players);
// The preset of a deal, checked against the settings.
absl::StatusOr<Preset> PresetFromProto(const v1::LiarsDicePreset& proto, const Settings& settings);

v1::Move BidMove(int quantity, int face);
v1::Move ChallengeMove();
v1::Move DeclarePutanaMove();
v1::Move ActionToMove(Action action);

// A Liar's dice game behind the engine interface. InvalidArgument for bad settings or preset.
absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal);

}  // namespace kahve::engine::liars_dice

#endif  // KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_CODEC_H_
