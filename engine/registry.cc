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
      {.id = "liars_dice",
       .settings_case = v1::GameSettings::kLiarsDice,
       .new_game = &liars_dice::NewGame,
       .simulate = &liars_dice::Simulate,
       .queueable_settings = {"players", "dice_per_player"},
       .fill_defaults = &liars_dice::FillDefaults,
       .seating = &liars_dice::SeatingOf,
       .with_players = &liars_dice::WithPlayers,
       .partnership_setting = "",
       .fill_sim_defaults = nullptr,
       .text = &liars_dice::Text()},
      {.id = "okey",
       .settings_case = v1::GameSettings::kOkey,
       .new_game = &okey_classic::NewGame,
       .simulate = &okey_classic::Simulate,
       .queueable_settings = {"players", "partners", "indicator_last_tile", "elimination",
                              "single_colour_doubles", "single_colour_red_black_only",
                              "max_deals"},
       .fill_defaults = &okey_classic::FillDefaults,
       .seating = &okey_classic::SeatingOf,
       .with_players = nullptr,
       .partnership_setting = "partners",
       .fill_sim_defaults = &okey_classic::FillSimDefaults,
       .text = &okey_classic::Text()},
      {.id = "okey101",
       .settings_case = v1::GameSettings::kOkey101,
       .new_game = &okey101::NewGame,
       .simulate = &okey101::Simulate,
       .queueable_settings = {"teams", "hints", "deals"},
       .fill_defaults = &okey101::FillDefaults,
       .seating = &okey101::SeatingOf,
       .with_players = nullptr,
       .partnership_setting = "teams",
       .fill_sim_defaults = nullptr,
       .text = &okey101::Text()},
      {.id = "okey51",
       .settings_case = v1::GameSettings::kOkey51,
       .new_game = &okey51::NewGame,
       .simulate = &okey51::Simulate,
       .queueable_settings = {"teams", "hints", "doubling", "deals"},
       .fill_defaults = &okey51::FillDefaults,
       .seating = &okey51::SeatingOf,
       .with_players = nullptr,
       .partnership_setting = "teams",
       .fill_sim_defaults = nullptr,
       .text = &okey51::Text()},
      {.id = "mexican_train",
       .settings_case = v1::GameSettings::kMexicanTrain,
       .new_game = &mexican_train::NewGame,
       .simulate = &mexican_train::Simulate,
       .queueable_settings = {"players"},
       .fill_defaults = &mexican_train::FillDefaults,
       .seating = &mexican_train::SeatingOf,
       .with_players = nullptr,
       .partnership_setting = "",
       .fill_sim_defaults = nullptr,
       .text = &mexican_train::Text()},
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
