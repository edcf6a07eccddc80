// kahve-table over real gRPC and PostgreSQL: retried and previewed moves, retried creations, and
// replays.

#include <string>
#include <vector>

#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using ::google::protobuf::util::MessageDifferencer;

v1::TableOptions Relaxed() {
  v1::TableOptions options;
  options.set_away_grace_seconds(60);
  return options;
}

const std::vector<std::string> kFour = {"ana", "ben", "cem", "dua"};

TEST_F(TableServiceTest, RetriesApplyOnceAndDryRunsApplyNothing) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id);
  const auto before = View(table_id, "ana", players[0].token);
  const Player& mover = players[before->view().to_act(0)];
  const int64_t log_rows = Count("SELECT count(*) FROM table_log");

  v1::PlayResponse preview;
  ASSERT_TRUE(Play(table_id, mover, BidMove(2, 3), &preview, "", /*dry_run=*/true).ok());
  EXPECT_EQ(preview.seq(), 0u);
  ASSERT_EQ(preview.events_size(), 1);
  EXPECT_EQ(preview.events(0).liars_dice().bid_made().bid().quantity(), 2);
  EXPECT_EQ(View(table_id, "ana", players[0].token)->seq(), 0u);
  EXPECT_EQ(Count("SELECT count(*) FROM table_log"), log_rows);
  v1::PlayResponse refused;
  EXPECT_EQ(Play(table_id, mover, ChallengeMove(), &refused, "", true).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);

  v1::PlayResponse first;
  v1::PlayResponse again;
  ASSERT_TRUE(Play(table_id, mover, BidMove(2, 3), &first, "req-1").ok());
  ASSERT_TRUE(Play(table_id, mover, BidMove(2, 3), &again, "req-1").ok());
  EXPECT_EQ(first.seq(), 1u);
  EXPECT_TRUE(MessageDifferencer::Equals(first, again));
  EXPECT_EQ(View(table_id, "ana", players[0].token)->seq(), 1u);
  EXPECT_EQ(Count("SELECT count(*) FROM table_log"), log_rows + 1);
  // The id reused for another move: refused, naming the move it played and where.
  v1::PlayResponse other;
  const grpc::Status reused = Play(table_id, mover, BidMove(3, 3), &other, "req-1");
  EXPECT_EQ(reused.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  const absl::StatusOr<v1::RequestIdPlayed> earlier =
      kahve::testing::DetailOf<v1::RequestIdPlayed>(reused);
  ASSERT_TRUE(earlier.ok()) << earlier.status();
  EXPECT_EQ(earlier->request_id(), "req-1");
  EXPECT_EQ(earlier->seq(), first.seq());
  EXPECT_TRUE(MessageDifferencer::Equals(earlier->move(), BidMove(2, 3)));
  EXPECT_EQ(View(table_id, "ana", players[0].token)->seq(), 1u);

  // CreateTable retried by the matchmaker: the same table and tokens; other content is refused.
  v1::CreateTableRequest request;
  request.set_match_id("match-retried");
  request.mutable_settings()->mutable_liars_dice()->set_players(2);
  request.add_seats()->set_player_id("eda");
  request.add_seats()->set_bot_kind("random");
  v1::CreateTableResponse created;
  v1::CreateTableResponse retried;
  ASSERT_TRUE(Create(request, &created).ok());
  ASSERT_TRUE(Create(request, &retried).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(created, retried));
  EXPECT_EQ(created.seats_size(), 2);
  EXPECT_TRUE(created.seats(1).seat_token().empty());  // a bot seat has no token
  request.mutable_seats(1)->set_bot_kind("heuristic");
  EXPECT_EQ(Create(request, &retried).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables WHERE match_id = 'match-retried'"), 1);
}

TEST_F(TableServiceTest, ReplaysComeAtTheEndExceptForAdmins) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id);
  ASSERT_EQ(PlayToTheEnd(table_id, players, 2), 2);
  v1::GetReplayRequest request;
  request.set_table_id(table_id);
  v1::Replay replay;
  auto player = kahve::testing::ContextFor("ana");
  EXPECT_EQ(stub().GetReplay(player.get(), request, &replay).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  auto admin = kahve::testing::ContextFor(kAdmin, common::kRoleAdmin);
  ASSERT_TRUE(stub().GetReplay(admin.get(), request, &replay).ok());
  EXPECT_EQ(replay.moves_size(), 2);

  const int moves = PlayToTheEnd(table_id, players);
  ASSERT_TRUE(View(table_id, "ana", "")->view().over());
  auto outsider = kahve::testing::ContextFor("someone-else");
  ASSERT_TRUE(stub().GetReplay(outsider.get(), request, &replay).ok());
  EXPECT_EQ(replay.table_id(), table_id);
  EXPECT_EQ(replay.deal().seed(), 42u);
  EXPECT_EQ(replay.settings().liars_dice().players(), 4);
  EXPECT_EQ(replay.settings().liars_dice().dice_per_player(), 5);  // defaults filled in
  EXPECT_EQ(replay.moves_size(), moves + 2);
  EXPECT_EQ(replay.seats_size(), 4);
  EXPECT_EQ(replay.result().seats_size(), 4);
  for (const v1::ReplayMove& move : replay.moves()) EXPECT_FALSE(move.by_bot());
  // Every event, each seat's private dice too (the game is over): the deal's four rolls, and each
  // challenge's reveal and new rolls.
  int private_rolls = 0;
  for (const v1::Event& event : replay.deal_events()) private_rolls += event.has_private_to();
  EXPECT_EQ(private_rolls, 4);
  for (int index = 0; index < replay.moves_size(); ++index) {
    EXPECT_GT(replay.moves(index).events_size(), 0);
    for (const v1::Event& event : replay.moves(index).events()) {
      EXPECT_EQ(event.move_number(), static_cast<uint64_t>(index + 1));
    }
  }
  request.set_table_id("t-unknown");
  auto unknown = kahve::testing::ContextFor("ana");
  EXPECT_EQ(stub().GetReplay(unknown.get(), request, &replay).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace kahve::table
