#include "engine/okey51/okey51.h"

#include "absl/strings/str_cat.h"
#include "engine/okey51/okey51_settlement.h"

namespace kahve::engine::okey51 {

absl::Status ValidateSettings(const Settings& settings) {
  if (settings.deals != 1 && settings.deals != 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("deals: ", settings.deals, " is not 1 or 3 (leave it unset for the default, 1)"));
  }
  if (settings.first_starter < 0 || settings.first_starter >= kPlayers) {
    return absl::InvalidArgumentError(
        absl::StrCat("first_starter: ", settings.first_starter, " is outside 0..3"));
  }
  return absl::OkStatus();
}

Rules RulesFor(const Settings& settings) {
  return Rules{.teams = settings.teams,
               .hints = settings.hints,
               .doubling = settings.doubling,
               .deals = settings.deals,
               .first_starter = settings.first_starter,
               .starter_tiles = kStarterTiles,
               .opening_minimum = kOpeningMinimum,
               .pairs_openers_add = false,
               .charge_additions = true,
               .charge_taken_discard = true,
               .penalty_tile_points = 100,
               .okey_discard_points = 0,
               .void_when_all_open_pairs = false,
               .settle = &Okey51Settle};
}

}  // namespace kahve::engine::okey51
