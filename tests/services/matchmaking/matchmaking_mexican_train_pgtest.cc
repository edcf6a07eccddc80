// Mexican Train through matchmaking (issue 8): a queue per table size from 2 to 10 players, each
// table seated exactly from its own queue, and a match played out over gRPC from each player's
// own view, with the hints' suggested moves, to a rated result.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

v1::EnqueueRequest MexicanTrain(int players) {
  v1::EnqueueRequest request;
  request.mutable_settings()->mutable_mexican_train()->set_players(players);
  return request;
}

std::string Name(int players, int index) { return absl::StrCat("p", players, "-", index); }

TEST_F(MatchmakingTest, MexicanTrainQueuesSeatTwoToTenPlayersEachAtTheirOwnTableSize) {
  StartRelay();
  MatchmakerSettings settings = Settings();
  // The pair plays by unary calls alone, no stream: without a long grace a slow build (the
  // sanitizers) passes the default 10 s and bots take their seats mid-game.
  settings.table_options.set_away_grace_seconds(600);
  StartMatchmaker(settings);
  // Enqueued interleaved, so every queue fills while the others wait beside it.
  std::map<std::string, std::string> tickets;
  for (int index = 0; index < 10; ++index) {
    for (int players = 2; players <= 10; ++players) {
      if (index >= players) continue;
      ASSERT_TRUE(
          Enqueue(Name(players, index), MexicanTrain(players), &tickets[Name(players, index)])
              .ok());
    }
  }
  std::set<std::string> tables;
  std::vector<table::Player> pair;
  std::string pair_table;
  for (int players = 2; players <= 10; ++players) {
    std::string table_id;
    std::set<int> seats;
    for (int index = 0; index < players; ++index) {
      const std::string name = Name(players, index);
      const v1::Assignment assignment = AwaitAssignment(name, tickets[name]);
      if (index == 0) table_id = assignment.table_id();
      EXPECT_EQ(assignment.table_id(), table_id) << name << " sits with its own queue";
      seats.insert(assignment.seat());
      if (players == 2) pair.push_back({name, assignment.seat(), assignment.seat_token()});
    }
    ASSERT_FALSE(table_id.empty());
    tables.insert(table_id);
    std::set<int> all;
    for (int seat = 0; seat < players; ++seat) all.insert(seat);
    EXPECT_EQ(seats, all) << players << " players fill " << players << " seats";
    auto view = View(table_id, Name(players, 0), "");
    ASSERT_TRUE(view.ok()) << view.status();
    EXPECT_EQ(view->view().mexican_train().hand_counts_size(), players);
    if (players == 2) pair_table = table_id;
  }
  EXPECT_EQ(tables.size(), 9u);
  EXPECT_EQ(TicketsIn(kMatched), 54);

  // The two-player table plays its 13 rounds: each player asks for hints and plays the suggestion.
  int moves = 0;
  while (moves < 5000) {
    auto view = View(pair_table, pair[0].id, pair[0].token);
    ASSERT_TRUE(view.ok()) << view.status();
    if (view->view().over()) break;
    for (const table::Player& player : pair) {
      if (view->view().to_act(0) != player.seat) continue;
      auto context = kahve::testing::ContextFor(player.id);
      v1::GetHintsRequest request;
      request.set_table_id(pair_table);
      request.set_seat_token(player.token);
      v1::GetHintsResponse hints;
      const grpc::Status hinted = stub().GetHints(context.get(), request, &hints);
      ASSERT_TRUE(hinted.ok()) << hinted.error_code() << " " << hinted.error_message();
      ASSERT_TRUE(hints.hints().mexican_train().has_suggested());
      v1::Move move;
      *move.mutable_mexican_train() = hints.hints().mexican_train().suggested();
      v1::PlayResponse played;
      const grpc::Status status = Play(pair_table, player, move, &played);
      ASSERT_TRUE(status.ok()) << status.error_message();
      ++moves;
    }
  }
  auto end = View(pair_table, pair[0].id, pair[0].token);
  ASSERT_TRUE(end.ok());
  ASSERT_TRUE(end->view().over()) << "after " << moves << " moves";
  EXPECT_EQ(end->view().result().rounds_size(), 13);
  bool rated = false;
  for (int attempt = 0; attempt < 200 && !rated; ++attempt) {
    auto context = kahve::testing::ContextFor(pair[0].id);
    v1::GetRatingsRequest ratings;
    for (const table::Player& player : pair) ratings.add_player_ids(player.id);
    ratings.set_ruleset("mexican_train");
    v1::GetRatingsResponse response;
    absl::MutexLock lock(&rating_mu_);
    rated = rating_->stub().GetRatings(context.get(), ratings, &response).ok() &&
            response.ratings_size() == 2;
    if (!rated) absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_TRUE(rated) << "the pair's match is rated";
}

TEST_F(MatchmakingTest, MexicanTrainQueuesRefuseTableSizesOutOfRangeAndTeams) {
  StartMatchmaker(Settings());
  std::string ticket;
  for (const int players : {1, 11}) {
    const grpc::Status status = Enqueue("ana", MexicanTrain(players), &ticket);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << players;
  }
  v1::EnqueueRequest teams = MexicanTrain(4);
  teams.set_teams(true);
  EXPECT_EQ(Enqueue("ana", teams, &ticket).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(TicketsIn(kWaiting), 0);
}

}  // namespace
}  // namespace kahve::matchmaking
