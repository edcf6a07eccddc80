#ifndef KAHVE_TESTS_ENGINE_OKEY_LAYING_LAYING_RULESETS_H_
#define KAHVE_TESTS_ENGINE_OKEY_LAYING_LAYING_RULESETS_H_

// The two rulesets on the laying okey core, for tests that run over both: where each keeps its
// messages in the engine's oneofs, and its deal's sizes.

#include <ostream>
#include <string>

#include "kahve/v1/engine.pb.h"

namespace kahve::engine::testing {

struct LayingRuleset {
  std::string name;  // "okey51" or "okey101"
  int starter_tiles = 15;

  bool is_okey101() const { return name == "okey101"; }
  v1::OkeyLayingMove* Move(v1::Move& move) const {
    return is_okey101() ? move.mutable_okey101() : move.mutable_okey51();
  }
  const v1::OkeyLayingEvent& Event(const v1::Event& event) const {
    return is_okey101() ? event.okey101() : event.okey51();
  }
  const v1::OkeyLayingView& View(const v1::View& view) const {
    return is_okey101() ? view.okey101() : view.okey51();
  }
  v1::OkeyLayingPreset* Preset(v1::Deal& deal) const {
    return is_okey101() ? deal.mutable_okey101() : deal.mutable_okey51();
  }
  // Default settings with hints as given.
  v1::GameSettings Settings(bool hints) const {
    v1::GameSettings settings;
    if (is_okey101()) {
      settings.mutable_okey101()->set_hints(hints);
    } else {
      settings.mutable_okey51()->set_hints(hints);
    }
    return settings;
  }
};

inline void PrintTo(const LayingRuleset& ruleset, std::ostream* out) { *out << ruleset.name; }

inline const LayingRuleset kOkey51{.name = "okey51", .starter_tiles = 15};
inline const LayingRuleset kOkey101{.name = "okey101", .starter_tiles = 22};

}  // namespace kahve::engine::testing

#endif  // KAHVE_TESTS_ENGINE_OKEY_LAYING_LAYING_RULESETS_H_
