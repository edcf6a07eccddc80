// The table service's result metrics in themselves: the labels a finished game is counted under,
// and what CountFinishedGame and CountEntry observe (the pg tests check that real games get here).

#include <string>
#include <vector>

#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "prometheus/registry.h"
#include "services/table/table_observations.h"
#include "tests/services/service_testing.h"

namespace kahve::table {
namespace {

using kahve::testing::MetricSum;

// A result of `teams` (one entry per seat) with one round per entry of `rounds` (ending, finish).
v1::Result ResultOf(const std::vector<int>& teams,
                    const std::vector<std::pair<std::string, std::string>>& rounds,
                    const std::string& ending = "deals_played") {
  v1::Result result;
  for (size_t seat = 0; seat < teams.size(); ++seat) {
    v1::Result::SeatResult* entry = result.add_seats();
    entry->set_seat(static_cast<int>(seat));
    entry->set_team(teams[seat]);
    entry->set_rank(1);
  }
  result.set_ending(ending);
  int number = 0;
  for (const auto& [round_ending, finish] : rounds) {
    v1::Result::Round* round = result.add_rounds();
    round->set_round(++number);
    for (size_t seat = 0; seat < teams.size(); ++seat) round->add_seat_scores(10.0 * seat);
    round->set_ending(round_ending);
    round->set_finish(finish);
  }
  return result;
}

SeatOutcome Player(int seat, bool resigned = false, bool away = false) {
  SeatOutcome outcome;
  outcome.seat = seat;
  outcome.player_id = "p" + std::to_string(seat);
  outcome.resigned = resigned;
  outcome.away_at_end = away;
  return outcome;
}

SeatOutcome Bot(int seat) {
  SeatOutcome outcome;
  outcome.seat = seat;
  outcome.bot_seat = true;
  return outcome;
}

TEST(TableMetricLabelsTest, ModeIsPracticeTeamsOrSolo) {
  EXPECT_EQ(GameMode(false, ResultOf({0, 1, 2, 3}, {})), "solo");
  EXPECT_EQ(GameMode(false, ResultOf({0, 1, 0, 1}, {})), "teams");
  EXPECT_EQ(GameMode(true, ResultOf({0, 1}, {})), "practice");
}

TEST(TableMetricLabelsTest, EndingNamesResignationsAndAbandonmentBeforeTheRulesetsEnding) {
  const v1::Result result = ResultOf({0, 1, 2}, {}, "last_player_standing");
  EXPECT_EQ(GameEnding(result, {Player(0), Player(1), Bot(2)}), "last_player_standing");
  EXPECT_EQ(GameEnding(result, {Player(0, true), Player(1), Bot(2)}), "resigned");
  // Nobody left to play: one resigned, the other away when the bots finished.
  EXPECT_EQ(GameEnding(result, {Player(0, true), Player(1, false, true), Bot(2)}), "abandoned");
  EXPECT_EQ(GameEnding(result, {Player(0, false, true), Player(1), Bot(2)}),
            "last_player_standing");
  // A table of bots only ends as its rules say.
  EXPECT_EQ(GameEnding(result, {Bot(0), Bot(1), Bot(2)}), "last_player_standing");
}

TEST(TableMetricLabelsTest, RoundEndingCarriesOkeyFinishKinds) {
  const v1::Result result =
      ResultOf({0, 1}, {{"finished", "pairs"}, {"deck_exhausted", ""}, {"", ""}});
  EXPECT_EQ(RoundEnding(result.rounds(0)), "finished_pairs");
  EXPECT_EQ(RoundEnding(result.rounds(1)), "deck_exhausted");
  EXPECT_EQ(RoundEnding(result.rounds(2)), "");
}

TEST(TableMetricLabelsTest, AFinishedGameIsCountedUnderItsLabelsWithEveryRoundAndBotSeat) {
  prometheus::Registry registry;
  TableMetrics metrics(registry);
  const v1::Result result = ResultOf(
      {0, 1, 2, 3}, {{"finished", "okey_discard"}, {"deck_exhausted", ""}, {"finished", "pairs"}});
  CountFinishedGame(metrics, "okey51", false, result,
                            {Player(0), Player(1, true), Player(2, false, true), Bot(3)},
                            absl::Minutes(12));
  EXPECT_EQ(MetricSum(registry, "kahve_games_finished_total",
                      {{"ruleset", "okey51"}, {"mode", "solo"}, {"ending", "resigned"}}),
            1);
  EXPECT_EQ(MetricSum(registry, "kahve_games_finished_total"), 1);
  for (const char* ending : {"finished_okey_discard", "deck_exhausted", "finished_pairs"}) {
    EXPECT_EQ(MetricSum(registry, "kahve_rounds_finished_total",
                        {{"ruleset", "okey51"}, {"mode", "solo"}, {"ending", ending}}),
              1)
        << ending;
  }
  EXPECT_EQ(MetricSum(registry, "kahve_game_seconds", {{"ruleset", "okey51"}, {"mode", "solo"}}),
            1);
  // Every seat's score of every round.
  EXPECT_EQ(MetricSum(registry, "kahve_round_score", {{"ruleset", "okey51"}}), 12);
  EXPECT_EQ(MetricSum(registry, "kahve_game_bot_seats_total", {{"reason", "bot_seat"}}), 1);
  EXPECT_EQ(MetricSum(registry, "kahve_game_bot_seats_total", {{"reason", "resigned"}}), 1);
  EXPECT_EQ(MetricSum(registry, "kahve_game_bot_seats_total", {{"reason", "away"}}), 1);
}

TEST(TableMetricLabelsTest, EntriesCountBotMovesTimeoutsDecisionsResignationsAndPracticeChanges) {
  prometheus::Registry registry;
  TableMetrics metrics(registry);
  AppliedEntry timeout;
  timeout.entry.mutable_move()->set_by_bot(true);
  timeout.entry.mutable_move()->set_bot_reason(kReasonTimeout);
  CountEntry(metrics, "liars_dice", timeout);
  AppliedEntry human;
  human.entry.mutable_move()->set_seat(1);
  human.decision_time = absl::Seconds(4);
  CountEntry(metrics, "liars_dice", human);
  // A move out of turn (okey's gösterme) had no clock: no decision time.
  AppliedEntry out_of_turn;
  out_of_turn.entry.mutable_move()->set_seat(2);
  CountEntry(metrics, "liars_dice", out_of_turn);
  AppliedEntry resigned;
  resigned.entry.mutable_seat_change()->set_kind(v1::SeatChange::RESIGNED);
  CountEntry(metrics, "liars_dice", resigned);
  AppliedEntry away;
  away.entry.mutable_seat_change()->set_kind(v1::SeatChange::AWAY);
  CountEntry(metrics, "liars_dice", away);
  AppliedEntry undo;
  undo.entry.mutable_practice()->set_kind(v1::PracticeChange::UNDONE);
  CountEntry(metrics, "liars_dice", undo);

  EXPECT_EQ(MetricSum(registry, "kahve_bot_moves_total",
                      {{"ruleset", "liars_dice"}, {"reason", "timeout"}}),
            1);
  EXPECT_EQ(MetricSum(registry, "kahve_turn_timeouts_total", {{"ruleset", "liars_dice"}}), 1);
  EXPECT_EQ(MetricSum(registry, "kahve_turn_seconds", {{"ruleset", "liars_dice"}}), 1);
  EXPECT_EQ(MetricSum(registry, "kahve_resignations_total", {{"ruleset", "liars_dice"}}), 1);
  EXPECT_EQ(MetricSum(registry, "kahve_practice_changes_total", {{"kind", "undo"}}), 1);
  EXPECT_EQ(MetricSum(registry, "kahve_practice_changes_total"), 1);
}

}  // namespace
}  // namespace kahve::table
