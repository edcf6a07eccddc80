#include "engine/core/registry.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/status_macros.h"
#include "engine/liars_dice/liars_dice_codec.h"
#include "engine/liars_dice/liars_dice_sim.h"
#include "engine/liars_dice/liars_dice_text.h"
#include "engine/mexican_train/mexican_train_game.h"
#include "engine/mexican_train/mexican_train_text.h"
#include "engine/okey101/okey101_codec.h"
#include "engine/okey101/okey101_text.h"
#include "engine/okey51/okey51_codec.h"
#include "engine/okey51/okey51_text.h"
#include "engine/okey_classic/okey_classic_game.h"
#include "engine/okey_classic/okey_classic_text.h"

namespace kahve::engine {

const std::vector<Ruleset>& Rulesets() {
  // Listed explicitly: a linker drops self-registering objects nobody references.
  static const std::vector<Ruleset> kRulesets = {
      {"liars_dice", v1::GameSettings::kLiarsDice, &liars_dice::NewGame, &liars_dice::Simulate,
       {"players", "dice_per_player"}, &liars_dice::FillDefaults, &liars_dice::Text()},
      {"okey", v1::GameSettings::kOkey, &okey_classic::NewGame, &okey_classic::Simulate,
       {"players", "partners", "indicator_last_tile", "elimination", "single_colour_doubles",
        "single_colour_red_black_only", "max_deals"},
       &okey_classic::FillDefaults, &okey_classic::Text()},
      {"okey101", v1::GameSettings::kOkey101, &okey101::NewGame, &okey101::Simulate,
       {"teams", "hints", "deals"}, &okey101::FillDefaults, &okey101::Text()},
      {"okey51", v1::GameSettings::kOkey51, &okey51::NewGame, &okey51::Simulate,
       {"teams", "hints", "doubling", "deals"}, &okey51::FillDefaults, &okey51::Text()},
      {"mexican_train", v1::GameSettings::kMexicanTrain, &mexican_train::NewGame,
       &mexican_train::Simulate, {"players"}, &mexican_train::FillDefaults,
       &mexican_train::Text()},
  };
  return kRulesets;
}

absl::StatusOr<const Ruleset*> FindRuleset(std::string_view id) {
  std::vector<std::string> known;
  for (const Ruleset& ruleset : Rulesets()) {
    if (ruleset.id == id) return &ruleset;
    known.emplace_back(ruleset.id);
  }
  return absl::NotFoundError(absl::StrCat("unknown ruleset \"", std::string(id),
                                          "\"; known: ", absl::StrJoin(known, ", ")));
}

absl::StatusOr<const Ruleset*> RulesetOf(const v1::GameSettings& settings) {
  for (const Ruleset& ruleset : Rulesets()) {
    if (ruleset.settings_case == settings.ruleset_case()) return &ruleset;
  }
  return absl::InvalidArgumentError("settings name no ruleset: set one of the ruleset fields");
}

absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal) {
  KAHVE_ASSIGN_OR_RETURN(const Ruleset* ruleset, RulesetOf(settings));
  return ruleset->new_game(settings, deal);
}

}  // namespace kahve::engine
