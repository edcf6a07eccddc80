#ifndef KAHVE_ENGINE_CORE_SEATING_H_
#define KAHVE_ENGINE_CORE_SEATING_H_

// The table a ruleset's settings ask for (engine/core/registry.h, `Ruleset::seating`).

namespace kahve::engine {

struct Seating {
  // The seats the settings ask for.
  int preferred = 0;
  // The fewest seats the same game may be dealt to (through `Ruleset::with_players`) when players
  // are missing; equal to `preferred` when the number of players changes the game asked for.
  int min = 0;
};

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_SEATING_H_
