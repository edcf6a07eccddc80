// okey51 behind the engine interface: settings and presets refused with the field at fault, views
// that show a seat its own hand only, and hints built from the seat's view.

#include <memory>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kahve::engine {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

v1::GameSettings Settings(bool hints = true) {
  v1::GameSettings settings;
  settings.mutable_okey51()->set_hints(hints);
  return settings;
}

absl::Status NewGameStatus(const v1::GameSettings& settings, const v1::Deal& deal = {}) {
  return NewGame(settings, deal).status();
}

TEST(Okey51GameTest, SettingsAreRefusedWithTheField) {
  v1::GameSettings settings = Settings();
  settings.mutable_okey51()->set_deals(2);
  EXPECT_THAT(NewGameStatus(settings).message(), HasSubstr("deals: 2 is not 1 or 3"));
  settings.mutable_okey51()->set_deals(3);
  settings.mutable_okey51()->set_first_starter(4);
  EXPECT_THAT(NewGameStatus(settings).message(), HasSubstr("first_starter: 4 is outside 0..3"));
  settings.mutable_okey51()->set_first_starter(3);
  auto game = NewGame(settings, {});
  ASSERT_TRUE(game.ok());
  // Stored complete, so equal tables read the same everywhere.
  EXPECT_EQ((*game)->settings().okey51().deals(), 3);
  EXPECT_EQ((*game)->SeatsToAct(), std::vector<int>{3});
}

TEST(Okey51GameTest, PresetsAreRefusedWithTheFieldAtFault) {
  auto with = [](auto fill) {
    v1::Deal deal;
    fill(deal.mutable_okey51()->add_deals());
    return std::string(NewGameStatus(Settings(), deal).message());
  };
  EXPECT_THAT(with([](v1::OkeyDealPreset* d) { d->add_hands()->add_tiles("R5"); }),
              HasSubstr("hands[0]: 1 tiles; this seat holds 15"));
  EXPECT_THAT(with([](v1::OkeyDealPreset* d) {
                for (int i = 0; i < 3; ++i) d->add_deck("B7");
              }),
              HasSubstr("names 3 tiles B7; there are 2"));
  EXPECT_THAT(with([](v1::OkeyDealPreset* d) { d->set_indicator("F"); }),
              HasSubstr("a fake okey is never the indicator"));
  EXPECT_THAT(with([](v1::OkeyDealPreset* d) { d->add_deck("G7"); }),
              HasSubstr("preset.deals[0].deck: \"G7\" is no tile"));
  v1::Deal two;
  two.mutable_okey51()->add_deals();
  two.mutable_okey51()->add_deals();
  EXPECT_THAT(NewGameStatus(Settings(), two).message(), HasSubstr("2 deals for a game of 1"));
  v1::Deal other;
  other.mutable_liars_dice();
  EXPECT_THAT(NewGameStatus(Settings(), other).message(), HasSubstr("not an okey51 preset"));
}

// Seat 0 holds the 13s, Y3-Y5, R13, Y2, Y6, R7-R9 and four loose tiles; indicator K1 (okey K2).
std::unique_ptr<Game> PresetGame(bool hints) {
  v1::Deal deal;
  v1::OkeyDealPreset* preset = deal.mutable_okey51()->add_deals();
  auto* hand = preset->add_hands();
  for (const char* tile : {"B13", "K13", "Y13", "Y3", "Y4", "Y5", "R13", "Y2", "Y6", "R7", "R8",
                           "R9", "B1", "B1", "K2"}) {
    hand->add_tiles(tile);
  }
  preset->set_indicator("K1");
  return std::move(NewGame(Settings(hints), deal)).value();
}

TEST(Okey51GameTest, AViewShowsTheSeatsOwnHandAndPublicFactsOnly) {
  std::unique_ptr<Game> game = PresetGame(true);
  const v1::OkeyLayingView own = game->View(0).okey51();
  EXPECT_EQ(own.my_hand_size(), 15);
  EXPECT_EQ(own.my_hand(0), "R7") << "sorted by colour, then number";
  EXPECT_THAT(own.hand_counts(), ElementsAre(15, 14, 14, 14));
  EXPECT_EQ(own.indicator(), "K1");
  EXPECT_EQ(own.okey(), "K2");
  EXPECT_EQ(own.deck_count(), 48);
  EXPECT_TRUE(own.drawn()) << "the starter begins by discarding";
  EXPECT_EQ(own.opening_needs(), 51);
  EXPECT_EQ(game->View(1).okey51().my_hand_size(), 14);
  EXPECT_EQ(game->View(kSpectator).okey51().my_hand_size(), 0);
}

v1::Move Open(const std::vector<std::vector<std::string>>& melds) {
  v1::Move move;
  for (const auto& tiles : melds) {
    auto* meld = move.mutable_okey51()->mutable_lay_melds()->add_melds();
    for (const std::string& tile : tiles) meld->add_tiles()->set_tile(tile);
  }
  return move;
}

TEST(Okey51GameTest, HintsNamePenaltyTilesSortTheHandAndListTargets) {
  std::unique_ptr<Game> game = PresetGame(true);
  ASSERT_TRUE(game->Apply(0, Open({{"B13", "K13", "Y13"}, {"Y3", "Y4", "Y5"}})).accepted);
  const absl::StatusOr<v1::Hints> hints = game->Hints(0);
  ASSERT_TRUE(hints.ok()) << hints.status();
  const v1::OkeyHints& okey = hints->okey51();
  // R13 fits the set, Y2 and Y6 the run's ends, and the okey fits anywhere.
  EXPECT_THAT(okey.penalty_tiles(), ElementsAre("R13", "K2", "Y2", "Y6"));
  ASSERT_EQ(okey.groups_size(), 1);
  // The tidiest arrangement: the okey joins R7-R8-R9, four tiles.
  EXPECT_EQ(okey.groups(0).tiles_size(), 4);
  int hinted = okey.loose_size();
  for (const auto& group : okey.groups()) hinted += group.tiles_size();
  EXPECT_EQ(hinted, 9) << "every tile of the hand once";
  bool r13_to_the_set = false;
  for (const auto& target : okey.targets()) {
    if (target.tile() != "R13") continue;
    ASSERT_EQ(target.additions_size(), 1);
    r13_to_the_set =
        target.additions(0).meld() == 0 && target.additions(0).place() == v1::OKEY_PLACE_SET_COLOUR;
  }
  EXPECT_TRUE(r13_to_the_set);
  // The pair of blue 1s, and the okey with a single.
  ASSERT_GE(okey.pairs_size(), 2);
  EXPECT_EQ(okey.pairs(0).first(), "B1");

  EXPECT_EQ(game->Hints(kSpectator).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(PresetGame(false)->Hints(0).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace kahve::engine
