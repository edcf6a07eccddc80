#include "services/matchmaking/queue_spec.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"
#include "engine/core/status_macros.h"
#include "google/protobuf/descriptor.h"

namespace kahve::matchmaking {
namespace {

// What matchmaking needs to know of a ruleset beyond what the engine checks.
struct RulesetProfile {
  // Whether the ruleset plays in partnerships (2v2).
  bool has_partners = false;
  // Whether its tables may seat bots.
  bool bots = false;
};

// Fills in the engine's defaults (so settings leaving `players` unset and settings asking for
// the default are one queue) and returns the ruleset's profile and table sizes.
absl::StatusOr<RulesetProfile> Normalize(const engine::Ruleset& ruleset,
                                         v1::GameSettings& settings, int* preferred,
                                         int* min_seats) {
  ruleset.fill_defaults(settings);
  switch (settings.ruleset_case()) {
    case v1::GameSettings::kLiarsDice: {
      const v1::LiarsDiceSettings& dice = settings.liars_dice();
      *preferred = dice.players();
      // Any number of players from 2 up makes a game, so a long wait may start a smaller table.
      *min_seats = 2;
      return RulesetProfile{.has_partners = false, .bots = true};
    }
    case v1::GameSettings::kOkey: {
      const v1::OkeySettings& okey = settings.okey();
      // The table size the settings ask for, never smaller: 2, 3 or 4 players play different games.
      *preferred = okey.players();
      *min_seats = okey.players();
      return RulesetProfile{.has_partners = true, .bots = true};
    }
    case v1::GameSettings::kOkey51: {
      // Four seats, always.
      *preferred = 4;
      *min_seats = 4;
      return RulesetProfile{.has_partners = true, .bots = true};
    }
    case v1::GameSettings::kOkey101: {
      *preferred = 4;
      *min_seats = 4;
      return RulesetProfile{.has_partners = true, .bots = true};
    }
    case v1::GameSettings::kMexicanTrain: {
      const v1::MexicanTrainSettings& train = settings.mexican_train();
      // The table size the settings ask for: hand sizes follow the number of players.
      *preferred = train.players();
      *min_seats = train.players();
      return RulesetProfile{.has_partners = false, .bots = true};
    }
    default:
      return absl::InvalidArgumentError("settings: no ruleset set");
  }
}

// The queue's mode decides a partnership; a settings flag asking for one must not disagree.
absl::Status FollowsTheQueue(bool asks_for_partners, bool teams, std::string_view field) {
  if (asks_for_partners && !teams) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(field), ": queue with teams to play partners (the flag follows the queue)"));
  }
  return absl::OkStatus();
}

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// The field of GameSettings that is set (its oneof case is its field number).
const FieldDescriptor* RulesetField(const v1::GameSettings& settings) {
  return v1::GameSettings::descriptor()->FindFieldByNumber(settings.ruleset_case());
}

// `settings` with nothing but the ruleset's queueable fields, or InvalidArgument naming the first
// other field set. Unknown fields are dropped: they would only travel into the tickets' rows and
// the tables' requests.
absl::StatusOr<v1::GameSettings> QueueableOnly(const v1::GameSettings& settings,
                                               const engine::Ruleset& ruleset) {
  const FieldDescriptor* field = RulesetField(settings);
  const Message& asked = settings.GetReflection()->GetMessage(settings, field);
  std::vector<const FieldDescriptor*> set;
  asked.GetReflection()->ListFields(asked, &set);  // proto3: the fields not at their default
  const std::vector<std::string> queueable(ruleset.queueable_settings.begin(),
                                           ruleset.queueable_settings.end());
  for (const FieldDescriptor* setting : set) {
    if (std::find(queueable.begin(), queueable.end(), setting->name()) == queueable.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "settings.", field->name(), ".", setting->name(), ": not queueable; a ",
          std::string(ruleset.id), " queue may ask for ", absl::StrJoin(queueable, ", ")));
    }
  }
  v1::GameSettings kept;
  Message* copy = kept.GetReflection()->MutableMessage(&kept, field);
  copy->CopyFrom(asked);
  copy->DiscardUnknownFields();
  return kept;
}

