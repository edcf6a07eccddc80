// What a client needs to play from the API alone: every seat's legal moves in every ruleset
// (GetView, snapshots), streams that carry the view and legal moves with each update
// (ConnectRequest.with_view), resumes included, out-of-turn moves among the legal moves but not
// in to_act, and an expected_seq that is not the table's answered with the table's seq in the
// error's details.

#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "gmock/gmock.h"
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

// Resuming with_view: the missed updates come as they were, each with the view and legal moves
// the seat had after it, exactly as a stream open all along received them.
TEST_F(TableClientViewTest, AResumeWithViewCarriesTheViewAfterEveryUpdate) {
  std::string table_id;
  const std::vector<Player> players = CreateTable({"ana", "ben"}, Relaxed(), &table_id);
  auto live = ConnectWithView(table_id, "ben", players[1].token);
  ASSERT_TRUE(live->WaitForSeq(0));
  ASSERT_EQ(PlayToTheEnd(table_id, players, /*max_moves=*/5), 5);
  auto now = View(table_id, "ben", players[1].token);
  ASSERT_TRUE(now.ok());
  ASSERT_GE(now->seq(), 5u);
  ASSERT_TRUE(live->WaitForSeq(now->seq()));
  auto resumed = ConnectWithView(table_id, "ben", players[1].token, /*after_seq=*/1);
  ASSERT_TRUE(resumed->WaitForSeq(now->seq()));
  const std::vector<v1::TableUpdate> updates = resumed->updates();
  ASSERT_FALSE(updates.front().has_snapshot()) << "the updates after seq 1 are still kept";
  EXPECT_EQ(updates.front().seq(), 2u);
  EXPECT_EQ(CheckStream(updates, players[1].seat, /*after_seq=*/1), "");
  const std::vector<v1::TableUpdate> seen = live->updates();
  bool some_without_moves = false;
  bool some_with_moves = false;
  for (const v1::TableUpdate& update : updates) {
    ASSERT_TRUE(update.has_view()) << "update " << update.seq();
    ASSERT_LT(update.seq(), seen.size());
    const v1::TableUpdate& as_sent = seen[update.seq()];
    ASSERT_EQ(as_sent.seq(), update.seq());
    EXPECT_TRUE(MessageDifferencer::Equals(update, as_sent)) << "update " << update.seq();
    (update.legal_moves().empty() ? some_without_moves : some_with_moves) = true;
  }
  EXPECT_TRUE(some_with_moves && some_without_moves) << "ben's turns and ana's both resumed";
  EXPECT_TRUE(MessageDifferencer::Equals(updates.back().view(), now->view()));
  EXPECT_EQ(updates.back().legal_moves_size(), now->legal_moves_size());
}

// Classic okey's gosterme may be played out of turn. to_act is public, so it names only the seat
// whose turn it is (naming the twin's holder would tell where the twin is); the seat's own legal
// moves list the showing, and they are what says a seat may act.
TEST_F(TableClientViewTest, OutOfTurnMovesAreLegalMovesOfASeatNotToAct) {
  v1::GameSettings settings;
  settings.mutable_okey()->set_players(4);
  // A deal where a seat other than the starter holds the indicator's twin.
  uint64_t seed = 0;
  int holder = -1;
  int idle = -1;
  for (seed = 1; seed < 200 && holder < 0; ++seed) {
    v1::Deal deal;
    deal.set_seed(seed);
    auto game = engine::NewGame(settings, deal);
    ASSERT_TRUE(game.ok()) << game.status();
    const std::vector<int> to_act = (*game)->SeatsToAct();
    ASSERT_EQ(to_act.size(), 1u);
    for (int seat = 0; seat < 4; ++seat) {
      if (seat == to_act[0]) continue;
      const std::vector<v1::Move> moves = (*game)->LegalMoves(seat);
      if (!moves.empty()) holder = seat;
      if (moves.empty() && idle < 0) idle = seat;
    }
    if (holder < 0) idle = -1;
  }
  ASSERT_GE(holder, 0) << "no seed under 200 deals the twin to a seat not to act";
  ASSERT_GE(idle, 0);
  --seed;
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, seed, &settings);
  auto stream = ConnectWithView(table_id, players[holder].id, players[holder].token);
  ASSERT_TRUE(stream->WaitForSeq(0));
  const v1::Snapshot snapshot = stream->updates().front().snapshot();
  EXPECT_THAT(snapshot.view().to_act(), ::testing::Not(::testing::Contains(holder)));
  ASSERT_EQ(snapshot.legal_moves_size(), 1);
  EXPECT_TRUE(snapshot.legal_moves(0).okey().has_show_indicator());

  auto view = View(table_id, players[holder].id, players[holder].token);
  ASSERT_TRUE(view.ok());
  EXPECT_THAT(view->view().to_act(), ::testing::Not(::testing::Contains(holder)));
  ASSERT_EQ(view->legal_moves_size(), 1);
  EXPECT_TRUE(view->legal_moves(0).okey().has_show_indicator());
  auto other = View(table_id, players[idle].id, players[idle].token);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->legal_moves_size(), 0) << "a seat not to act without the twin may not act";

  v1::PlayResponse shown;
  ASSERT_TRUE(Play(table_id, players[holder], view->legal_moves(0), &shown).ok());
  auto after = View(table_id, players[holder].id, players[holder].token);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->legal_moves_size(), 0) << "the twin is shown once";
  EXPECT_THAT(after->view().to_act(), ::testing::ElementsAreArray(view->view().to_act()))
      << "showing passes no turn";
  // Every seat's stream got the showing with the seats to act, and never the holder among them.
  ASSERT_TRUE(stream->WaitForSeq(shown.seq()));
  const v1::TableUpdate update = stream->updates().back();
  ASSERT_TRUE(update.has_move());
  EXPECT_EQ(update.move().seat(), holder);
  EXPECT_THAT(update.move().to_act(), ::testing::Not(::testing::Contains(holder)));
  EXPECT_EQ(update.legal_moves_size(), 0);
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

  // An expected_seq ahead of the table (not from its history) is answered the same way; the
  // detail shows which side is ahead.
  request.set_expected_seq(before->seq() + 5);
  auto ahead_context = kahve::testing::ContextFor("ana");
  const grpc::Status ahead = stub().Play(ahead_context.get(), request, &response);
  ASSERT_EQ(ahead.error_code(), grpc::StatusCode::ABORTED) << ahead.error_message();
  const absl::StatusOr<v1::StaleSeq> not_yet = kahve::testing::DetailOf<v1::StaleSeq>(ahead);
  ASSERT_TRUE(not_yet.ok()) << not_yet.status();
  EXPECT_EQ(not_yet->table_seq(), before->seq());
  EXPECT_EQ(not_yet->expected_seq(), before->seq() + 5);
  EXPECT_EQ(View(table_id, "ana", players[0].token)->seq(), before->seq());
}

}  // namespace
}  // namespace kahve::table
