// Queue keys and queueable settings (queue_spec.h, docs/matchmaking.md): one canonical key per
// queue, and a per-ruleset allow-list of the settings a queue may ask for.

#include "services/matchmaking/queue_spec.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "gtest/gtest.h"

namespace kahve::matchmaking {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string KeyOf(const v1::GameSettings& settings, bool teams = false) {
  const absl::StatusOr<QueueSpec> spec = QueueSpecFor(settings, teams);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? spec->key : "";
}

TEST(MatchmakingQueueSpecTest, EqualSettingsShareOneKey) {
  v1::GameSettings unset;
  unset.mutable_liars_dice();
  v1::GameSettings spelled_out;
  spelled_out.mutable_liars_dice()->set_players(4);
  spelled_out.mutable_liars_dice()->set_dice_per_player(5);
  EXPECT_EQ(KeyOf(unset), "liars_dice/solo/players=4,dice_per_player=5");
  EXPECT_EQ(KeyOf(spelled_out), KeyOf(unset));
  v1::GameSettings three;
  three.mutable_liars_dice()->set_players(3);
  EXPECT_EQ(KeyOf(three), "liars_dice/solo/players=3,dice_per_player=5");
}

// The metric labels ruleset and mode come back from a key as QueueSpecFor made them.
TEST(MatchmakingQueueSpecTest, AKeyGivesItsRulesetAndModeBack) {
  v1::GameSettings okey51;
  okey51.mutable_okey51();
  for (const bool teams : {false, true}) {
    const std::string key = KeyOf(okey51, teams);
    EXPECT_EQ(RulesetOfKey(key), "okey51") << key;
    EXPECT_EQ(std::string(ModeOfKey(key)), teams ? "teams" : "solo") << key;
  }
  EXPECT_EQ(RulesetOfKey("liars_dice players=4"), "liars_dice") << "a key of the old form";
  EXPECT_EQ(std::string(ModeOfKey("liars_dice players=4")), "solo");
}

TEST(MatchmakingQueueSpecTest, EveryRulesetsKeyListsItsQueueableSettingsInOrder) {
  v1::GameSettings okey;
  okey.mutable_okey()->set_max_deals(5);
  EXPECT_EQ(KeyOf(okey),
            "okey/solo/players=4,partners=0,indicator_last_tile=0,elimination=0,"
            "single_colour_doubles=0,single_colour_red_black_only=0,max_deals=5");
  v1::GameSettings partners;
  partners.mutable_okey()->set_single_colour_doubles(true);
  EXPECT_EQ(KeyOf(partners, /*teams=*/true),
            "okey/teams/players=4,partners=1,indicator_last_tile=0,elimination=0,"
            "single_colour_doubles=1,single_colour_red_black_only=0,max_deals=0");
  v1::GameSettings okey101;
  okey101.mutable_okey101();
  EXPECT_EQ(KeyOf(okey101, /*teams=*/true), "okey101/teams/teams=1,hints=0,deals=5");
  v1::GameSettings okey51;
  okey51.mutable_okey51()->set_doubling(true);
  EXPECT_EQ(KeyOf(okey51), "okey51/solo/teams=0,hints=0,doubling=1,deals=1");
  v1::GameSettings train;
  train.mutable_mexican_train()->set_players(6);
  EXPECT_EQ(KeyOf(train), "mexican_train/solo/players=6");
}

// Finding 3 of issue 17 used 250 values of max_rounds for 250 queues: it is no queue's business.
TEST(MatchmakingQueueSpecTest, ASettingOutsideTheAllowListIsRefusedByName) {
  v1::GameSettings rounds;
  rounds.mutable_liars_dice()->set_max_rounds(3);
  const absl::StatusOr<QueueSpec> refused = QueueSpecFor(rounds, false);
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()),
              StartsWith("settings.liars_dice.max_rounds: not queueable"));
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("players, dice_per_player"));

  v1::GameSettings starter;
  starter.mutable_okey()->set_first_starter(1);
  EXPECT_THAT(std::string(QueueSpecFor(starter, false).status().message()),
              StartsWith("settings.okey.first_starter:"));
  v1::GameSettings dealer;
  dealer.mutable_okey101()->set_first_dealer(2);
  EXPECT_THAT(std::string(QueueSpecFor(dealer, false).status().message()),
              StartsWith("settings.okey101.first_dealer:"));
  v1::GameSettings okey51_starter;
  okey51_starter.mutable_okey51()->set_first_starter(3);
  EXPECT_THAT(std::string(QueueSpecFor(okey51_starter, false).status().message()),
              StartsWith("settings.okey51.first_starter:"));
}

