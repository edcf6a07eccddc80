#ifndef KAHVE_ENGINE_OKEY101_OKEY101_H_
#define KAHVE_ENGINE_OKEY101_OKEY101_H_

// okey101, RULES.md "okey101" (seed 003, section "Окей 101"): a laying okey (engine/okey_laying)
// of several deals. The dealer holds 22 tiles and starts; the others hold 21. A seat opens with
// runs and sets worth 101 or more, or with five pairs; pairs openers add to others' melds too.
// Discarding an okey (not as the last tile) or a tile that fits a meld on the table costs 101.
// When all four open with pairs, the deal is void and dealt again. The settlement
// (okey101_settlement.h) multiplies for the okey finish, a pairs opener's finish and the
// one-turn finish. Lowest total after the last deal wins.
//
// Settings                 range               default
//   teams                  bool                false (2v2, partners opposite)
//   hints                  bool                false (the table serves hints; rules unchanged)
//   deals                  3, 5, 7, 9 or 11    5
//   first_dealer           0..3                0

#include "absl/status/status.h"
#include "engine/okey_laying/okey_laying.h"

namespace kahve::engine::okey101 {

using okey_laying::Rules;

inline constexpr int kPlayers = okey_laying::kPlayers;
inline constexpr int kDealerTiles = 22;
inline constexpr int kOpeningMinimum = 101;
// The seed's penalty unit: a penalty tile, an okey discarded, an okey held at the end.
inline constexpr int kPenalty = 101;
inline constexpr int kDefaultDeals = 5;

struct Settings {
  bool teams = false;
  bool hints = false;
  int deals = kDefaultDeals;
  int first_dealer = 0;
};

// InvalidArgument naming the field and its range, or OK.
absl::Status ValidateSettings(const Settings& settings);

// The laying rules of an okey101 table with these (valid) settings.
Rules RulesFor(const Settings& settings);

}  // namespace kahve::engine::okey101

#endif  // KAHVE_ENGINE_OKEY101_OKEY101_H_
