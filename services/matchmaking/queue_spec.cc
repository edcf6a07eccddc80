#include "services/matchmaking/queue_spec.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "engine/core/registry.h"
#include "engine/core/seating.h"
#include "google/protobuf/descriptor.h"

namespace kahve::matchmaking {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// The field of GameSettings that is set (its oneof case is its field number).
const FieldDescriptor* RulesetField(const v1::GameSettings& settings) {
  return v1::GameSettings::descriptor()->FindFieldByNumber(settings.ruleset_case());
}

// The queue's mode decides a partnership: the ruleset's partnership field (registry) follows it,
// and settings asking for partners in a SOLO queue disagree with it.
absl::Status FollowTheQueue(const engine::Ruleset& ruleset, bool teams,
                            v1::GameSettings& settings) {
  if (ruleset.partnership_setting.empty()) return absl::OkStatus();
  const FieldDescriptor* field = RulesetField(settings);
  Message& chosen = *settings.GetReflection()->MutableMessage(&settings, field);
  const FieldDescriptor* partnership =
      chosen.GetDescriptor()->FindFieldByName(std::string(ruleset.partnership_setting));
  if (partnership == nullptr || partnership->cpp_type() != FieldDescriptor::CPPTYPE_BOOL) {
    return absl::InternalError(absl::StrCat("registry: ", std::string(ruleset.id),
                                            " has no bool setting ",
                                            std::string(ruleset.partnership_setting)));
  }
  if (chosen.GetReflection()->GetBool(chosen, partnership) && !teams) {
    return absl::InvalidArgumentError(
        absl::StrCat("settings.", field->name(), ".", partnership->name(),
                     ": queue with teams to play partners (the flag follows the queue)"));
  }
  chosen.GetReflection()->SetBool(&chosen, partnership, teams);
  return absl::OkStatus();
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
  std::vector<std::string> queueable;
  for (const engine::QueueableSetting& setting : ruleset.queueable_settings) {
    queueable.emplace_back(setting.name);
  }
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

// The queueable setting `name` of the ruleset's settings message `chosen`: Internal unless the
// registry names an int32 or bool scalar.
absl::StatusOr<const FieldDescriptor*> QueueableField(const Message& chosen,
                                                      const engine::Ruleset& ruleset,
                                                      std::string_view name) {
  const FieldDescriptor* field = chosen.GetDescriptor()->FindFieldByName(std::string(name));
  if (field == nullptr || field->is_repeated() ||
      (field->cpp_type() != FieldDescriptor::CPPTYPE_INT32 &&
       field->cpp_type() != FieldDescriptor::CPPTYPE_BOOL)) {
    return absl::InternalError(absl::StrCat("registry: ", std::string(ruleset.id),
                                            " lists no int32 or bool setting ", std::string(name)));
  }
  return field;
}

// A queueable field's value: an int32 as it is, a bool as 0 or 1.
int32_t ValueOf(const Message& chosen, const FieldDescriptor* field) {
  if (field->cpp_type() == FieldDescriptor::CPPTYPE_BOOL) {
    return chosen.GetReflection()->GetBool(chosen, field) ? 1 : 0;
  }
  return chosen.GetReflection()->GetInt32(chosen, field);
}

// Offered values in words: "2..10" for a run of three or more, else "1 or 3", "0, 1, 3, 5 or 10".
std::string InWords(const std::vector<int32_t>& values) {
  if (values.size() >= 3 &&
      int64_t{values.back()} - values.front() + 1 == static_cast<int64_t>(values.size())) {
    return absl::StrCat(values.front(), "..", values.back());
  }
  std::string words;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) words += i + 1 == values.size() ? " or " : ", ";
    absl::StrAppend(&words, values[i]);
  }
  return words;
}

