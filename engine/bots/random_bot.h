#ifndef KAHVE_ENGINE_BOTS_RANDOM_BOT_H_
#define KAHVE_ENGINE_BOTS_RANDOM_BOT_H_

// The `random` bot of every ruleset: a uniform choice among the legal moves it is given. It needs
// no view at all, so it cannot peek; rulesets pass it the legal moves of the seat's view.

#include <cassert>

#include "engine/core/rng.h"

namespace kahve::engine {

template <typename Action>
Action ChooseUniformly(const Action* legal, int count, Rng& rng) {
  assert(count > 0);  // a seat asked to act always has a legal move
  return legal[rng.Below(static_cast<uint32_t>(count))];
}

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_BOTS_RANDOM_BOT_H_
