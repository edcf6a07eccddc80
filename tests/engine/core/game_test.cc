#include "engine/core/game.h"

#include "engine/core/registry.h"
#include "gtest/gtest.h"

namespace kahve::engine {
namespace {

TEST(GameTest, EventAudience) {
  v1::Event public_event;
  v1::Event private_event;
  private_event.set_private_to(2);
  EXPECT_TRUE(IsVisibleTo(public_event, kSpectator));
  EXPECT_TRUE(IsVisibleTo(public_event, 0));
  EXPECT_TRUE(IsVisibleTo(private_event, 2));
  EXPECT_FALSE(IsVisibleTo(private_event, 1));
  EXPECT_FALSE(IsVisibleTo(private_event, kSpectator));
  EXPECT_EQ(VisibleTo({public_event, private_event, public_event}, 1).size(), 2u);
  EXPECT_EQ(VisibleTo({public_event, private_event}, 2).size(), 2u);
}

TEST(RegistryTest, FindsRulesetsByIdAndBySettings) {
  const auto found = FindRuleset("liars_dice");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ((*found)->id, "liars_dice");
  const auto unknown = FindRuleset("chess");
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(unknown.status().message().find("known: liars_dice"), std::string::npos);

  v1::GameSettings settings;
  EXPECT_EQ(RulesetOf(settings).status().code(), absl::StatusCode::kInvalidArgument);
  settings.mutable_liars_dice();
  EXPECT_EQ((*RulesetOf(settings))->id, "liars_dice");
}

TEST(RegistryTest, EveryRulesetStartsAGameFromDefaults) {
  for (const Ruleset& ruleset : Rulesets()) {
    v1::GameSettings settings;
    const google::protobuf::FieldDescriptor* field =
        v1::GameSettings::descriptor()->FindFieldByNumber(ruleset.settings_case);
    ASSERT_NE(field, nullptr) << ruleset.id;
    EXPECT_EQ(field->name(), ruleset.id);
    settings.GetReflection()->MutableMessage(&settings, field);
    const auto game = NewGame(settings, v1::Deal());
    ASSERT_TRUE(game.ok()) << ruleset.id << ": " << game.status();
    EXPECT_FALSE((*game)->SeatsToAct().empty());
  }
}

}  // namespace
}  // namespace kahve::engine
