#include "engine/core/registry.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "engine/liars_dice/liars_dice_game.h"
#include "engine/liars_dice/liars_dice_sim.h"
#include "engine/liars_dice/liars_dice_text.h"
#include "engine/mexican_train/mexican_train_game.h"
#include "engine/mexican_train/mexican_train_text.h"
#include "engine/okey101/okey101_game.h"
#include "engine/okey101/okey101_text.h"
#include "engine/okey51/okey51_game.h"
#include "engine/okey51/okey51_text.h"
#include "engine/okey_classic/okey_classic_game.h"
#include "engine/okey_classic/okey_classic_text.h"

namespace kahve::engine {
namespace {

// A queueable int32 setting offering every value from `low` to `high`.
QueueableSetting Between(std::string_view name, int32_t low, int32_t high) {
  QueueableSetting setting{.name = name, .values = {}};
  for (int32_t value = low; value <= high; ++value) setting.values.push_back(value);
  return setting;
}

// A queueable bool setting: off and on.
QueueableSetting Flag(std::string_view name) { return {.name = name, .values = {0, 1}}; }

}  // namespace

const std::vector<Ruleset>& Rulesets() {
  // Listed explicitly: a linker drops self-registering objects nobody references.
  static const std::vector<Ruleset> kRulesets = {
      {.id = "liars_dice",
       .settings_case = v1::GameSettings::kLiarsDice,
       .new_game = &liars_dice::NewGame,
       .simulate = &liars_dice::Simulate,
       // The engine's whole ranges: 45 queues.
       .queueable_settings = {Between("players", 2, 10), Between("dice_per_player", 1, 5)},
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
       // max_deals: none (the rules' game, played to 0 points), 1 (one deal: the demo's and the
       // examples'), or a short, middling or long game (3, 5, 10). With the variants the engine
       // allows together: 210 queues.
       .queueable_settings = {Between("players", 2, 4),
                              Flag("partners"),
                              Flag("indicator_last_tile"),
                              Flag("elimination"),
                              Flag("single_colour_doubles"),
                              Flag("single_colour_red_black_only"),
                              {.name = "max_deals", .values = {0, 1, 3, 5, 10}}},
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
       // The rules' game lengths (RULES.md): 20 queues.
       .queueable_settings = {Flag("teams"),
                              Flag("hints"),
                              {.name = "deals", .values = {3, 5, 7, 9, 11}}},
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
       // The rules' game lengths (RULES.md): 16 queues.
       .queueable_settings =
           {Flag("teams"), Flag("hints"), Flag("doubling"), {.name = "deals", .values = {1, 3}}},
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
       // The engine's whole range: 9 queues.
       .queueable_settings = {Between("players", 2, 10)},
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