// Issue 28, finding 7: 200 values of max_deals were 200 queues. A queueable setting takes only
// the values the registry offers; the refusal names the field and those values, checked with
// defaults filled in (a written 0 is no default).
TEST(MatchmakingQueueSpecTest, AValueQueuesDoNotOfferIsRefusedWithTheValuesTheyDo) {
  const auto message = [](const v1::GameSettings& settings, bool teams = false) {
    return std::string(QueueSpecFor(settings, teams).status().message());
  };
  v1::GameSettings deals;
  deals.mutable_okey()->set_max_deals(7);
  EXPECT_EQ(QueueSpecFor(deals, false).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(message(deals), "settings.okey.max_deals: a queue may ask for 0, 1, 3, 5 or 10, not 7");
  deals.mutable_okey()->set_max_deals(1000000);
  EXPECT_EQ(message(deals, /*teams=*/true),
            "settings.okey.max_deals: a queue may ask for 0, 1, 3, 5 or 10, not 1000000");
  v1::GameSettings five;
  five.mutable_okey()->set_players(5);
  EXPECT_EQ(message(five, /*teams=*/true), "settings.okey.players: a queue may ask for 2..4, not 5")
      << "the value is judged before the mode's table size";
  v1::GameSettings dice;
  dice.mutable_liars_dice()->set_dice_per_player(0);
  EXPECT_EQ(message(dice), "settings.liars_dice.dice_per_player: a queue may ask for 1..5, not 0");
  v1::GameSettings okey51;
  okey51.mutable_okey51()->set_deals(2);
  EXPECT_EQ(message(okey51), "settings.okey51.deals: a queue may ask for 1 or 3, not 2");
  v1::GameSettings okey101;
  okey101.mutable_okey101()->set_deals(4);
  EXPECT_EQ(message(okey101),
            "settings.okey101.deals: a queue may ask for 3, 5, 7, 9 or 11, not 4");
  v1::GameSettings train;
  train.mutable_mexican_train()->set_players(11);
  EXPECT_EQ(message(train), "settings.mexican_train.players: a queue may ask for 2..10, not 11");
}

TEST(MatchmakingQueueSpecTest, UnknownFieldsAreDropped) {
  v1::GameSettings padded;
  padded.mutable_liars_dice()->set_players(3);
  padded.mutable_liars_dice()
      ->GetReflection()
      ->MutableUnknownFields(padded.mutable_liars_dice())
      ->AddLengthDelimited(99, std::string(1000, 'x'));
  const absl::StatusOr<QueueSpec> spec = QueueSpecFor(padded, false);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->key, "liars_dice/solo/players=3,dice_per_player=5");
  EXPECT_LT(spec->settings.ByteSizeLong(), 20u) << "the padding would be stored with the ticket";
}

