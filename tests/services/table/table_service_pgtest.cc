// kahve-table over real gRPC and PostgreSQL: games played by several clients, every refusal, what
// each participant may see, resumed streams.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::HasSubstr;

v1::TableOptions Relaxed() {
  v1::TableOptions options;
  options.set_away_grace_seconds(60);
  return options;
}

const std::vector<std::string> kFour = {"ana", "ben", "cem", "dua"};

// The refusal's code, and the engine's reason carried in the details when there is one.
struct Refusal {
  grpc::StatusCode code;
  std::string message;
  std::optional<v1::PlayRejection> rejection;
};

Refusal RefusalOf(const grpc::Status& status) {
  // The rich error model: a google.rpc.Status repeating the code and message, each detail an Any.
  absl::StatusOr<v1::PlayRejection> rejection =
      kahve::testing::DetailOf<v1::PlayRejection>(status);
  return Refusal{status.error_code(), status.error_message(),
                 rejection.ok() ? std::optional<v1::PlayRejection>(*rejection) : std::nullopt};
}

TEST_F(TableServiceTest, FourPlayersPlayAFullGameOverTheirStreams) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id);
  ASSERT_EQ(players.size(), 4u);
  std::vector<std::unique_ptr<UpdateReader>> readers;
  for (const Player& player : players)
    readers.push_back(Connect(table_id, player.id, player.token));
  auto spectator = Connect(table_id, "watcher", "");

  const int moves = PlayToTheEnd(table_id, players);
  auto final_view = View(table_id, "ana", players[0].token);
  ASSERT_TRUE(final_view.ok()) << final_view.status();
  ASSERT_TRUE(final_view->view().over());
  // Everyone stayed connected: every change was a player's move.
  EXPECT_EQ(static_cast<uint64_t>(moves), final_view->seq());

  readers.push_back(std::move(spectator));
  for (size_t index = 0; index < readers.size(); ++index) {
    const int seat = index < players.size() ? players[index].seat : -1;
    SCOPED_TRACE(absl::StrCat("seat ", seat));
    ASSERT_TRUE(readers[index]->WaitUntil(EndsWithResult));
    const std::vector<v1::TableUpdate> updates = readers[index]->updates();
    EXPECT_EQ(CheckStream(updates, seat), "");
    EXPECT_EQ(updates.back().seq(), final_view->seq());
    EXPECT_TRUE(
        MessageDifferencer::Equals(updates.back().move().result(), final_view->view().result()));
    // The game is over: the server ends the stream.
    const std::optional<grpc::Status> finished = readers[index]->WaitFinished(absl::Seconds(5));
    ASSERT_TRUE(finished.has_value());
    EXPECT_TRUE(finished->ok()) << finished->error_code() << " " << finished->error_message();
  }
  // Nothing more is played or resigned once the game is over.
  const Player& ana = players[0];
  v1::PlayResponse response;
  const grpc::Status late_move = Play(table_id, ana, ChallengeMove(), &response);
  EXPECT_EQ(late_move.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(RefusalOf(late_move).rejection->rejection().reason(), v1::GAME_OVER);
  auto resign = kahve::testing::ContextFor(ana.id);
  v1::ResignRequest resign_request;
  resign_request.set_table_id(table_id);
  resign_request.set_seat_token(ana.token);
  v1::ResignResponse resigned;
  EXPECT_EQ(stub().Resign(resign.get(), resign_request, &resigned).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(View(table_id, "ana", "")->seq(), final_view->seq());
  // A late stream gets the final snapshot and ends.
  auto late = Connect(table_id, "ana", players[0].token);
  ASSERT_TRUE(late->WaitUntil(EndsWithResult));
  EXPECT_TRUE(late->updates()[0].snapshot().over());
  const std::optional<grpc::Status> late_end = late->WaitFinished(absl::Seconds(5));
  ASSERT_TRUE(late_end.has_value());
  EXPECT_TRUE(late_end->ok());
}

TEST_F(TableServiceTest, EveryRefusalChangesNothing) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id);
  ASSERT_EQ(PlayToTheEnd(table_id, players, 1), 1);  // a bid stands: a challenge is legal now
  const auto before = View(table_id, "ana", players[0].token);
  ASSERT_TRUE(before.ok());
  const int to_act = before->view().to_act(0);
  const Player& mover = players[to_act];
  const Player& idle = players[(to_act + 1) % 4];
  const int64_t log_rows = Count("SELECT count(*) FROM table_log");

  auto play = [&](const Player& as, const v1::Move& move) {
    v1::PlayResponse response;
    return RefusalOf(Play(table_id, as, move, &response));
  };
  auto expect_reason = [](const Refusal& refusal, grpc::StatusCode code,
                          v1::RejectionReason reason) {
    EXPECT_EQ(refusal.code, code) << refusal.message;
    ASSERT_TRUE(refusal.rejection.has_value()) << refusal.message;
    EXPECT_EQ(refusal.rejection->rejection().reason(), reason);
    EXPECT_EQ(refusal.rejection->seq(), 1u);
  };
  expect_reason(play(idle, BidMove(9, 5)), grpc::StatusCode::FAILED_PRECONDITION,
                v1::NOT_YOUR_TURN);
  expect_reason(play(mover, BidMove(1, 2)), grpc::StatusCode::FAILED_PRECONDITION,
                v1::LIARS_DICE_NOT_A_RAISE);
  expect_reason(play(mover, BidMove(99, 6)), grpc::StatusCode::FAILED_PRECONDITION,
                v1::LIARS_DICE_QUANTITY_ABOVE_DICE);
  expect_reason(play(mover, v1::Move()), grpc::StatusCode::INVALID_ARGUMENT, v1::WRONG_RULESET);
  v1::Move no_action;
  no_action.mutable_liars_dice();
  expect_reason(play(mover, no_action), grpc::StatusCode::INVALID_ARGUMENT, v1::MISSING_ACTION);
  expect_reason(play(mover, BidMove(3, 7)), grpc::StatusCode::INVALID_ARGUMENT,
                v1::LIARS_DICE_FACE_OUT_OF_RANGE);

  // Refusals before the rules are asked carry no PlayRejection.
  auto expect_code = [](const Refusal& refusal, grpc::StatusCode code) {
    EXPECT_EQ(refusal.code, code) << refusal.message;
    EXPECT_FALSE(refusal.rejection.has_value());
  };
  expect_code(play(Player{mover.id, mover.seat, "not-a-token"}, ChallengeMove()),
              grpc::StatusCode::PERMISSION_DENIED);
  expect_code(play(Player{idle.id, mover.seat, mover.token}, ChallengeMove()),
              grpc::StatusCode::PERMISSION_DENIED);
  expect_code(play(Player{mover.id, -1, ""}, ChallengeMove()), grpc::StatusCode::PERMISSION_DENIED);
  {
    v1::PlayResponse response;
    expect_code(RefusalOf(Play("t-unknown", mover, ChallengeMove(), &response)),
                grpc::StatusCode::NOT_FOUND);
    auto context = kahve::testing::ContextFor(mover.id);
    v1::PlayRequest stale;
    stale.set_table_id(table_id);
    stale.set_seat_token(mover.token);
    *stale.mutable_move() = ChallengeMove();
    stale.set_expected_seq(0);
    expect_code(RefusalOf(stub().Play(context.get(), stale, &response)), grpc::StatusCode::ABORTED);
    grpc::ClientContext anonymous;
    v1::PlayRequest request;
    request.set_table_id(table_id);
    request.set_seat_token(mover.token);
    *request.mutable_move() = ChallengeMove();
    expect_code(RefusalOf(stub().Play(&anonymous, request, &response)),
                grpc::StatusCode::UNAUTHENTICATED);
  }
  EXPECT_EQ(View(table_id, idle.id, mover.token).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(View("t-unknown", idle.id, idle.token).status().code(), absl::StatusCode::kNotFound);
  {
    auto stolen = Connect(table_id, idle.id, mover.token);
    const auto end = stolen->WaitFinished();
    ASSERT_TRUE(end.has_value());
    EXPECT_EQ(end->error_code(), grpc::StatusCode::PERMISSION_DENIED);
    auto nobody = Connect(table_id, "", "");
    const auto anonymous_end = nobody->WaitFinished();
    ASSERT_TRUE(anonymous_end.has_value());
    EXPECT_EQ(anonymous_end->error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }

  // ListTables is for operators.
  {
    auto player = kahve::testing::ContextFor(mover.id);
    v1::ListTablesRequest list;
    v1::ListTablesResponse tables;
    EXPECT_EQ(stub().ListTables(player.get(), list, &tables).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
    auto admin = kahve::testing::ContextFor(kAdmin, common::kRoleAdmin);
    ASSERT_TRUE(stub().ListTables(admin.get(), list, &tables).ok());
    ASSERT_EQ(tables.tables_size(), 1);
    EXPECT_EQ(tables.tables(0).table_id(), table_id);
    EXPECT_EQ(tables.tables(0).seq(), 1u);
    EXPECT_EQ(tables.tables(0).ruleset(), "liars_dice");
  }

  // Creation: roles, then each malformed field named.
  v1::CreateTableRequest good;
  good.set_match_id("match-refused");
  good.mutable_settings()->mutable_liars_dice()->set_players(2);
  good.add_seats()->set_player_id("eda");
  good.add_seats()->set_player_id("fil");
  v1::CreateTableResponse created;
  EXPECT_EQ(Create(good, &created, "").error_code(), grpc::StatusCode::PERMISSION_DENIED);
  v1::CreateTableRequest seeded = good;
  seeded.set_seed(7);
  EXPECT_EQ(Create(seeded, &created).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  struct Bad {
    std::function<void(v1::CreateTableRequest&)> change;
    std::string field;
  };
  const std::vector<Bad> bad = {
      {[](auto& r) { r.mutable_settings()->mutable_liars_dice()->set_players(11); }, "settings"},
      {[](auto& r) { r.clear_settings(); }, "settings"},
      {[](auto& r) { r.add_seats()->set_player_id("gul"); }, "seats"},
      {[](auto& r) { r.mutable_seats(1)->set_player_id("eda"); }, "seats[1].player_id"},
      {[](auto& r) { r.mutable_seats(1)->set_bot_kind("oracle"); }, "seats[1].bot_kind"},
      {[](auto& r) { r.mutable_seats(0)->Clear(); }, "seats[0]"},
      {[](auto& r) { r.mutable_options()->set_turn_seconds(-1); }, "options.turn_seconds"},
      {[](auto& r) { r.mutable_options()->set_away_grace_seconds(999999); },
       "options.away_grace_seconds"},
      {[](auto& r) { r.clear_match_id(); }, "match_id"},
      // Ids the rating service would refuse: the result could never be recorded.
      {[](auto& r) { r.set_match_id("match 1"); }, "match_id"},
      {[](auto& r) { r.set_match_id(std::string(129, 'm')); }, "match_id"},
      {[](auto& r) { r.mutable_seats(0)->set_player_id(std::string(129, 'p')); },
       "seats[0].player_id"},
  };
  for (const Bad& one : bad) {
    v1::CreateTableRequest request = good;
    one.change(request);
    const grpc::Status status = Create(request, &created);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << one.field;
    EXPECT_THAT(status.error_message(), HasSubstr(one.field + ":"));
  }
  v1::CreateTableRequest both = good;
  both.set_seed(7);
  both.mutable_deal()->set_seed(8);
  const grpc::Status both_status = Create(both, &created, common::kRoleAdmin);
  EXPECT_EQ(both_status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(both_status.error_message(), HasSubstr("seed:"));
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 1);

  const auto after = View(table_id, "ana", players[0].token);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->seq(), before->seq());
  EXPECT_TRUE(MessageDifferencer::Equals(after->view(), before->view()));
  EXPECT_EQ(Count("SELECT count(*) FROM table_log"), log_rows);
}

// Facts of one round: each seat's own dice, as its private events told it.
using DiceBySeat = std::map<int, std::vector<int>>;

TEST_F(TableServiceTest, NoParticipantEverSeesAnotherSeatsDice) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id);
  std::vector<std::unique_ptr<UpdateReader>> readers;
  for (const Player& player : players)
    readers.push_back(Connect(table_id, player.id, player.token));
  readers.push_back(Connect(table_id, "watcher", ""));

  // After every move: each seat's view is the spectator's plus its own dice, nothing more.
  auto check_views = [&] {
    const auto spectator = View(table_id, "watcher", "");
    ASSERT_TRUE(spectator.ok());
    EXPECT_TRUE(spectator->view().liars_dice().my_dice().empty());
    for (const Player& player : players) {
      auto own = View(table_id, player.id, player.token);
      ASSERT_TRUE(own.ok());
      ASSERT_EQ(own->seq(), spectator->seq());
      v1::View view = own->view();
      EXPECT_EQ(view.liars_dice().my_dice_size(), view.liars_dice().dice_counts(player.seat));
      view.set_seat(-1);
      view.mutable_liars_dice()->clear_my_dice();
      EXPECT_TRUE(MessageDifferencer::Equals(view, spectator->view()))
          << "seat " << player.seat << " sees more than its dice:\n"
          << view.DebugString() << "\nspectator:\n"
          << spectator->view().DebugString();
    }
  };
  int moves = 0;
  // A previewed challenge stops before the reveal: a dry run shows no dice either.
  auto check_preview = [&] {
    const auto spectator = View(table_id, "watcher", "");
    if (spectator->view().over()) return;
    const Player& mover = players[spectator->view().to_act(0)];
    const v1::Move move = ChooseMove(View(table_id, mover.id, mover.token)->view());
    v1::PlayResponse preview;
    ASSERT_TRUE(Play(table_id, mover, move, &preview, "", /*dry_run=*/true).ok());
    for (const v1::Event& event : preview.events()) {
      EXPECT_FALSE(event.liars_dice().has_dice_revealed()) << event.DebugString();
      EXPECT_FALSE(event.liars_dice().has_dice_rolled()) << event.DebugString();
    }
    if (move.liars_dice().has_challenge()) {
      EXPECT_TRUE(preview.preview_truncated());
    }
  };
  while (moves < 400) {
    check_views();
    check_preview();
    if (HasFailure()) return;
    if (PlayToTheEnd(table_id, players, 1) == 0) break;
    ++moves;
  }
  ASSERT_TRUE(View(table_id, "watcher", "")->view().over());

  for (size_t index = 0; index < readers.size(); ++index) {
    const int seat = index < players.size() ? players[index].seat : -1;
    SCOPED_TRACE(absl::StrCat("seat ", seat));
    ASSERT_TRUE(readers[index]->WaitUntil(EndsWithResult));
    const std::vector<v1::TableUpdate> updates = readers[index]->updates();
    EXPECT_EQ(CheckStream(updates, seat), "");
    // Dice reach a stream only as the seat's own roll or as the public reveal after a challenge.
    DiceBySeat rolled;
    for (const v1::TableUpdate& update : updates) {
      for (const v1::Event& event : update.move().events()) {
        const auto& dice = event.liars_dice();
        if (dice.has_dice_rolled()) {
          ASSERT_TRUE(event.has_private_to());
          EXPECT_EQ(event.private_to(), seat);
          rolled[seat].assign(dice.dice_rolled().dice().begin(), dice.dice_rolled().dice().end());
        } else {
          EXPECT_FALSE(event.has_private_to()) << event.DebugString();
        }
        if (dice.has_dice_revealed() && seat >= 0 && !rolled[seat].empty()) {
          // The reveal shows the seat the dice it was told it had.
          std::vector<int> shown(dice.dice_revealed().dice(seat).dice().begin(),
                                 dice.dice_revealed().dice(seat).dice().end());
          std::sort(shown.begin(), shown.end());
          std::vector<int> own = rolled[seat];
          std::sort(own.begin(), own.end());
          EXPECT_EQ(shown, own);
          // A seat that lost its last die rolls no more.
          rolled[seat].clear();
        }
      }
    }
  }
}