// The canonical key (queue_spec.h): every queueable field in the registry's order, integers in
// decimal, booleans as 0 or 1, so equal settings always give one key, whatever the client left
// unset.
absl::StatusOr<std::string> KeyOf(const QueueSpec& spec, const engine::Ruleset& ruleset) {
  const Message& chosen =
      spec.settings.GetReflection()->GetMessage(spec.settings, RulesetField(spec.settings));
  std::vector<std::string> parts;
  for (std::string_view setting : ruleset.queueable_settings) {
    const std::string name(setting);
    const FieldDescriptor* field = chosen.GetDescriptor()->FindFieldByName(name);
    if (field == nullptr || field->is_repeated()) {
      return absl::InternalError(
          absl::StrCat("registry: ", std::string(ruleset.id), " lists no scalar setting ", name));
    }
    switch (field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        parts.push_back(absl::StrCat(name, "=", chosen.GetReflection()->GetInt32(chosen, field)));
        break;
      case FieldDescriptor::CPPTYPE_BOOL:
        parts.push_back(
            absl::StrCat(name, "=", chosen.GetReflection()->GetBool(chosen, field) ? 1 : 0));
        break;
      default:
        return absl::InternalError(absl::StrCat("registry: ", std::string(ruleset.id), ".", name,
                                                " is neither int32 nor bool"));
    }
  }
  return absl::StrCat(spec.ruleset, "/", spec.teams ? "teams" : "solo", "/",
                      absl::StrJoin(parts, ","));
}

}  // namespace

absl::StatusOr<QueueSpec> QueueSpecFor(const v1::GameSettings& settings, bool teams) {
  auto ruleset = engine::RulesetOf(settings);
  if (!ruleset.ok()) return absl::InvalidArgumentError("settings: no ruleset set");
  QueueSpec spec;
  KAHVE_ASSIGN_OR_RETURN(spec.settings, QueueableOnly(settings, **ruleset));
  auto profile = Normalize(**ruleset, spec.settings, &spec.preferred_seats, &spec.min_seats);
  if (!profile.ok()) return profile.status();
  spec.ruleset = std::string((*ruleset)->id);
  if (teams) {
    if (!profile->has_partners) {
      return absl::InvalidArgumentError(
          absl::StrCat("teams: ", spec.ruleset, " has no partners; queue without teams"));
    }
    if (spec.preferred_seats != 4) {
      return absl::InvalidArgumentError("teams: partnerships need a table of four");
    }
    // Partnerships need every seat: a table never shrinks.
    spec.min_seats = 4;
  }
  if (spec.settings.has_okey()) {
    KAHVE_RETURN_IF_ERROR(
        FollowsTheQueue(spec.settings.okey().partners(), teams, "settings.okey.partners"));
    spec.settings.mutable_okey()->set_partners(teams);
  }
  if (spec.settings.has_okey51()) {
    KAHVE_RETURN_IF_ERROR(
        FollowsTheQueue(spec.settings.okey51().teams(), teams, "settings.okey51.teams"));
    spec.settings.mutable_okey51()->set_teams(teams);
  }
  if (spec.settings.has_okey101()) {
    KAHVE_RETURN_IF_ERROR(
        FollowsTheQueue(spec.settings.okey101().teams(), teams, "settings.okey101.teams"));
    spec.settings.mutable_okey101()->set_teams(teams);
  }
  // The engine is the judge of valid settings: a game that cannot be dealt cannot be queued for.
  // Judged after the mode has set the partnership flags (okey: no elimination with partners).
  v1::Deal deal;
  deal.set_seed(1);
  auto game = engine::NewGame(spec.settings, deal);
  if (!game.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("settings: ", game.status().message()));
  }
  spec.teams = teams;
  spec.mode = teams ? v1::TEAMS : v1::SOLO;
  spec.bots_allowed = profile->bots;
  KAHVE_ASSIGN_OR_RETURN(spec.key, KeyOf(spec, **ruleset));
  return spec;
}

std::string RulesetOfKey(const std::string& key) {
  return key.substr(0, key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_"));
}

const char* ModeOfKey(const std::string& key) {
  return key.compare(RulesetOfKey(key).size(), 7, "/teams/") == 0 ? "teams" : "solo";
}

v1::GameSettings SettingsForSeats(const QueueSpec& spec, int seats) {
  v1::GameSettings settings = spec.settings;
  if (settings.has_liars_dice()) settings.mutable_liars_dice()->set_players(seats);
  return settings;
}

}  // namespace kahve::matchmaking