// The mode sets the partnership flag before the engine judges: elimination with partners is a
// game the engine refuses, so it must be refused at Enqueue, not when its table is created.
TEST(MatchmakingQueueSpecTest, SettingsAreJudgedAsTheTableWillGetThem) {
  v1::GameSettings elimination;
  elimination.mutable_okey()->set_elimination(true);
  EXPECT_TRUE(QueueSpecFor(elimination, /*teams=*/false).ok());
  EXPECT_EQ(QueueSpecFor(elimination, /*teams=*/true).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Table sizes, partnerships and bots come from the engine's registry (issue 21); these are the
// values matchmaking had before it named no ruleset.
TEST(MatchmakingQueueSpecTest, TablesAreSizedAsEachRulesetSays) {
  v1::GameSettings dice;
  dice.mutable_liars_dice()->set_players(5);
  const absl::StatusOr<QueueSpec> liars = QueueSpecFor(dice, false);
  ASSERT_TRUE(liars.ok()) << liars.status();
  EXPECT_EQ(liars->preferred_seats, 5);
  EXPECT_EQ(liars->min_seats, 2) << "a long wait may start a smaller Liar's dice table";
  EXPECT_TRUE(liars->bots_allowed);
  EXPECT_EQ(SettingsForSeats(*liars, 3).liars_dice().players(), 3);
  EXPECT_EQ(SettingsForSeats(*liars, 5).liars_dice().players(), 5);

  v1::GameSettings three;
  three.mutable_okey()->set_players(3);
  const absl::StatusOr<QueueSpec> okey = QueueSpecFor(three, false);
  ASSERT_TRUE(okey.ok()) << okey.status();
  EXPECT_EQ(okey->preferred_seats, 3);
  EXPECT_EQ(okey->min_seats, 3);
  EXPECT_TRUE(okey->bots_allowed);
  EXPECT_EQ(SettingsForSeats(*okey, 3).SerializeAsString(), okey->settings.SerializeAsString());

  v1::GameSettings train;
  train.mutable_mexican_train()->set_players(6);
  const absl::StatusOr<QueueSpec> mexican = QueueSpecFor(train, false);
  ASSERT_TRUE(mexican.ok()) << mexican.status();
  EXPECT_EQ(mexican->preferred_seats, 6);
  EXPECT_EQ(mexican->min_seats, 6);

  for (const bool teams : {false, true}) {
    v1::GameSettings okey51;
    okey51.mutable_okey51();
    const absl::StatusOr<QueueSpec> spec = QueueSpecFor(okey51, teams);
    ASSERT_TRUE(spec.ok()) << spec.status();
    EXPECT_EQ(spec->preferred_seats, 4);
    EXPECT_EQ(spec->min_seats, 4);
    EXPECT_EQ(spec->settings.okey51().teams(), teams) << "the flag follows the queue";
  }
  EXPECT_EQ(QueueSpecFor(dice, /*teams=*/true).status().message(),
            "teams: liars_dice has no partners; queue without teams");
  EXPECT_EQ(QueueSpecFor(train, /*teams=*/true).status().code(),
            absl::StatusCode::kInvalidArgument);
  v1::GameSettings partners;
  partners.mutable_okey101()->set_teams(true);
  EXPECT_THAT(std::string(QueueSpecFor(partners, /*teams=*/false).status().message()),
              StartsWith("settings.okey101.teams: queue with teams"));
}

TEST(MatchmakingQueueSpecTest, TheRegistryListsScalarSettingsOfEachRuleset) {
  for (const engine::Ruleset& ruleset : engine::Rulesets()) {
    const google::protobuf::FieldDescriptor* field =
        v1::GameSettings::descriptor()->FindFieldByNumber(ruleset.settings_case);
    ASSERT_NE(field, nullptr) << ruleset.id;
    EXPECT_FALSE(ruleset.queueable_settings.empty()) << ruleset.id;
    for (const engine::QueueableSetting& queueable : ruleset.queueable_settings) {
      const std::string name(queueable.name);
      const google::protobuf::FieldDescriptor* setting =
          field->message_type()->FindFieldByName(name);
      ASSERT_NE(setting, nullptr) << ruleset.id << "." << name;
      EXPECT_FALSE(setting->is_repeated()) << ruleset.id << "." << name;
      EXPECT_TRUE(setting->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_INT32 ||
                  setting->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_BOOL)
          << ruleset.id << "." << name;
      // Few values, ascending and distinct (the refusal's "2..10" relies on it); a bool's are
      // 0 and 1.
      EXPECT_FALSE(queueable.values.empty()) << ruleset.id << "." << name;
      EXPECT_LE(queueable.values.size(), 16u) << ruleset.id << "." << name;
      EXPECT_TRUE(std::is_sorted(queueable.values.begin(), queueable.values.end()) &&
                  std::adjacent_find(queueable.values.begin(), queueable.values.end()) ==
                      queueable.values.end())
          << ruleset.id << "." << name;
      if (setting->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_BOOL) {
        EXPECT_EQ(queueable.values, (std::vector<int32_t>{0, 1})) << ruleset.id << "." << name;
      }
    }
  }
}

}  // namespace
}  // namespace kahve::matchmaking
