// kahve-table over real gRPC and PostgreSQL, where time and lifecycle matter: away seats, turn
// limits, results reaching the rating service, restarts, shutdown and metrics.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kFour = {"ana", "ben", "cem", "dua"};

class TableClockTest : public TableServiceTest {};

v1::TableOptions Options(int away_grace_seconds, int turn_seconds = 0) {
  v1::TableOptions options;
  options.set_away_grace_seconds(away_grace_seconds);
  options.set_turn_seconds(turn_seconds);
  return options;
}

// The index of the first update matching `match`, or -1.
int Find(const std::vector<v1::TableUpdate>& updates,
         const std::function<bool(const v1::TableUpdate&)>& match) {
  for (size_t index = 0; index < updates.size(); ++index) {
    if (match(updates[index])) return static_cast<int>(index);
  }
  return -1;
}

std::function<bool(const v1::TableUpdate&)> SeatChangeOf(int seat, v1::SeatChange::Kind kind) {
  return [seat, kind](const v1::TableUpdate& update) {
    return update.has_seat_change() && update.seat_change().seat() == seat &&
           update.seat_change().kind() == kind;
  };
}

std::function<bool(const v1::TableUpdate&)> BotMoveFor(int seat, const std::string& reason) {
  return [seat, reason](const v1::TableUpdate& update) {
    return update.has_move() && update.move().seat() == seat && update.move().by_bot() &&
           update.move().bot_reason() == reason;
  };
}

TEST_F(TableClockTest, AnAwayPlayerIsCoveredByABotUntilItComesBack) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Options(1), &table_id);
  std::vector<std::unique_ptr<UpdateReader>> readers;
  for (const Player& player : players)
    readers.push_back(Connect(table_id, player.id, player.token));
  ASSERT_TRUE(readers[0]->WaitForSeq(0));
  readers[0]->Cancel();

  UpdateReader& ben = *readers[1];
  ASSERT_TRUE(ben.WaitUntil([](const auto& updates) {
    return Find(updates, SeatChangeOf(0, v1::SeatChange::AWAY)) >= 0;
  }));
  const std::vector<Player> present(players.begin() + 1, players.end());
  PlayToTheEnd(table_id, present, -1,
               [&] { return Find(ben.updates(), BotMoveFor(0, "away")) >= 0; });
  ASSERT_GE(Find(ben.updates(), BotMoveFor(0, "away")), 0);
  auto view = View(table_id, "ben", players[1].token);
  ASSERT_TRUE(view.ok());
  EXPECT_TRUE(view->seats(0).away());
  EXPECT_FALSE(view->seats(0).connected());

  auto back = Connect(table_id, "ana", players[0].token);
  ASSERT_TRUE(ben.WaitUntil([](const auto& updates) {
    return Find(updates, SeatChangeOf(0, v1::SeatChange::BACK)) >= 0;
  }));
  const std::vector<v1::TableUpdate> seen = ben.updates();
  EXPECT_LT(Find(seen, SeatChangeOf(0, v1::SeatChange::AWAY)), Find(seen, BotMoveFor(0, "away")));
  EXPECT_EQ(CheckStream(seen, 1), "");
  ASSERT_TRUE(back->WaitForSeq(seen.back().seq()));
  view = View(table_id, "ana", players[0].token);
  EXPECT_FALSE(view->seats(0).away());
  EXPECT_TRUE(view->seats(0).connected());
  // Ana plays her own moves again: nothing more is played for her by a bot.
  PlayToTheEnd(table_id, players);
  ASSERT_TRUE(ben.WaitUntil(EndsWithResult));
  const std::vector<v1::TableUpdate> all = ben.updates();
  const int back_at = Find(all, SeatChangeOf(0, v1::SeatChange::BACK));
  for (size_t index = back_at; index < all.size(); ++index) {
    EXPECT_FALSE(all[index].move().seat() == 0 && all[index].move().by_bot());
  }
  EXPECT_EQ(CheckStream(all, 1), "");
}

