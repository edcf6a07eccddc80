#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "engine/core/registry.h"
#include "google/protobuf/descriptor.h"
#include "tools/kahve/commands.h"

ABSL_FLAG(std::string, game, "liars_dice", "sim: ruleset id");
ABSL_FLAG(int64_t, games, 1000, "sim: number of games");
ABSL_FLAG(uint64_t, seed, 1, "sim: seed of the whole run (game i uses a seed derived from it)");
ABSL_FLAG(int32_t, players, 0, "sim: seats per game (0: the ruleset's default)");
ABSL_FLAG(int32_t, dice, 0, "sim: dice per player, liars_dice's dice_per_player (0: default)");
ABSL_FLAG(int32_t, rounds, 0,
          "sim: stop each game after this many rounds, liars_dice's max_rounds (0: play to the "
          "end)");
ABSL_FLAG(int32_t, deals, 0,
          "sim: deals per game, okey51's and okey101's deals (0: their default); okey's deal "
          "limit, max_deals (0: 10)");
ABSL_FLAG(bool, teams, false,
          "sim: 2v2, partners opposite (the ruleset's partnership setting: okey's partners, "
          "okey51's and okey101's teams)");
ABSL_FLAG(bool, doubling, false, "sim: okey51's doubling chain of openings");
ABSL_FLAG(std::string, bots, "random",
          "sim: bot kinds, one for all seats or one per seat, comma-separated");

namespace kahve::tools {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// A sim flag and the settings field it writes: the first of `fields` that the ruleset's settings
// message has, or with no `fields` the ruleset's partnership field (registry). Which rulesets take
// a flag is thereby read from their settings messages, not listed here.
struct SimFlag {
  std::string_view flag;
  std::vector<std::string_view> fields;
};

const SimFlag kPlayers{"players", {"players"}};
const SimFlag kDice{"dice", {"dice_per_player"}};
const SimFlag kRounds{"rounds", {"max_rounds"}};
const SimFlag kDeals{"deals", {"deals", "max_deals"}};
const SimFlag kTeams{"teams", {}};
const SimFlag kDoubling{"doubling", {"doubling"}};

const Descriptor* SettingsMessageOf(const engine::Ruleset& ruleset) {
  return v1::GameSettings::descriptor()->FindFieldByNumber(ruleset.settings_case)->message_type();
}

// The field of the ruleset's settings that `flag` writes, or null when it has none.
const FieldDescriptor* FieldOf(const SimFlag& flag, const engine::Ruleset& ruleset) {
  const Descriptor* message = SettingsMessageOf(ruleset);
  if (flag.fields.empty()) {
    if (ruleset.partnership_setting.empty()) return nullptr;
    return message->FindFieldByName(std::string(ruleset.partnership_setting));
  }
  for (std::string_view name : flag.fields) {
    if (const FieldDescriptor* field = message->FindFieldByName(std::string(name))) return field;
  }
  return nullptr;
}

// Refuses a flag the ruleset's settings have no field for, naming the rulesets that take it.
absl::Status NotAFlagOf(const SimFlag& flag, const engine::Ruleset& ruleset) {
  std::vector<std::string> takers;
  for (const engine::Ruleset& other : engine::Rulesets()) {
    if (FieldOf(flag, other) != nullptr) takers.emplace_back(other.id);
  }
  const std::vector<std::string> fields(flag.fields.begin(), flag.fields.end());
  const std::string lacks = fields.empty()
                                ? "no partnerships"
                                : absl::StrCat("no ", absl::StrJoin(fields, " or "), " setting");
  return absl::InvalidArgumentError(absl::StrCat("--", std::string(flag.flag), ": ",
                                                 std::string(ruleset.id), " has ", lacks,
                                                 "; a flag of ", absl::StrJoin(takers, ", ")));
}

// A ruleset without a `players` setting plays one table size: --players may only repeat it.
absl::Status CheckFixedTable(const engine::Ruleset& ruleset, v1::GameSettings settings,
                             int players) {
  ruleset.fill_defaults(settings);
  const engine::Seating seating = ruleset.seating(settings);
  if (seating.min == players && seating.preferred == players) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("--players: ", std::string(ruleset.id), " is played by ", seating.preferred));
}

