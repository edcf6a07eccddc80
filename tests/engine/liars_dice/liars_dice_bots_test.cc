#include "engine/liars_dice/liars_dice_bots.h"

#include <vector>

#include "engine/core/simulation.h"
#include "engine/liars_dice/liars_dice_sim.h"
#include "gtest/gtest.h"

namespace kahve::engine::liars_dice {
namespace {

SimOptions Sim(std::vector<std::string> bots, int64_t games, uint64_t seed, int players = 4) {
  SimOptions options;
  options.settings.mutable_liars_dice()->set_players(players);
  options.settings.mutable_liars_dice()->set_dice_per_player(5);
  options.bots = std::move(bots);
  options.seed = seed;
  options.games = games;
  return options;
}

// Issue 2: one heuristic bot against three random bots wins at least 70% of 2,000 seeded games.
TEST(LiarsDiceBotsTest, HeuristicBeatsThreeRandomBots) {
  const auto summary = Simulate(Sim({"heuristic", "random", "random", "random"}, 2000, 2026));
  ASSERT_TRUE(summary.ok());
  const double heuristic_wins = static_cast<double>(summary->win_units_by_seat[0]) / kWinShareUnits;
  EXPECT_GE(heuristic_wins, 0.70 * 2000) << summary->ToJson();
}

// Seat order must not decide it: the heuristic bot in the last seat wins as well.
TEST(LiarsDiceBotsTest, HeuristicWinsFromAnySeat) {
  const auto summary = Simulate(Sim({"random", "random", "random", "heuristic"}, 2000, 77));
  ASSERT_TRUE(summary.ok());
  EXPECT_GE(static_cast<double>(summary->win_units_by_seat[3]) / kWinShareUnits, 0.70 * 2000);
}

// Opening with nothing known beyond its own dice, it bids what it holds for sure.
TEST(LiarsDiceBotsTest, HeuristicOpensWithACertainBid) {
  SeatView view;
  view.my_dice = {4, 4, 0, 0, 0};
  view.my_dice_count = 2;
  view.bidding = BiddingState{.current = {}, .dice_on_table = 10};
  const Action action = ChooseHeuristic(view);
  ASSERT_TRUE(IsBid(action));
  EXPECT_DOUBLE_EQ(ChanceBidIsTrue(view, ActionBid(action)), 1.0);
  EXPECT_EQ(ActionBid(action), (Bid{1, 4})) << "the lowest of the certain bids";
}

// Every choice of both bots is legal, in every kind of game (PlayOut asserts legality in debug
// builds; here each choice is checked explicitly).
TEST(LiarsDiceBotsTest, BotsOnlyChooseLegalActions) {
  for (int players : {2, 3, 6, 10}) {
    for (int dice : {1, 2, 5}) {
      State state(Settings{.players = players, .dice_per_player = dice}, players * 31 + dice);
      Rng rng(9);
      int moves = 0;
      while (!state.over()) {
        const BotKind kind = moves % 2 == 0 ? BotKind::kHeuristic : BotKind::kRandom;
        const Action action = ChooseAction(kind, state.ViewFor(state.to_act()), rng);
        ASSERT_EQ(state.Check(action), Reason::kNone);
        state.Apply(action, nullptr);
        ++moves;
      }
    }
  }
}

TEST(LiarsDiceBotsTest, ChanceOfABidFromOwnDice) {
  SeatView view;
  view.my_dice = {1, 3, 3, 0, 0};
  view.my_dice_count = 3;
  view.bidding.dice_on_table = 3;
  // All dice are the viewer's own: certainty either way.
  EXPECT_DOUBLE_EQ(ChanceBidIsTrue(view, {3, 3}), 1.0);
  EXPECT_DOUBLE_EQ(ChanceBidIsTrue(view, {2, 4}), 0.0);
  view.bidding.dice_on_table = 4;
  // One unknown die shows a three or a one with chance 1/3.
  EXPECT_NEAR(ChanceBidIsTrue(view, {4, 3}), 1.0 / 3, 1e-12);
  EXPECT_NEAR(ChanceBidIsTrue(view, {2, 1}), 1.0 / 6, 1e-12);
  view.bidding.putana_round = true;
  EXPECT_NEAR(ChanceBidIsTrue(view, {3, 3}), 1.0 / 6, 1e-12);
}

TEST(LiarsDiceBotsTest, HeuristicChallengesAnImpossibleBidAndDeclaresPutana) {
  SeatView view;
  view.my_dice = {2, 2, 0, 0, 0};
  view.my_dice_count = 2;
  view.bidding = BiddingState{.current = {4, 6}, .dice_on_table = 4};
  EXPECT_EQ(ChooseHeuristic(view), kChallenge);
  view.bidding = BiddingState{.current = {}, .dice_on_table = 4, .may_declare_putana = true};
  EXPECT_EQ(ChooseHeuristic(view), kDeclarePutana);
}

TEST(LiarsDiceBotsTest, ParseBotKind) {
  EXPECT_EQ(*ParseBotKind("random"), BotKind::kRandom);
  EXPECT_EQ(*ParseBotKind("heuristic"), BotKind::kHeuristic);
  EXPECT_EQ(ParseBotKind("smart").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace kahve::engine::liars_dice