TEST_F(TableClockTest, ATurnThatRunsOutIsPlayedByABotAndTheSeatStays) {
  // Simulated time: the turn runs out when the test says so, not after a real wait.
  kahve::testing::SimulatedClock& clock = simulated_clock_;
  TableHostSettings settings = TableServer::DefaultSettings();
  settings.clock = &clock;
  server_.reset();
  server_ = std::make_unique<TableServer>(url(), kHostId, settings);
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Options(600, 30), &table_id);
  std::vector<std::unique_ptr<UpdateReader>> readers;
  for (const Player& player : players)
    readers.push_back(Connect(table_id, player.id, player.token));
  ASSERT_TRUE(readers[0]->WaitForSeq(0));
  const v1::Snapshot snapshot = readers[0]->updates()[0].snapshot();
  const int first = snapshot.view().to_act(0);
  ASSERT_TRUE(snapshot.seats(first).has_turn_deadline());
  EXPECT_EQ(FromTimestamp(snapshot.seats(first).turn_deadline()),
            kahve::testing::SimulatedClock::DefaultStart() + absl::Seconds(30));

  // A second short of the limit: the host's clock thread goes back to sleep with nothing done
  // (a thread woken by Advance leaves the clock's waiters until it waits again).
  clock.Advance(absl::Seconds(29));
  ASSERT_TRUE(clock.AwaitWaiters(1));
  auto before = View(table_id, players[first].id, players[first].token);
  ASSERT_TRUE(before.ok());
  EXPECT_EQ(before->seq(), 0u);

  clock.Advance(absl::Seconds(1));
  ASSERT_TRUE(readers[0]->WaitUntil(
      [&](const auto& updates) { return Find(updates, BotMoveFor(first, "timeout")) >= 0; },
      absl::Seconds(10)));
  auto view = View(table_id, players[first].id, players[first].token);
  ASSERT_TRUE(view.ok());
  EXPECT_FALSE(view->seats(first).away());
  EXPECT_TRUE(view->seats(first).connected());
  // The one move only: the next seat has its own turn time.
  EXPECT_EQ(view->seq(), 1u);
  const auto metric = [&](const std::string& family,
                          const std::map<std::string, std::string>& labels) {
    return kahve::testing::MetricSum(server_->metrics().registry(), family, labels);
  };
  EXPECT_EQ(metric("kahve_turn_timeouts_total", {{"ruleset", "liars_dice"}}), 1);
  EXPECT_EQ(metric("kahve_bot_moves_total", {{"ruleset", "liars_dice"}, {"reason", "timeout"}}),
            1);
  EXPECT_EQ(metric("kahve_turn_seconds", {}), 0);
  for (const auto& reader : readers) reader->Cancel();
}