// Writes a flag's value into the ruleset's settings. A 0 or false leaves the field as the
// ruleset's defaults have it (an explicitly written 0 would be refused as out of range).
absl::Status WriteFlag(const SimFlag& flag, const engine::Ruleset& ruleset, int32_t value,
                       v1::GameSettings& settings) {
  if (value == 0) return absl::OkStatus();
  const FieldDescriptor* field = FieldOf(flag, ruleset);
  if (field == nullptr) {
    // --players 4 for okey51 asks for what the ruleset plays anyway.
    if (&flag == &kPlayers) return CheckFixedTable(ruleset, settings, value);
    return NotAFlagOf(flag, ruleset);
  }
  Message& chosen = *settings.GetReflection()->MutableMessage(
      &settings, v1::GameSettings::descriptor()->FindFieldByNumber(ruleset.settings_case));
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      chosen.GetReflection()->SetInt32(&chosen, field, value);
      return absl::OkStatus();
    case FieldDescriptor::CPPTYPE_BOOL:
      chosen.GetReflection()->SetBool(&chosen, field, value != 0);
      return absl::OkStatus();
    default:
      return absl::InternalError(absl::StrCat("--", std::string(flag.flag), ": ",
                                              std::string(ruleset.id), ".", field->name(),
                                              " is neither int32 nor bool"));
  }
}

// The ruleset's settings from the sim flags, over its simulation defaults (registry).
absl::StatusOr<v1::GameSettings> SettingsFromFlags(const engine::Ruleset& ruleset) {
  v1::GameSettings settings;
  settings.GetReflection()->MutableMessage(
      &settings, v1::GameSettings::descriptor()->FindFieldByNumber(ruleset.settings_case));
  if (ruleset.fill_sim_defaults != nullptr) ruleset.fill_sim_defaults(settings);
  const std::pair<const SimFlag*, int32_t> flags[] = {
      {&kPlayers, absl::GetFlag(FLAGS_players)},
      {&kDice, absl::GetFlag(FLAGS_dice)},
      {&kRounds, absl::GetFlag(FLAGS_rounds)},
      {&kDeals, absl::GetFlag(FLAGS_deals)},
      {&kTeams, absl::GetFlag(FLAGS_teams) ? 1 : 0},
      {&kDoubling, absl::GetFlag(FLAGS_doubling) ? 1 : 0},
  };
  for (const auto& [flag, value] : flags) {
    KAHVE_RETURN_IF_ERROR(WriteFlag(*flag, ruleset, value, settings));
  }
  return settings;
}

}  // namespace

int SimCommand(const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "kahve sim: unexpected argument \"%s\"\n", args[0].c_str());
    return 2;
  }
  const std::string game = absl::GetFlag(FLAGS_game);
  auto ruleset = engine::FindRuleset(game);
  if (!ruleset.ok()) {
    std::fprintf(stderr, "kahve sim: %s\n", std::string(ruleset.status().message()).c_str());
    return 2;
  }
  engine::SimOptions options;
  auto settings = SettingsFromFlags(**ruleset);
  if (!settings.ok()) {
    std::fprintf(stderr, "kahve sim: %s\n", std::string(settings.status().message()).c_str());
    return 2;
  }
  options.settings = *settings;
  options.bots = absl::StrSplit(absl::GetFlag(FLAGS_bots), ',');
  options.seed = absl::GetFlag(FLAGS_seed);
  options.games = absl::GetFlag(FLAGS_games);
  if (options.games < 1) {
    std::fputs("kahve sim: --games must be at least 1\n", stderr);
    return 2;
  }
  auto summary = (*ruleset)->simulate(options);
  if (!summary.ok()) {
    std::fprintf(stderr, "kahve sim: %s\n", std::string(summary.status().message()).c_str());
    return 2;
  }
  std::printf("%s\n", summary->ToJson().c_str());
  return 0;
}

}  // namespace kahve::tools
