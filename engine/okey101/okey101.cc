#include "engine/okey101/okey101.h"

#include "absl/strings/str_cat.h"
#include "engine/okey101/okey101_settlement.h"

namespace kahve::engine::okey101 {

absl::Status ValidateSettings(const Settings& settings) {
  if (settings.deals < 3 || settings.deals > 11 || settings.deals % 2 == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "deals: ", settings.deals, " is not 3, 5, 7, 9 or 11 (leave it unset for the default, 5)"));
  }
  if (settings.first_dealer < 0 || settings.first_dealer >= kPlayers) {
    return absl::InvalidArgumentError(
        absl::StrCat("first_dealer: ", settings.first_dealer, " is outside 0..3"));
  }
  return absl::OkStatus();
}

Rules RulesFor(const Settings& settings) {
  return Rules{.teams = settings.teams,
               .hints = settings.hints,
               .doubling = false,
               .deals = settings.deals,
               .first_starter = settings.first_dealer,
               .starter_tiles = kDealerTiles,
               .opening_minimum = kOpeningMinimum,
               .pairs_openers_add = true,
               .charge_additions = false,
               .charge_taken_discard = false,
               .penalty_tile_points = kPenalty,
               .okey_discard_points = kPenalty,
               .void_when_all_open_pairs = true,
               .take_used_in_any_lay = true,
               .settle = &Okey101Settle};
}

}  // namespace kahve::engine::okey101
