// The registry's knowledge of tables (engine/core/registry.h): seats, shrinking, partnerships and
// simulation defaults, checked against the games the rulesets deal, so matchmaking and `kahve sim`
// may trust them without naming a ruleset.

#include <map>
#include <memory>
#include <string>

#include "engine/core/registry.h"
#include "google/protobuf/descriptor.h"
#include "gtest/gtest.h"

namespace kahve::engine {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

Message& RulesetMessage(v1::GameSettings& settings) {
  return *settings.GetReflection()->MutableMessage(
      &settings, v1::GameSettings::descriptor()->FindFieldByNumber(settings.ruleset_case()));
}

// Settings naming the ruleset, defaults filled in.
v1::GameSettings DefaultsOf(const Ruleset& ruleset) {
  v1::GameSettings settings;
  settings.GetReflection()->MutableMessage(
      &settings, v1::GameSettings::descriptor()->FindFieldByNumber(ruleset.settings_case));
  ruleset.fill_defaults(settings);
  return settings;
}

absl::StatusOr<std::unique_ptr<Game>> Deal(const v1::GameSettings& settings) {
  v1::Deal deal;
  deal.set_seed(11);
  return NewGame(settings, deal);
}

TEST(RegistrySeatingTest, EachRulesetsTableAsTheRegistrySaysIt) {
  const std::map<std::string, Seating> expected = {
      {"liars_dice", {.preferred = 4, .min = 2}},
      {"okey", {.preferred = 4, .min = 4}},
      {"okey101", {.preferred = 4, .min = 4}},
      {"okey51", {.preferred = 4, .min = 4}},
      {"mexican_train", {.preferred = 4, .min = 4}},
  };
  ASSERT_EQ(Rulesets().size(), expected.size()) << "a new ruleset needs its line here";
  for (const Ruleset& ruleset : Rulesets()) {
    ASSERT_NE(ruleset.seating, nullptr) << ruleset.id;
    const Seating seating = ruleset.seating(DefaultsOf(ruleset));
    const Seating& want = expected.at(std::string(ruleset.id));
    EXPECT_EQ(seating.preferred, want.preferred) << ruleset.id;
    EXPECT_EQ(seating.min, want.min) << ruleset.id;
  }
}

TEST(RegistrySeatingTest, ASeatCountAskedForIsTheTablesSize) {
  for (const std::string id : {"liars_dice", "okey", "mexican_train"}) {
    const Ruleset& ruleset = **FindRuleset(id);
    v1::GameSettings settings = DefaultsOf(ruleset);
    Message& chosen = RulesetMessage(settings);
    chosen.GetReflection()->SetInt32(&chosen, chosen.GetDescriptor()->FindFieldByName("players"),
                                     3);
    const Seating seating = ruleset.seating(settings);
    EXPECT_EQ(seating.preferred, 3) << id;
    EXPECT_EQ(seating.min, id == "liars_dice" ? 2 : 3) << id;
  }
}

// Seating's preferred is what the engine deals; each size from min to preferred deals through
// with_players, and one below min is refused, so min is the engine's own lower bound.
TEST(RegistrySeatingTest, SeatingAgreesWithTheGamesTheEngineDeals) {
  for (const Ruleset& ruleset : Rulesets()) {
    const v1::GameSettings settings = DefaultsOf(ruleset);
    const Seating seating = ruleset.seating(settings);
    auto game = Deal(settings);
    ASSERT_TRUE(game.ok()) << ruleset.id << ": " << game.status();
    EXPECT_EQ((*game)->num_seats(), seating.preferred) << ruleset.id;
    ASSERT_LE(seating.min, seating.preferred) << ruleset.id;
    EXPECT_EQ(ruleset.with_players == nullptr, seating.min == seating.preferred)
        << ruleset.id << ": a table that may shrink needs with_players, and only it";
    if (ruleset.with_players == nullptr) continue;
    for (int players = seating.min; players <= seating.preferred; ++players) {
      v1::GameSettings smaller = settings;
      ruleset.with_players(smaller, players);
      auto dealt = Deal(smaller);
      ASSERT_TRUE(dealt.ok()) << ruleset.id << " with " << players << ": " << dealt.status();
      EXPECT_EQ((*dealt)->num_seats(), players) << ruleset.id;
    }
    v1::GameSettings too_few = settings;
    ruleset.with_players(too_few, seating.min - 1);
    EXPECT_FALSE(Deal(too_few).ok()) << ruleset.id << " dealt to " << seating.min - 1;
  }
}

TEST(RegistrySeatingTest, PartnershipSettingsNameTheirBoolField) {
  const std::map<std::string, std::string> expected = {
      {"liars_dice", ""}, {"okey", "partners"}, {"okey101", "teams"},
      {"okey51", "teams"}, {"mexican_train", ""},
  };
  for (const Ruleset& ruleset : Rulesets()) {
    EXPECT_EQ(std::string(ruleset.partnership_setting), expected.at(std::string(ruleset.id)));
    if (ruleset.partnership_setting.empty()) continue;
    v1::GameSettings settings = DefaultsOf(ruleset);
    const FieldDescriptor* field = RulesetMessage(settings).GetDescriptor()->FindFieldByName(
        std::string(ruleset.partnership_setting));
    ASSERT_NE(field, nullptr) << ruleset.id;
    EXPECT_EQ(field->cpp_type(), FieldDescriptor::CPPTYPE_BOOL) << ruleset.id;
  }
}

// Matchmaking seats a party of partners two seats apart: the engine must team them so. One game
// of each ruleset with partnerships, played out by random bots.
TEST(RegistrySeatingTest, PartnersSitOpposite) {
  for (const Ruleset& ruleset : Rulesets()) {
    if (ruleset.partnership_setting.empty()) continue;
    v1::GameSettings settings = DefaultsOf(ruleset);
    if (ruleset.fill_sim_defaults != nullptr) ruleset.fill_sim_defaults(settings);
    Message& chosen = RulesetMessage(settings);
    chosen.GetReflection()->SetBool(
        &chosen, chosen.GetDescriptor()->FindFieldByName(std::string(ruleset.partnership_setting)),
        true);
    auto game = Deal(settings);
    ASSERT_TRUE(game.ok()) << ruleset.id << ": " << game.status();
    ASSERT_EQ((*game)->num_seats(), 4) << ruleset.id;
    for (uint64_t bot_seed = 1; !(*game)->IsOver(); ++bot_seed) {
      ASSERT_LT(bot_seed, 100000u) << ruleset.id << ": the game does not end";
      const int seat = (*game)->SeatsToAct().front();
      auto move = (*game)->BotMove(seat, "random", bot_seed);
      ASSERT_TRUE(move.ok()) << ruleset.id << ": " << move.status();
      ASSERT_TRUE((*game)->Apply(seat, *move).accepted) << ruleset.id;
    }
    const v1::Result result = (*game)->Result();
    ASSERT_EQ(result.seats_size(), 4) << ruleset.id;
    EXPECT_EQ(result.seats(0).team(), result.seats(2).team()) << ruleset.id;
    EXPECT_EQ(result.seats(1).team(), result.seats(3).team()) << ruleset.id;
    EXPECT_NE(result.seats(0).team(), result.seats(1).team()) << ruleset.id;
  }
}

// A game is not necessarily ended by bots that seldom win (okey's scores reaching 0): the
// simulation defaults end it anyway, and they are settings the engine accepts.
TEST(RegistrySeatingTest, SimulationDefaultsAreSettingsTheEngineAccepts) {
  for (const Ruleset& ruleset : Rulesets()) {
    if (ruleset.fill_sim_defaults == nullptr) continue;
    v1::GameSettings settings = DefaultsOf(ruleset);
    ruleset.fill_sim_defaults(settings);
    EXPECT_TRUE(Deal(settings).ok()) << ruleset.id;
  }
  v1::GameSettings okey;
  okey.mutable_okey();
  (*FindRuleset("okey"))->fill_sim_defaults(okey);
  EXPECT_EQ(okey.okey().max_deals(), 10);
}

}  // namespace
}  // namespace kahve::engine