TEST_F(TableClockTest, TheResultReachesTheRatingServiceOnceItIsUp) {
  StartRelay();
  std::string table_id;
  const std::vector<Player> players =
      CreateTable({"ana", "ben", "bot:random", "bot:heuristic"}, Options(60), &table_id);
  for (const Player& player : players) {
    auto context = kahve::testing::ContextFor(player.id);
    v1::ResignRequest request;
    request.set_table_id(table_id);
    request.set_seat_token(player.token);
    v1::ResignResponse response;
    ASSERT_TRUE(stub().Resign(context.get(), request, &response).ok());
    // Resigning again answers the first resignation.
    auto again_context = kahve::testing::ContextFor(player.id);
    v1::ResignResponse again;
    ASSERT_TRUE(stub().Resign(again_context.get(), request, &again).ok());
    EXPECT_EQ(again.seq(), response.seq());
  }
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (!View(table_id, "ana", "")->view().over() && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  ASSERT_TRUE(View(table_id, "ana", "")->view().over());
  const std::string pending =
      "SELECT count(*) FROM table_outbox WHERE delivered_us IS NULL AND attempts > 0";
  while (Count(pending) == 0 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(20));
  ASSERT_EQ(Count(pending), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM rating_matches"), 0);

  {
    absl::MutexLock lock(&rating_mu_);
    rating_ = std::make_unique<rating::RatingServer>(url(), rating::kProvisionalGames);
  }
  const std::string delivered = "SELECT count(*) FROM table_outbox WHERE delivered_us IS NOT NULL";
  while (Count(delivered) == 0 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(20));
  ASSERT_EQ(Count(delivered), 1);
  absl::SleepFor(absl::Milliseconds(300));  // further passes send nothing more
  EXPECT_EQ(Count("SELECT count(*) FROM rating_matches"), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM rating_match_players WHERE player_id IN ('ana', 'ben')"),
            2);
  EXPECT_EQ(Count("SELECT count(*) FROM table_outbox"), 1);

  // The record: resigned players abandoned, bot seats bots, and every round's dice left, the last
  // of which are the final scores.
  v1::GetMatchRequest get;
  {
    pqxx::connection connection(url());
    pqxx::nontransaction tx(connection);
    get.set_match_id(
        tx.exec_params("SELECT match_id FROM table_tables WHERE table_id = $1", table_id)[0][0]
            .as<std::string>());
  }
  v1::MatchRecord record;
  {
    absl::MutexLock lock(&rating_mu_);
    auto context = kahve::testing::ContextFor("ana");
    ASSERT_TRUE(rating_->stub().GetMatch(context.get(), get, &record).ok());
  }
  ASSERT_EQ(record.participants_size(), 4);
  EXPECT_FALSE(record.rated());  // bot seats from the start
  for (const v1::Participant& participant : record.participants()) {
    EXPECT_EQ(participant.abandoned(), participant.seat() < 2) << participant.seat();
    EXPECT_EQ(participant.bot(), participant.seat() >= 2) << participant.seat();
  }
  ASSERT_GT(record.rounds_size(), 0);
  for (const v1::RoundScores& round : record.rounds()) EXPECT_EQ(round.seat_scores_size(), 4);
  for (const v1::Participant& participant : record.participants()) {
    EXPECT_EQ(record.rounds(record.rounds_size() - 1).seat_scores(participant.seat()),
              participant.final_score());
  }
}

TEST_F(TableClockTest, ARestartedHostRebuildsTheTableAndTheGameGoesOn) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Options(60), &table_id);
  std::vector<std::unique_ptr<UpdateReader>> readers;
  for (const Player& player : players)
    readers.push_back(Connect(table_id, player.id, player.token));
  ASSERT_EQ(PlayToTheEnd(table_id, players, 4), 4);
  // The fifth move carries a request id: its retry after the restart must not play twice.
  const auto before = View(table_id, "ana", "");
  const Player& mover = players[before->view().to_act(0)];
  const v1::Move fifth = ChooseMove(View(table_id, mover.id, mover.token)->view());
  v1::PlayResponse first;
  ASSERT_TRUE(Play(table_id, mover, fifth, &first, "retry-me").ok());
  ASSERT_EQ(first.seq(), 5u);
  for (const auto& reader : readers) ASSERT_TRUE(reader->WaitForSeq(5));

  server_.reset();
  std::vector<uint64_t> last_seen;
  for (const auto& reader : readers) {
    const auto end = reader->WaitFinished();
    ASSERT_TRUE(end.has_value());
    EXPECT_EQ(end->error_code(), grpc::StatusCode::UNAVAILABLE);
    last_seen.push_back(reader->updates().back().seq());
    EXPECT_EQ(last_seen.back(), 5u);
  }

  server_ = std::make_unique<TableServer>(url(), kHostId);
  v1::PlayResponse retried;
  ASSERT_TRUE(Play(table_id, mover, fifth, &retried, "retry-me").ok());
  EXPECT_EQ(retried.seq(), 5u);
  EXPECT_EQ(View(table_id, "ana", "")->seq(), 5u);
  std::vector<std::unique_ptr<UpdateReader>> resumed;
  for (size_t index = 0; index < players.size(); ++index) {
    resumed.push_back(Connect(table_id, players[index].id, players[index].token, last_seen[index]));
  }
  PlayToTheEnd(table_id, players);
  const auto final_view = View(table_id, "ana", players[0].token);
  ASSERT_TRUE(final_view.ok());
  ASSERT_TRUE(final_view->view().over());
  for (size_t index = 0; index < players.size(); ++index) {
    ASSERT_TRUE(resumed[index]->WaitUntil(EndsWithResult));
    EXPECT_EQ(CheckStream(resumed[index]->updates(), players[index].seat, last_seen[index]), "");
    EXPECT_EQ(resumed[index]->updates().back().seq(), final_view->seq());
  }
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_log WHERE table_id = '", table_id, "'")),
            static_cast<int64_t>(final_view->seq()) + 1);

  // A finished table is not reloaded; its replay comes from the database.
  server_ = std::make_unique<TableServer>(url(), kHostId);
  EXPECT_EQ(server_->host().live_tables(), 0);
  v1::GetReplayRequest request;
  request.set_table_id(table_id);
  v1::Replay replay;
  auto context = kahve::testing::ContextFor("someone-else");
  const grpc::Status replayed = stub().GetReplay(context.get(), request, &replay);
  ASSERT_TRUE(replayed.ok()) << replayed.error_message();
  EXPECT_EQ(static_cast<uint64_t>(replay.moves_size()), final_view->seq());
  EXPECT_EQ(replay.deal().seed(), 42u);
  EXPECT_EQ(replay.result().seats_size(), 4);

  // A call to the finished table brings it back from the database, so a late client gets the
  // game's answer (over) rather than NOT_FOUND; a late stream gets the final snapshot and ends.
  v1::PlayResponse late;
  const grpc::Status refused = Play(table_id, players[0], ChallengeMove(), &late, "late-move");
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << refused.error_message();
  EXPECT_EQ(server_->host().live_tables(), 1);
  auto late_reader = Connect(table_id, players[1].id, players[1].token);
  ASSERT_TRUE(late_reader->WaitUntil(EndsWithResult));
  const auto late_end = late_reader->WaitFinished();
  ASSERT_TRUE(late_end.has_value());
  EXPECT_TRUE(late_end->ok()) << late_end->error_message();
  EXPECT_TRUE(late_reader->updates().front().snapshot().over());
}

