#include "services/matchmaking/queue_catalog.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/registry.h"
#include "google/protobuf/descriptor.h"

namespace kahve::matchmaking {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// The ruleset's message of `settings`, chosen (made the oneof's case) if it was not.
Message& RulesetMessage(const engine::Ruleset& ruleset, v1::GameSettings& settings) {
  return *settings.GetReflection()->MutableMessage(
      &settings, v1::GameSettings::descriptor()->FindFieldByNumber(ruleset.settings_case));
}

// Moves `chosen` (an index into each setting's values) to the next combination, the last setting
// fastest; false after the last combination.
bool NextCombination(const std::vector<const engine::QueueableSetting*>& varied,
                     std::vector<size_t>& chosen) {
  for (size_t i = chosen.size(); i-- > 0;) {
    if (++chosen[i] < varied[i]->values.size()) return true;
    chosen[i] = 0;
  }
  return false;
}

// Every queue of one ruleset and mode (QueueSpecFor refuses teams where there are no partners).
void AddEveryQueue(const engine::Ruleset& ruleset, bool teams, std::vector<QueueSpec>& queues) {
  // The partnership flag follows the mode, so it is not varied.
  std::vector<const engine::QueueableSetting*> varied;
  for (const engine::QueueableSetting& setting : ruleset.queueable_settings) {
    if (setting.name == ruleset.partnership_setting) continue;
    if (setting.values.empty()) return;  // nothing is offered: no queue
    varied.push_back(&setting);
  }
  std::vector<size_t> chosen(varied.size(), 0);
  do {
    v1::GameSettings settings;
    Message& message = RulesetMessage(ruleset, settings);
    for (size_t i = 0; i < varied.size(); ++i) {
      const FieldDescriptor* field =
          message.GetDescriptor()->FindFieldByName(std::string(varied[i]->name));
      if (field == nullptr) continue;  // QueueSpecFor's key refuses such a registry
      const int32_t value = varied[i]->values[chosen[i]];
      if (field->cpp_type() == FieldDescriptor::CPPTYPE_BOOL) {
        message.GetReflection()->SetBool(&message, field, value != 0);
      } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_INT32) {
        message.GetReflection()->SetInt32(&message, field, value);
      }
    }
    auto spec = QueueSpecFor(settings, teams);
    if (spec.ok()) queues.push_back(*std::move(spec));
  } while (NextCombination(varied, chosen));
}

}  // namespace

std::vector<QueueSpec> EveryQueue() {
  std::vector<QueueSpec> queues;
  for (const engine::Ruleset& ruleset : engine::Rulesets()) {
    for (const bool teams : {false, true}) AddEveryQueue(ruleset, teams, queues);
  }
  return queues;
}

absl::flat_hash_set<std::string> StandardQueueKeys() {
  absl::flat_hash_set<std::string> keys;
  for (const engine::Ruleset& ruleset : engine::Rulesets()) {
    v1::GameSettings defaults;  // nothing set: the defaults, once filled in
    RulesetMessage(ruleset, defaults);
    for (const bool teams : {false, true}) {
      auto spec = QueueSpecFor(defaults, teams);
      if (spec.ok()) keys.insert(spec->key);
    }
  }
  return keys;
}

}  // namespace kahve::matchmaking