// InvalidArgument naming the first queueable field set to a value queues do not offer, with the
// values they do. Judged with defaults filled in, so a written 0 for "the default" is refused as
// the engine would refuse it.
absl::Status CheckOffered(const v1::GameSettings& settings, const engine::Ruleset& ruleset) {
  const FieldDescriptor* ruleset_field = RulesetField(settings);
  const Message& chosen = settings.GetReflection()->GetMessage(settings, ruleset_field);
  for (const engine::QueueableSetting& setting : ruleset.queueable_settings) {
    KAHVE_ASSIGN_OR_RETURN(const FieldDescriptor* field,
                           QueueableField(chosen, ruleset, setting.name));
    const int32_t value = ValueOf(chosen, field);
    if (std::find(setting.values.begin(), setting.values.end(), value) != setting.values.end()) {
      continue;
    }
    return absl::InvalidArgumentError(absl::StrCat("settings.", ruleset_field->name(), ".",
                                                   field->name(), ": a queue may ask for ",
                                                   InWords(setting.values), ", not ", value));
  }
  return absl::OkStatus();
}

// The canonical key (queue_spec.h): every queueable field in the registry's order, integers in
// decimal, booleans as 0 or 1, so equal settings always give one key, whatever the client left
// unset.
absl::StatusOr<std::string> KeyOf(const QueueSpec& spec, const engine::Ruleset& ruleset) {
  const Message& chosen =
      spec.settings.GetReflection()->GetMessage(spec.settings, RulesetField(spec.settings));
  std::vector<std::string> parts;
  for (const engine::QueueableSetting& setting : ruleset.queueable_settings) {
    KAHVE_ASSIGN_OR_RETURN(const FieldDescriptor* field,
                           QueueableField(chosen, ruleset, setting.name));
    parts.push_back(absl::StrCat(field->name(), "=", ValueOf(chosen, field)));
  }
  return absl::StrCat(spec.ruleset, "/", spec.teams ? "teams" : "solo", "/",
                      absl::StrJoin(parts, ","));
}

}  // namespace

absl::StatusOr<QueueSpec> QueueSpecFor(const v1::GameSettings& settings, bool teams) {
  auto found = engine::RulesetOf(settings);
  if (!found.ok()) return absl::InvalidArgumentError("settings: no ruleset set");
  const engine::Ruleset& ruleset = **found;
  QueueSpec spec;
  KAHVE_ASSIGN_OR_RETURN(spec.settings, QueueableOnly(settings, ruleset));
  // Defaults filled in, so settings leaving `players` unset and settings asking for the default
  // are one queue.
  ruleset.fill_defaults(spec.settings);
  // Few values per setting keep the queues few (the queue budget covers them all).
  KAHVE_RETURN_IF_ERROR(CheckOffered(spec.settings, ruleset));
  const engine::Seating seating = ruleset.seating(spec.settings);
  spec.preferred_seats = seating.preferred;
  spec.min_seats = seating.min;
  spec.ruleset = std::string(ruleset.id);
  if (teams) {
    if (ruleset.partnership_setting.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("teams: ", spec.ruleset, " has no partners; queue without teams"));
    }
    if (spec.preferred_seats != engine::kPartnershipSeats) {
      return absl::InvalidArgumentError(
          absl::StrCat("teams: partnerships need a table of ", engine::kPartnershipSeats));
    }
    // Partnerships need every seat: a table never shrinks.
    spec.min_seats = engine::kPartnershipSeats;
  }
  KAHVE_RETURN_IF_ERROR(FollowTheQueue(ruleset, teams, spec.settings));
  // The engine is the judge of valid settings (player ranges included): a game that cannot be
  // dealt cannot be queued for. Judged after the mode has set the partnership flag (okey: no
  // elimination with partners).
  v1::Deal deal;
  deal.set_seed(1);
  auto game = engine::NewGame(spec.settings, deal);
  if (!game.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("settings: ", game.status().message()));
  }
  spec.teams = teams;
  spec.mode = teams ? v1::TEAMS : v1::SOLO;
  // A ruleset with bots may give them the seats left empty.
  spec.bots_allowed = !(*game)->BotKinds().empty();
  KAHVE_ASSIGN_OR_RETURN(spec.key, KeyOf(spec, ruleset));
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
  if (seats == spec.preferred_seats) return settings;
  // A table smaller than preferred forms only where min_seats allows it, which the registry
  // allows only with a `with_players`.
  auto ruleset = engine::RulesetOf(settings);
  if (ruleset.ok() && (*ruleset)->with_players != nullptr) {
    (*ruleset)->with_players(settings, seats);
  }
  return settings;
}

}  // namespace kahve::matchmaking
