// What a client needs to play from the API alone: every seat's legal moves in every ruleset
// (GetView, snapshots), streams that carry the view and legal moves with each update
// (ConnectRequest.with_view), and a stale expected_seq answered with the table's seq in the
// error's details.

#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using google::protobuf::util::MessageDifferencer;

constexpr uint64_t kSeed = 42;
const std::vector<std::string> kFour = {"ana", "ben", "cem", "dua"};

v1::TableOptions Relaxed() {
  v1::TableOptions options;
  options.set_away_grace_seconds(60);
  return options;
}

// Four players of `ruleset`, every other setting at its default.
v1::GameSettings FourPlayerSettings(const std::string& ruleset) {
  v1::GameSettings settings;
  if (ruleset == "liars_dice") settings.mutable_liars_dice()->set_players(4);
  if (ruleset == "okey") settings.mutable_okey()->set_players(4);
  if (ruleset == "okey51") settings.mutable_okey51();
  if (ruleset == "okey101") settings.mutable_okey101();
  if (ruleset == "mexican_train") settings.mutable_mexican_train()->set_players(4);
  return settings;
}

bool SameMoves(const google::protobuf::RepeatedPtrField<v1::Move>& listed,
               const std::vector<v1::Move>& expected) {
  if (listed.size() != static_cast<int>(expected.size())) return false;
  for (size_t index = 0; index < expected.size(); ++index) {
    if (!MessageDifferencer::Equals(listed[static_cast<int>(index)], expected[index])) return false;
  }
  return true;
}

class TableClientViewTest : public TableServiceTest {
 protected:
  std::unique_ptr<UpdateReader> ConnectWithView(const std::string& table_id,
                                                const std::string& player,
                                                const std::string& token,
                                                std::optional<uint64_t> after_seq = std::nullopt) {
    v1::ConnectRequest request;
    request.set_table_id(table_id);
    request.set_seat_token(token);
    request.set_with_view(true);
    if (after_seq.has_value()) request.set_after_seq(*after_seq);
    return std::make_unique<UpdateReader>(stub(), player, request);
  }
};

class TableLegalMovesTest : public TableClientViewTest,
                            public ::testing::WithParamInterface<std::string> {};

// The table lists exactly the engine's legal moves for each seat (the same game dealt from the
// same seed beside the table), none for a spectator, and each listed move passes a dry run.
TEST_P(TableLegalMovesTest, GetViewListsEachSeatsLegalMoves) {
  const v1::GameSettings settings = FourPlayerSettings(GetParam());
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, kSeed, &settings);
  ASSERT_EQ(players.size(), 4u);
  v1::Deal deal;
  deal.set_seed(kSeed);
  auto beside = engine::NewGame(settings, deal);
  ASSERT_TRUE(beside.ok()) << beside.status();

  int seats_with_moves = 0;
  for (const Player& player : players) {
    auto view = View(table_id, player.id, player.token);
    ASSERT_TRUE(view.ok()) << view.status();
    const std::vector<v1::Move> expected = (*beside)->LegalMoves(player.seat);
    EXPECT_TRUE(SameMoves(view->legal_moves(), expected))
        << GetParam() << " seat " << player.seat << ": " << view->legal_moves_size()
        << " listed, " << expected.size() << " legal";
    if (expected.empty()) continue;
    ++seats_with_moves;
    for (int index = 0; index < std::min(view->legal_moves_size(), 8); ++index) {
      v1::PlayResponse preview;
      const grpc::Status status = Play(table_id, player, view->legal_moves(index), &preview,
                                       /*request_id=*/"", /*dry_run=*/true);
      EXPECT_TRUE(status.ok()) << GetParam() << ": " << status.error_message();
    }
  }
  EXPECT_GE(seats_with_moves, 1) << GetParam() << ": nobody may act at the start";
  auto spectator = View(table_id, "sam", "");
  ASSERT_TRUE(spectator.ok());
  EXPECT_EQ(spectator->legal_moves_size(), 0);
}

INSTANTIATE_TEST_SUITE_P(EveryRuleset, TableLegalMovesTest,
                         ::testing::Values("liars_dice", "okey", "okey51", "okey101",
                                           "mexican_train"));

