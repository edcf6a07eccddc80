#ifndef KAHVE_ENGINE_OKEY51_OKEY51_CODEC_H_
#define KAHVE_ENGINE_OKEY51_OKEY51_CODEC_H_

// The kahve.v1 edge of okey51: the only files of the ruleset that speak protobuf (with
// okey51_game.cc, the Game behind the engine interface).

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/okey51/okey51.h"

namespace kahve::engine::okey51 {

// Settings with defaults filled in (deals 0 -> 1), validated.
absl::StatusOr<Settings> SettingsFromProto(const v1::Okey51Settings& proto);
v1::Okey51Settings SettingsToProto(const Settings& settings);
// The preset of a deal, checked against the settings.
absl::StatusOr<Preset> PresetFromProto(const v1::Okey51Preset& proto, const Settings& settings);

// The action a move stands for into `action`, or why it is malformed (an unknown tile name, a
// stand-in for a tile that is no okey or that names no face, a place not set, no action). Whether
// it is legal now is State::Check's to say.
Refusal DecodeMove(const v1::Okey51Move& move, const okey::Jokers& jokers, Action* action);
v1::Move ActionToMove(const Action& action, const okey::Jokers& jokers);

v1::RejectionReason ReasonToProto(Reason reason);

// An okey51 game behind the engine interface. InvalidArgument for bad settings or preset.
absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal);

}  // namespace kahve::engine::okey51

#endif  // KAHVE_ENGINE_OKEY51_OKEY51_CODEC_H_
