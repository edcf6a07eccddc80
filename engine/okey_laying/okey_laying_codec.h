#ifndef KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_CODEC_H_
#define KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_CODEC_H_

// The kahve.v1 edge of the laying okeys' moves: the same OkeyLayingMove for okey51 and okey101.

#include "absl/status/statusor.h"
#include "engine/okey_laying/okey_laying.h"
#include "kahve/v1/engine.pb.h"

namespace kahve::engine::okey_laying {

// The action a move stands for into `action`, or why it is malformed (an unknown tile name, a
// stand-in for a tile that is no okey or that names no face, a place not set, no action). Whether
// it is legal now is State::Check's to say.
Refusal DecodeMove(const v1::OkeyLayingMove& move, const okey::Jokers& jokers, Action* action);
v1::OkeyLayingMove ActionToProto(const Action& action, const okey::Jokers& jokers);

// The preset of a game of `rules` (deals dealt in order, the rest from the seed), checked.
absl::StatusOr<Preset> PresetFromProto(const v1::OkeyLayingPreset& proto, const Rules& rules);

}  // namespace kahve::engine::okey_laying

#endif  // KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_CODEC_H_