TEST_F(TableServiceTest, AResumedStreamGetsExactlyWhatItMissed) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id);
  auto first = Connect(table_id, "ana", players[0].token);
  ASSERT_EQ(PlayToTheEnd(table_id, players, 3), 3);
  ASSERT_TRUE(first->WaitForSeq(3));
  first->Cancel();
  const std::vector<v1::TableUpdate> seen = first->updates();
  EXPECT_EQ(CheckStream(seen, 0), "");
  const uint64_t last_seen = seen.back().seq();
  ASSERT_EQ(PlayToTheEnd(table_id, players, 4), 4);

  auto resumed = Connect(table_id, "ana", players[0].token, last_seen);
  ASSERT_TRUE(resumed->WaitForSeq(last_seen + 4));
  std::vector<v1::TableUpdate> missed = resumed->updates();
  ASSERT_EQ(missed.size(), 4u);
  EXPECT_EQ(CheckStream(missed, 0, last_seen), "");
  EXPECT_EQ(missed.front().seq(), last_seen + 1);

  // Resuming at the current seq sends nothing until the next change.
  auto current = Connect(table_id, "ben", players[1].token, last_seen + 4);
  ASSERT_EQ(PlayToTheEnd(table_id, players, 1), 1);
  ASSERT_TRUE(current->WaitForSeq(last_seen + 5));
  ASSERT_TRUE(resumed->WaitForSeq(last_seen + 5));
  EXPECT_EQ(current->updates().size(), 1u);
  EXPECT_EQ(CheckStream(resumed->updates(), 0, last_seen), "");
  // After_seq ahead of the table: refused.
  auto ahead = Connect(table_id, "cem", players[2].token, 1000);
  const auto end = ahead->WaitFinished();
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->error_code(), grpc::StatusCode::OUT_OF_RANGE);
}

}  // namespace
}  // namespace kahve::table