// A with_view stream: the snapshot lists the seat's legal moves, and every later update carries
// the seat's view after it (the move number counts the moves so far) and its legal moves; the
// last equals GetView. A spectator's carries the public view and no moves; a stream without
// with_view carries none.
TEST_F(TableClientViewTest, WithViewStreamsCarryTheViewAfterEachUpdate) {
  std::string table_id;
  const std::vector<Player> players = CreateTable({"ana", "ben"}, Relaxed(), &table_id);
  ASSERT_EQ(players.size(), 2u);
  auto ana = ConnectWithView(table_id, "ana", players[0].token);
  auto ben = Connect(table_id, "ben", players[1].token);
  auto spectator = ConnectWithView(table_id, "sam", "");
  ASSERT_TRUE(ana->WaitForSeq(0) && ben->WaitForSeq(0) && spectator->WaitForSeq(0));
  const int moves = PlayToTheEnd(table_id, players, /*max_moves=*/6);
  ASSERT_EQ(moves, 6);
  auto now = View(table_id, "ana", players[0].token);
  ASSERT_TRUE(now.ok());
  ASSERT_TRUE(ana->WaitForSeq(now->seq()) && ben->WaitForSeq(now->seq()) &&
              spectator->WaitForSeq(now->seq()));

  const std::vector<v1::TableUpdate> seen = ana->updates();
  ASSERT_TRUE(seen.front().has_snapshot());
  EXPECT_FALSE(seen.front().has_view()) << "a snapshot holds its own view";
  const v1::View& first = seen.front().snapshot().view();
  const bool ana_acts_first = !first.to_act().empty() && first.to_act(0) == 0;
  EXPECT_EQ(seen.front().snapshot().legal_moves_size() > 0, ana_acts_first);
  uint64_t move_number = first.move_number();
  for (size_t index = 1; index < seen.size(); ++index) {
    const v1::TableUpdate& update = seen[index];
    ASSERT_TRUE(update.has_view()) << "update " << update.seq();
    if (update.has_move()) ++move_number;
    EXPECT_EQ(update.view().seat(), 0);
    EXPECT_EQ(update.view().move_number(), move_number) << "update " << update.seq();
    const bool to_act = std::find(update.view().to_act().begin(), update.view().to_act().end(),
                                  0) != update.view().to_act().end();
    EXPECT_EQ(update.legal_moves_size() > 0, to_act) << "update " << update.seq();
  }
  const v1::TableUpdate& last = seen.back();
  EXPECT_EQ(last.seq(), now->seq());
  EXPECT_TRUE(MessageDifferencer::Equals(last.view(), now->view()));
  EXPECT_EQ(last.legal_moves_size(), now->legal_moves_size());

  for (const v1::TableUpdate& update : spectator->updates()) {
    if (update.has_snapshot()) continue;
    ASSERT_TRUE(update.has_view());
    EXPECT_EQ(update.view().seat(), engine::kSpectator);
    EXPECT_TRUE(update.view().liars_dice().my_dice().empty()) << "a spectator sees no dice";
    EXPECT_EQ(update.legal_moves_size(), 0);
  }
  for (const v1::TableUpdate& update : ben->updates()) {
    EXPECT_FALSE(update.has_view()) << "update " << update.seq();
    EXPECT_EQ(update.legal_moves_size(), 0);
  }
}

// Resuming with_view: the missed updates come as they were, and the last carries the view now.
TEST_F(TableClientViewTest, AResumeWithViewEndsWithTheViewNow) {
  std::string table_id;
  const std::vector<Player> players = CreateTable({"ana", "ben"}, Relaxed(), &table_id);
  ASSERT_EQ(PlayToTheEnd(table_id, players, /*max_moves=*/4), 4);
  auto now = View(table_id, "ben", players[1].token);
  ASSERT_TRUE(now.ok());
  ASSERT_GE(now->seq(), 3u);
  auto resumed = ConnectWithView(table_id, "ben", players[1].token, /*after_seq=*/1);
  ASSERT_TRUE(resumed->WaitForSeq(now->seq()));
  const std::vector<v1::TableUpdate> updates = resumed->updates();
  ASSERT_FALSE(updates.front().has_snapshot()) << "the updates after seq 1 are still kept";
  EXPECT_EQ(updates.front().seq(), 2u);
  for (size_t index = 0; index + 1 < updates.size(); ++index) {
    EXPECT_FALSE(updates[index].has_view()) << "update " << updates[index].seq();
  }
  ASSERT_TRUE(updates.back().has_view());
  EXPECT_TRUE(MessageDifferencer::Equals(updates.back().view(), now->view()));
  EXPECT_EQ(updates.back().legal_moves_size(), now->legal_moves_size());
}

// ABORTED for a stale expected_seq names the table's seq in a StaleSeq detail; nothing changes.
TEST_F(TableClientViewTest, AStaleExpectedSeqCarriesTheTablesSeq) {
  std::string table_id;
  const std::vector<Player> players = CreateTable({"ana", "ben"}, Relaxed(), &table_id);
  ASSERT_EQ(PlayToTheEnd(table_id, players, /*max_moves=*/2), 2);
  auto before = View(table_id, "ana", players[0].token);
  ASSERT_TRUE(before.ok());
  const int to_act = before->view().to_act(0);
  ASSERT_GT(before->legal_moves_size(), 0) << "ana acts after two moves of two players";
  ASSERT_EQ(to_act, 0);

  v1::PlayRequest request;
  request.set_table_id(table_id);
  request.set_seat_token(players[0].token);
  *request.mutable_move() = before->legal_moves(0);
  request.set_expected_seq(before->seq() - 1);
  v1::PlayResponse response;
  auto context = kahve::testing::ContextFor("ana");
  const grpc::Status status = stub().Play(context.get(), request, &response);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::ABORTED) << status.error_message();
  const absl::StatusOr<v1::StaleSeq> stale = kahve::testing::DetailOf<v1::StaleSeq>(status);
  ASSERT_TRUE(stale.ok()) << stale.status();
  EXPECT_EQ(stale->table_seq(), before->seq());
  EXPECT_EQ(stale->expected_seq(), before->seq() - 1);
  auto after = View(table_id, "ana", players[0].token);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->seq(), before->seq());
}

}  // namespace
}  // namespace kahve::table
