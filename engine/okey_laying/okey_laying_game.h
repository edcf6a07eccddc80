#ifndef KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_GAME_H_
#define KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_GAME_H_

// A laying okey (okey51, okey101) behind the engine interface. Both speak the same kahve.v1
// messages (okey_laying.proto); each ruleset's own field of the engine's oneofs holds them.

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/okey_laying/okey_laying.h"

namespace kahve::engine::okey_laying {

// Where a ruleset's messages sit in the engine's oneofs.
struct LayingOneofs {
  std::string_view ruleset;
  bool (v1::Move::*has_move)() const;
  const v1::OkeyLayingMove& (v1::Move::*move)() const;
  v1::OkeyLayingMove* (v1::Move::*mutable_move)();
  const v1::OkeyLayingEvent& (v1::Event::*event)() const;
  v1::OkeyLayingEvent* (v1::Event::*mutable_event)();
  v1::OkeyLayingView* (v1::View::*mutable_view)();
  v1::OkeyHints* (v1::Hints::*mutable_hints)();
  v1::Deal::PresetCase preset_case;
  const v1::OkeyLayingPreset& (v1::Deal::*preset)() const;
};

// A game played by `rules` (valid) with `canonical` as its settings. InvalidArgument for a bad
// preset.
absl::StatusOr<std::unique_ptr<Game>> NewLayingGame(v1::GameSettings canonical,
                                                    const v1::Deal& deal, const Rules& rules,
                                                    const LayingOneofs& oneofs);

}  // namespace kahve::engine::okey_laying

#endif  // KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_GAME_H_
