#ifndef KAHVE_ENGINE_CORE_SEATING_H_
#define KAHVE_ENGINE_CORE_SEATING_H_

// The table a ruleset's settings ask for (engine/core/registry.h, `Ruleset::seating`), and how
// partners sit: the one seating every ruleset with partnerships (and matchmaking) shares.

namespace kahve::engine {

struct Seating {
  // The seats the settings ask for.
  int preferred = 0;
  // The fewest seats the same game may be dealt to (through `Ruleset::with_players`) when players
  // are missing; equal to `preferred` when the number of players changes the game asked for.
  int min = 0;
};

// A partnership table (`Ruleset::partnership_setting` on): four seats, partners opposite, so
// seats 0 and 2 play against seats 1 and 3.
inline constexpr int kPartnershipSeats = 4;
// The team of `seat` at a partnership table: 0 or 1.
constexpr int TeamOf(int seat) { return seat % 2; }
// The seat of `seat`'s partner.
constexpr int PartnerOf(int seat) { return (seat + 2) % kPartnershipSeats; }
constexpr bool SameTeam(int a, int b) { return TeamOf(a) == TeamOf(b); }

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_SEATING_H_
