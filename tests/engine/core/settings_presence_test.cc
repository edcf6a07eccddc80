// Settings fields with explicit presence (proto3 `optional`): unset means the ruleset's default,
// a written value is judged as written, 0 included. Checked for every field of every ruleset by
// reflection, so a field added later is covered without a new test.

#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "gtest/gtest.h"

namespace kahve::engine {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using ::testing::HasSubstr;

// Settings naming the ruleset with every field unset.
v1::GameSettings EmptySettingsOf(const Ruleset& ruleset) {
  v1::GameSettings settings;
  const FieldDescriptor* oneof_field =
      v1::GameSettings::descriptor()->FindFieldByNumber(ruleset.settings_case);
  settings.GetReflection()->MutableMessage(&settings, oneof_field);
  return settings;
}

Message& RulesetMessage(v1::GameSettings& settings) {
  return *settings.GetReflection()->MutableMessage(
      &settings, v1::GameSettings::descriptor()->FindFieldByNumber(settings.ruleset_case()));
}

// The int32 fields of the ruleset's settings that track presence.
std::vector<const FieldDescriptor*> OptionalIntFields(const Ruleset& ruleset) {
  v1::GameSettings settings = EmptySettingsOf(ruleset);
  const google::protobuf::Descriptor* message = RulesetMessage(settings).GetDescriptor();
  std::vector<const FieldDescriptor*> fields;
  for (int i = 0; i < message->field_count(); ++i) {
    const FieldDescriptor* field = message->field(i);
    if (field->has_presence() && field->cpp_type() == FieldDescriptor::CPPTYPE_INT32) {
      fields.push_back(field);
    }
  }
  return fields;
}

v1::Deal SeededDeal() {
  v1::Deal deal;
  deal.set_seed(7);
  return deal;
}

TEST(SettingsPresenceTest, EveryRulesetWithAPlayerCountOrDealCountTracksItsPresence) {
  for (const Ruleset& ruleset : Rulesets()) {
    std::vector<std::string> names;
    for (const FieldDescriptor* field : OptionalIntFields(ruleset)) names.push_back(field->name());
    EXPECT_THAT(names, ::testing::AnyOf(::testing::Contains("players"),
                                        ::testing::Contains("deals")))
        << ruleset.id;
  }
}

TEST(SettingsPresenceTest, AWrittenZeroIsRefusedNamingTheField) {
  for (const Ruleset& ruleset : Rulesets()) {
    for (const FieldDescriptor* field : OptionalIntFields(ruleset)) {
      v1::GameSettings settings = EmptySettingsOf(ruleset);
      Message& chosen = RulesetMessage(settings);
      chosen.GetReflection()->SetInt32(&chosen, field, 0);
      auto game = NewGame(settings, SeededDeal());
      ASSERT_FALSE(game.ok()) << ruleset.id << "." << field->name() << ": 0 was accepted";
      EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(std::string(game.status().message()), HasSubstr(field->name()));
    }
  }
}

TEST(SettingsPresenceTest, UnsetFieldsPlayTheDefaultsFillDefaultsWrites) {
  for (const Ruleset& ruleset : Rulesets()) {
    const v1::GameSettings unset = EmptySettingsOf(ruleset);
    v1::GameSettings filled = unset;
    ruleset.fill_defaults(filled);
    Message& chosen = RulesetMessage(filled);
    for (const FieldDescriptor* field : OptionalIntFields(ruleset)) {
      EXPECT_TRUE(chosen.GetReflection()->HasField(chosen, field))
          << ruleset.id << "." << field->name() << " left unset";
    }
    auto from_unset = NewGame(unset, SeededDeal());
    auto from_filled = NewGame(filled, SeededDeal());
    ASSERT_TRUE(from_unset.ok()) << ruleset.id << ": " << from_unset.status();
    ASSERT_TRUE(from_filled.ok()) << ruleset.id << ": " << from_filled.status();
    EXPECT_EQ((*from_unset)->num_seats(), (*from_filled)->num_seats()) << ruleset.id;
    EXPECT_TRUE((*from_unset)->SameState(**from_filled)) << ruleset.id;
  }
}

TEST(SettingsPresenceTest, FillDefaultsKeepsWrittenValues) {
  for (const Ruleset& ruleset : Rulesets()) {
    for (const FieldDescriptor* field : OptionalIntFields(ruleset)) {
      v1::GameSettings settings = EmptySettingsOf(ruleset);
      Message& chosen = RulesetMessage(settings);
      chosen.GetReflection()->SetInt32(&chosen, field, 0);
      ruleset.fill_defaults(settings);
      EXPECT_EQ(chosen.GetReflection()->GetInt32(chosen, field), 0)
          << ruleset.id << "." << field->name();
    }
  }
}

}  // namespace
}  // namespace kahve::engine
