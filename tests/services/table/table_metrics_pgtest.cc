// The table service's result metrics over real gRPC and PostgreSQL: a game played to its end
// moves each of them, and resigned and abandoned games are counted under their own endings.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

// Turn limits and away grace far beyond the test: only the players and the bot seats move.
v1::TableOptions Patient() {
  v1::TableOptions options;
  options.set_turn_seconds(600);
  options.set_away_grace_seconds(600);
  return options;
}

class TableMetricsTest : public TableServiceTest {
 protected:
  double Metric(const std::string& family, const std::map<std::string, std::string>& labels = {}) {
    return kahve::testing::MetricSum(server_->metrics().registry(), family, labels);
  }
  void Resign(const std::string& table_id, const Player& player) {
    auto context = kahve::testing::ContextFor(player.id);
    v1::ResignRequest request;
    request.set_table_id(table_id);
    request.set_seat_token(player.token);
    v1::ResignResponse response;
    const grpc::Status status = stub().Resign(context.get(), request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  // Waits (as a spectator) until the bots have finished the game; false after 60 s.
  bool WaitOver(const std::string& table_id, const std::string& watcher) {
    const absl::Time deadline = absl::Now() + absl::Seconds(60);
    while (absl::Now() < deadline) {
      auto view = View(table_id, watcher, "");
      if (view.ok() && view->view().over()) return true;
      absl::SleepFor(absl::Milliseconds(20));
    }
    return false;
  }
  // The finished game's record, hidden information included.
  v1::Replay ReplayOf(const std::string& table_id) {
    v1::GetReplayRequest request;
    request.set_table_id(table_id);
    v1::Replay replay;
    auto context = kahve::testing::ContextFor(kAdmin, common::kRoleAdmin);
    const grpc::Status status = stub().GetReplay(context.get(), request, &replay);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return replay;
  }
};

TEST_F(TableMetricsTest, AGamePlayedToItsEndMovesEveryResultMetric) {
  const std::map<std::string, std::string> liars = {{"ruleset", "liars_dice"}};
  std::string table_id;
  const std::vector<Player> players =
      CreateTable({"ana", "ben", "bot:heuristic"}, Patient(), &table_id);
  EXPECT_EQ(Metric("kahve_players_at_tables", liars), 2);
  const int human_moves = PlayToTheEnd(table_id, players);
  ASSERT_GT(human_moves, 0);
  const v1::Replay replay = ReplayOf(table_id);
  ASSERT_TRUE(replay.has_result());

  EXPECT_EQ(Metric("kahve_games_finished_total", {{"ruleset", "liars_dice"},
                                                  {"mode", "solo"},
                                                  {"ending", replay.result().ending()}}),
            1);
  EXPECT_EQ(Metric("kahve_games_finished_total"), 1);
  EXPECT_EQ(Metric("kahve_game_seconds", {{"ruleset", "liars_dice"}, {"mode", "solo"}}), 1);
  // Every decision of a player had a running clock.
  EXPECT_EQ(Metric("kahve_turn_seconds", liars), human_moves);
  // Every seat's dice left after every round.
  EXPECT_EQ(Metric("kahve_round_score", liars), 3 * replay.result().rounds_size());
  EXPECT_EQ(Metric("kahve_game_bot_seats_total", {{"ruleset", "liars_dice"},
                                                  {"reason", "bot_seat"}}),
            1);
  EXPECT_EQ(Metric("kahve_game_bot_seats_total"), 1);
  int bot_moves = 0;
  for (const v1::ReplayMove& move : replay.moves()) bot_moves += move.by_bot() ? 1 : 0;
  EXPECT_EQ(Metric("kahve_bot_moves_total", {{"ruleset", "liars_dice"}, {"reason", "bot_seat"}}),
            bot_moves);
  EXPECT_EQ(Metric("kahve_turn_timeouts_total"), 0);
  EXPECT_EQ(Metric("kahve_resignations_total"), 0);
  EXPECT_EQ(Metric("kahve_players_at_tables", liars), 0);
}

TEST_F(TableMetricsTest, ResignedAndAbandonedGamesAreCountedUnderTheirOwnEndings) {
  const std::map<std::string, std::string> liars = {{"ruleset", "liars_dice"}};
  std::string resigned_table;
  const std::vector<Player> two = CreateTable({"ana", "ben", "bot:random"}, Patient(),
                                              &resigned_table);
  std::string abandoned_table;
  const std::vector<Player> one = CreateTable({"cem", "bot:random", "bot:heuristic"}, Patient(),
                                              &abandoned_table, 7);
  EXPECT_EQ(Metric("kahve_players_at_tables", liars), 3);

  Resign(resigned_table, two[0]);
  EXPECT_EQ(Metric("kahve_resignations_total", liars), 1);
  EXPECT_EQ(Metric("kahve_players_at_tables", liars), 2);
  PlayToTheEnd(resigned_table, {two[1]});
  // Nobody is left at the other table: the bots play it out.
  Resign(abandoned_table, one[0]);
  EXPECT_EQ(Metric("kahve_resignations_total", liars), 2);
  ASSERT_TRUE(WaitOver(abandoned_table, "cem"));

  EXPECT_EQ(Metric("kahve_games_finished_total",
                   {{"ruleset", "liars_dice"}, {"mode", "solo"}, {"ending", "resigned"}}),
            1);
  EXPECT_EQ(Metric("kahve_games_finished_total",
                   {{"ruleset", "liars_dice"}, {"mode", "solo"}, {"ending", "abandoned"}}),
            1);
  EXPECT_EQ(Metric("kahve_game_bot_seats_total", {{"reason", "resigned"}}), 2);
  EXPECT_EQ(Metric("kahve_game_bot_seats_total", {{"reason", "bot_seat"}}), 3);
  EXPECT_GT(Metric("kahve_bot_moves_total", {{"ruleset", "liars_dice"}, {"reason", "resigned"}}),
            0);
  EXPECT_EQ(Metric("kahve_players_at_tables", liars), 0);
}

TEST_F(TableMetricsTest, OkeyDealsAreCountedByHowTheyEnded) {
  v1::GameSettings settings;
  settings.mutable_okey51();
  std::string table_id;
  const std::vector<Player> players =
      CreateTable({"ana", "ben", "cem", "dua"}, Patient(), &table_id, 42, &settings);
  // Drawing and discarding the highest tile never opens: the deck runs out.
  PlayToTheEnd(table_id, players);
  const v1::Replay replay = ReplayOf(table_id);
  ASSERT_TRUE(replay.has_result());
  ASSERT_GT(replay.result().rounds_size(), 0);
  EXPECT_EQ(Metric("kahve_rounds_finished_total",
                   {{"ruleset", "okey51"}, {"mode", "solo"}, {"ending", "deck_exhausted"}}),
            replay.result().rounds_size());
  EXPECT_EQ(Metric("kahve_round_score", {{"ruleset", "okey51"}}),
            4 * replay.result().rounds_size());
  EXPECT_EQ(Metric("kahve_games_finished_total",
                   {{"ruleset", "okey51"}, {"mode", "solo"}, {"ending", "deals_played"}}),
            1);
}

}  // namespace
}  // namespace kahve::table