TEST_F(TableClockTest, ShutdownEndsOpenStreamsWithUnavailable) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Options(60), &table_id);
  auto ana = Connect(table_id, "ana", players[0].token);
  auto watcher = Connect(table_id, "watcher", "");
  ASSERT_TRUE(ana->WaitForSeq(0));
  ASSERT_TRUE(watcher->WaitForSeq(0));
  const absl::Time start = absl::Now();
  server_->Stop();
  for (UpdateReader* reader : {ana.get(), watcher.get()}) {
    const auto end = reader->WaitFinished(absl::Seconds(5));
    ASSERT_TRUE(end.has_value());
    EXPECT_EQ(end->error_code(), grpc::StatusCode::UNAVAILABLE) << end->error_message();
    EXPECT_THAT(end->error_message(), HasSubstr("after_seq"));
  }
  EXPECT_LT(absl::Now() - start, absl::Seconds(4));  // before the shutdown deadline
}

TEST_F(TableClockTest, ADrainingHostTakesNoNewStreamsOrMoves) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Options(60), &table_id);
  // Between the host's drain hook and the server's stop, calls still arrive.
  server_->host().BeginShutdown();
  auto late = Connect(table_id, "ana", players[0].token);
  const auto end = late->WaitFinished(absl::Seconds(3));
  ASSERT_TRUE(end.has_value()) << "a stream opened during the drain is never ended";
  EXPECT_EQ(end->error_code(), grpc::StatusCode::UNAVAILABLE);
  const auto view = View(table_id, "ana", "");
  ASSERT_TRUE(view.ok());
  const Player& mover = players[view->view().to_act(0)];
  v1::PlayResponse response;
  EXPECT_EQ(Play(table_id, mover, BidMove(1, 2), &response).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(View(table_id, "ana", "")->seq(), 0u);
}

TEST_F(TableClockTest, MetricsAreServedAndPassPromtool) {
  StartRelay();
  std::string table_id;
  const std::vector<Player> players =
      CreateTable({"ana", "ben", "cem", "bot:random"}, Options(60), &table_id);
  auto ana = Connect(table_id, "ana", players[0].token);
  PlayToTheEnd(table_id, players);
  ASSERT_TRUE(ana->WaitUntil(EndsWithResult));
  absl::SleepFor(absl::Milliseconds(100));  // a relay pass sets kahve_outbox_pending
  const absl::StatusOr<std::string> text =
      kahve::testing::HttpGet(server_->metrics_port(), "/metrics");
  ASSERT_TRUE(text.ok()) << text.status();
  for (const char* name :
       {"kahve_tables_active{", "kahve_moves_total{", "kahve_move_seconds_bucket",
        "kahve_bot_moves_total{reason=\"bot_seat\",ruleset=\"liars_dice\"}",
        "kahve_streams_active", "kahve_event_log_commit_seconds_bucket",
        "kahve_event_log_batch_size_bucket", "kahve_outbox_pending",
        "kahve_games_finished_total{", "kahve_game_seconds_bucket", "kahve_turn_seconds_bucket",
        "kahve_round_score_bucket", "kahve_game_bot_seats_total{", "kahve_players_at_tables{",
        "\nprocess_start_time_seconds "}) {
    EXPECT_THAT(*text, HasSubstr(name));
  }
  EXPECT_THAT(*text, HasSubstr("outcome=\"accepted\""));
  // The game is over and its streams ended: none is counted any more.
  EXPECT_THAT(*text, HasSubstr("\nkahve_streams_active 0"));
  EXPECT_THAT(*text, HasSubstr("kahve_tables_active{ruleset=\"liars_dice\"} 1"));
  const absl::Status checked = kahve::testing::PromtoolCheck(*text);
  EXPECT_TRUE(checked.ok()) << checked;
}

}  // namespace
}  // namespace kahve::table
