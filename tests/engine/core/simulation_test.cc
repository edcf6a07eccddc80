#include "engine/core/simulation.h"

#include <numeric>

#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kahve::engine {
namespace {

using ::testing::HasSubstr;

TEST(SimulationTest, SeatBotsRepeatsOneOrTakesOnePerSeat) {
  EXPECT_EQ(*SeatBots({"random"}, 3), (std::vector<std::string>{"random", "random", "random"}));
  EXPECT_EQ(*SeatBots({"a", "b"}, 2), (std::vector<std::string>{"a", "b"}));
  EXPECT_THAT(SeatBots({"a", "b"}, 3).status().message(), HasSubstr("2 bots for 3 seats"));
}

TEST(SimulationTest, SharedFirstPlaceSplitsOneWin) {
  SimSummary summary;
  summary.win_units_by_seat.assign(3, 0);
  summary.seat_bots = {"random", "random", "heuristic"};
  summary.AddGame({1, 1, 3}, 10);
  summary.AddGame({2, 1, 3}, 5);
  summary.AddGame({1, 1, 1}, 5);
  EXPECT_EQ(summary.games, 3);
  EXPECT_EQ(summary.moves, 20);
  EXPECT_EQ(summary.games_with_shared_win, 2);
  EXPECT_EQ(std::accumulate(summary.win_units_by_seat.begin(), summary.win_units_by_seat.end(),
                            int64_t{0}),
            3 * kWinShareUnits);
  const std::string json = summary.ToJson();
  EXPECT_THAT(json, HasSubstr("\"wins_by_seat\": [0.833333, 1.833333, 0.333333]"));
  EXPECT_THAT(json, HasSubstr("\"wins_by_bot\": {\"heuristic\": 0.333333, \"random\": 2.666667}"));
}

absl::StatusOr<SimSummary> RunSim(uint64_t seed, int rounds, std::vector<std::string> bots) {
  SimOptions options;
  options.settings.mutable_liars_dice()->set_players(3);
  options.settings.mutable_liars_dice()->set_max_rounds(rounds);
  options.bots = std::move(bots);
  options.seed = seed;
  options.games = 500;
  return (*FindRuleset("liars_dice"))->simulate(options);
}

TEST(SimulationTest, SameArgumentsSameGames) {
  const auto first = RunSim(4, 0, {"heuristic", "random", "random"});
  const auto again = RunSim(4, 0, {"heuristic", "random", "random"});
  const auto other = RunSim(5, 0, {"heuristic", "random", "random"});
  ASSERT_TRUE(first.ok() && again.ok() && other.ok());
  EXPECT_EQ(first->moves, again->moves);
  EXPECT_EQ(first->win_units_by_seat, again->win_units_by_seat);
  EXPECT_NE(first->moves, other->moves);
  EXPECT_EQ(
      std::accumulate(first->win_units_by_seat.begin(), first->win_units_by_seat.end(), int64_t{0}),
      500 * kWinShareUnits);
}

TEST(SimulationTest, RoundLimitStopsEveryGameAfterThatManyChallenges) {
  const auto one_round = RunSim(4, 1, {"random"});
  ASSERT_TRUE(one_round.ok());
  // Three seats, one challenge each: two seats share first place in every game.
  EXPECT_EQ(one_round->games_with_shared_win, 500);
  EXPECT_LT(one_round->moves, RunSim(4, 0, {"random"})->moves);
}

TEST(SimulationTest, BadBotsAndSettingsAreRefused) {
  EXPECT_EQ(RunSim(1, 0, {"random", "random"}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunSim(1, 0, {"oracle"}).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(RunSim(1, -1, {"random"}).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace kahve::engine
