// The table session one rule at a time: creation checks, playing, refusals, retries, dry runs,
// tokens. Clocks and seeded whole games are in table_session_property_test.cc.

#include "services/table/table_session.h"

#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/table/table_session_testing.h"

namespace kahve::table {
namespace {

using ::kahve::table::testing::Bid;
using ::kahve::table::testing::Bot;
using ::kahve::table::testing::Challenge;
using ::kahve::table::testing::CreatedEntry;
using ::kahve::table::testing::kStart;
using ::kahve::table::testing::MustCreate;
using ::kahve::table::testing::Player;
using ::kahve::table::testing::PresetFirstRound;
using ::kahve::table::testing::TokenOf;
using ::testing::HasSubstr;

// Four human seats; seat 0 bids first and every seat rolled 2 2 3 4 5.
v1::TableLogEntry FourPlayers() {
  v1::TableLogEntry entry =
      CreatedEntry({Player("ana"), Player("ben"), Player("cem"), Player("deniz")}, /*seed=*/7);
  PresetFirstRound(&entry, {2, 2, 3, 4, 5}, /*first_bidder=*/0);
  return entry;
}

struct CreationCase {
  std::string name;
  std::function<void(v1::TableLogEntry*)> spoil;
  std::string field;
};

TEST(TableSessionCreateTest, NamesTheFirstWrongField) {
  const std::vector<CreationCase> cases = {
      {"not a creation", [](auto* e) { e->mutable_move(); }, "entry:"},
      {"seq", [](auto* e) { e->set_seq(3); }, "seq:"},
      {"time", [](auto* e) { e->clear_at(); }, "at:"},
      {"table id", [](auto* e) { e->mutable_created()->clear_table_id(); }, "created.table_id:"},
      {"match id", [](auto* e) { e->mutable_created()->clear_match_id(); }, "created.match_id:"},
      {"no ruleset", [](auto* e) { e->mutable_created()->clear_settings(); }, "created.settings:"},
      {"players",
       [](auto* e) {
         e->mutable_created()->mutable_settings()->mutable_liars_dice()->set_players(11);
       },
       "created.settings:"},
      {"turn seconds",
       [](auto* e) { e->mutable_created()->mutable_options()->set_turn_seconds(-1); },
       "created.options.turn_seconds:"},
      {"away grace",
       [](auto* e) {
         e->mutable_created()->mutable_options()->set_away_grace_seconds(kMaxAwayGraceSeconds + 1);
       },
       "created.options.away_grace_seconds:"},
      {"seat count",
       [](auto* e) {
         e->mutable_created()->mutable_settings()->mutable_liars_dice()->set_players(5);
       },
       "created.seats: 4 given, the game has 5"},
      {"digest count",
       [](auto* e) { e->mutable_created()->mutable_seat_token_sha256()->RemoveLast(); },
       "created.seat_token_sha256:"},
      {"no occupant", [](auto* e) { e->mutable_created()->mutable_seats(2)->Clear(); },
       "created.seats[2]: set player_id or bot_kind"},
      {"bot kind",
       [](auto* e) {
         *e->mutable_created()->mutable_seats(1) = Bot("oracle");
         e->mutable_created()->set_seat_token_sha256(1, "");
       },
       "created.seats[1].bot_kind: unknown bot \"oracle\""},
      {"bot digest", [](auto* e) { *e->mutable_created()->mutable_seats(1) = Bot("random"); },
       "created.seat_token_sha256[1]: must be empty"},
      {"empty player", [](auto* e) { *e->mutable_created()->mutable_seats(3) = Player(""); },
       "created.seats[3].player_id: must not be empty"},
      {"same player", [](auto* e) { *e->mutable_created()->mutable_seats(3) = Player("ben"); },
       "created.seats[3].player_id: \"ben\" already holds seat 1"},
      {"shared digest",
       [](auto* e) {
         e->mutable_created()->set_seat_token_sha256(2, e->created().seat_token_sha256(0));
       },
       "created.seat_token_sha256[2]: same as seat 0"},
      {"bad digest", [](auto* e) { e->mutable_created()->set_seat_token_sha256(0, "ABC"); },
       "created.seat_token_sha256[0]:"},
  };
  for (const CreationCase& c : cases) {
    v1::TableLogEntry entry = FourPlayers();
    c.spoil(&entry);
    absl::StatusOr<std::unique_ptr<TableSession>> session = TableSession::Create(entry);
    ASSERT_FALSE(session.ok()) << c.name;
    EXPECT_EQ(session.status().code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(std::string(session.status().message()), HasSubstr(c.field)) << c.name;
  }
  EXPECT_TRUE(TableSession::Create(FourPlayers()).ok());
}

TEST(TableSessionPlayTest, HumanSeatPlaysALegalMove) {
  std::unique_ptr<TableSession> session = MustCreate(FourPlayers());
  PlayResult result = session->Play(0, Bid(3, 2), "r1", /*expected_seq=*/0, false, kStart);
  ASSERT_TRUE(result.status.ok()) << result.status;
  EXPECT_EQ(result.seq, 1u);
  EXPECT_EQ(session->seq(), 1u);
  EXPECT_FALSE(result.duplicate);
  ASSERT_TRUE(result.applied.has_value());
  const v1::TableLogEntry& entry = result.applied->entry;
  EXPECT_EQ(entry.seq(), 1u);
  EXPECT_EQ(entry.move().seat(), 0);
  EXPECT_EQ(entry.move().request_id(), "r1");
  EXPECT_FALSE(entry.move().by_bot());
  ASSERT_EQ(result.events.size(), 1u);
  EXPECT_EQ(result.events[0].liars_dice().bid_made().bid().quantity(), 3);
  EXPECT_EQ(session->game().View(1).to_act(0), 1);
}

TEST(TableSessionPlayTest, AMoveCarriesHowLongItsSeatHadBeenToAct) {
  std::unique_ptr<TableSession> session = MustCreate(FourPlayers());
  // Seat 0 was to act from the creation; seat 1 from seat 0's move.
  PlayResult first = session->Play(0, Bid(3, 2), "", std::nullopt, false, kStart + absl::Seconds(7));
  ASSERT_TRUE(first.applied.has_value());
  EXPECT_EQ(first.applied->decision_time, absl::Seconds(7));
  PlayResult second =
      session->Play(1, Bid(4, 2), "", std::nullopt, false, kStart + absl::Seconds(9));
  ASSERT_TRUE(second.applied.has_value());
  EXPECT_EQ(second.applied->decision_time, absl::Seconds(2));
}

TEST(TableSessionPlayTest, RefusedMovesChangeNothing) {
  std::unique_ptr<TableSession> session = MustCreate(FourPlayers());
  ASSERT_TRUE(session->Play(0, Bid(3, 2), "", std::nullopt, false, kStart).status.ok());
  const std::vector<std::string> views_before = testing::AllViews(*session);

  struct Refusal {
    int seat;
    v1::Move move;
    absl::StatusCode code;
    v1::RejectionReason reason;
  };
  const std::vector<Refusal> refusals = {
      {2, Bid(4, 2), absl::StatusCode::kFailedPrecondition, v1::NOT_YOUR_TURN},
      {1, Bid(3, 2), absl::StatusCode::kFailedPrecondition, v1::LIARS_DICE_NOT_A_RAISE},
      {1, Bid(4, 7), absl::StatusCode::kInvalidArgument, v1::LIARS_DICE_FACE_OUT_OF_RANGE},
      {1, Bid(21, 2), absl::StatusCode::kFailedPrecondition, v1::LIARS_DICE_QUANTITY_ABOVE_DICE},
      {1, v1::Move(), absl::StatusCode::kInvalidArgument, v1::WRONG_RULESET},
  };
  for (const Refusal& refusal : refusals) {
    PlayResult result = session->Play(refusal.seat, refusal.move, "x", std::nullopt, false, kStart);
    EXPECT_EQ(result.status.code(), refusal.code) << refusal.reason;
    ASSERT_TRUE(result.rejection.has_value()) << refusal.reason;
    EXPECT_EQ(result.rejection->reason(), refusal.reason);
    EXPECT_EQ(result.seq, 1u);
    EXPECT_FALSE(result.applied.has_value());
    EXPECT_EQ(session->seq(), 1u);
    EXPECT_EQ(testing::AllViews(*session), views_before);
  }
  // None of the refused attempts used up request id "x".
  EXPECT_TRUE(session->Play(1, Bid(4, 2), "x", std::nullopt, false, kStart).status.ok());
}

TEST(TableSessionPlayTest, ARetryIsAnsweredOnceAndAppliedOnce) {
  std::unique_ptr<TableSession> session = MustCreate(FourPlayers());
  PlayResult first = session->Play(0, Bid(3, 2), "r1", 0, false, kStart);
  ASSERT_TRUE(first.status.ok());
  // The retry carries the expected_seq of the first attempt, now stale: still the first answer.
  PlayResult retry = session->Play(0, Bid(3, 2), "r1", 0, false, kStart + absl::Seconds(1));
  ASSERT_TRUE(retry.status.ok()) << retry.status;
  EXPECT_TRUE(retry.duplicate);
  EXPECT_FALSE(retry.applied.has_value());
  EXPECT_EQ(retry.seq, first.seq);
  ASSERT_EQ(retry.events.size(), first.events.size());
  EXPECT_EQ(retry.events[0].SerializeAsString(), first.events[0].SerializeAsString());
  EXPECT_EQ(session->seq(), 1u);
  EXPECT_EQ(session->game().move_number(), 1u);
}

TEST(TableSessionPlayTest, ARequestIdReusedForAnotherMoveIsRefused) {
  std::unique_ptr<TableSession> session = MustCreate(FourPlayers());
  ASSERT_TRUE(session->Play(0, Bid(3, 2), "r1", std::nullopt, false, kStart).status.ok());
  ASSERT_TRUE(session->Play(1, Bid(4, 2), "r1", std::nullopt, false, kStart).status.ok())
      << "request ids are per seat";
  PlayResult reused = session->Play(0, Bid(5, 2), "r1", std::nullopt, false, kStart);
  EXPECT_EQ(reused.status.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(session->seq(), 2u);
}

TEST(TableSessionPlayTest, AStaleExpectedSeqIsAborted) {
  std::unique_ptr<TableSession> session = MustCreate(FourPlayers());
  PlayResult stale = session->Play(0, Bid(3, 2), "r1", /*expected_seq=*/4, false, kStart);
  EXPECT_EQ(stale.status.code(), absl::StatusCode::kAborted);
  EXPECT_THAT(std::string(stale.status.message()), HasSubstr("at seq 0"));
  EXPECT_EQ(session->seq(), 0u);
  EXPECT_TRUE(session->Play(0, Bid(3, 2), "r1", /*expected_seq=*/0, false, kStart).status.ok());
}

TEST(TableSessionPlayTest, ADryRunChangesNothing) {
  std::unique_ptr<TableSession> session = MustCreate(FourPlayers());
  const std::vector<std::string> views_before = testing::AllViews(*session);
  PlayResult preview = session->Play(0, Bid(3, 2), "r1", std::nullopt, /*dry_run=*/true, kStart);
  ASSERT_TRUE(preview.status.ok());
  EXPECT_EQ(preview.seq, 0u);
  EXPECT_EQ(preview.events.size(), 1u);
  EXPECT_FALSE(preview.applied.has_value());
  EXPECT_EQ(session->seq(), 0u);
  EXPECT_EQ(testing::AllViews(*session), views_before);

  PlayResult illegal = session->Play(0, Challenge(), "", std::nullopt, true, kStart);
  ASSERT_TRUE(illegal.rejection.has_value());
  EXPECT_EQ(illegal.rejection->reason(), v1::LIARS_DICE_NOTHING_TO_CHALLENGE);

  // The preview did not take "r1": it is free for a different move.
  ASSERT_TRUE(session->Play(0, Bid(4, 2), "r1", std::nullopt, false, kStart).status.ok());
  // A challenge's preview stops before the reveal.
  PlayResult challenge = session->Play(1, Challenge(), "", std::nullopt, true, kStart);
  ASSERT_TRUE(challenge.status.ok());
  EXPECT_TRUE(challenge.preview_truncated);
  for (const v1::Event& event : challenge.events) {
    EXPECT_FALSE(event.liars_dice().has_dice_revealed());
  }
  EXPECT_EQ(session->seq(), 1u);
}

TEST(TableSessionPlayTest, SpectatorsAndBotSeatsCannotPlay) {
  v1::TableLogEntry entry = CreatedEntry({Player("ana"), Bot("random")}, /*seed=*/3);
  PresetFirstRound(&entry, {1, 2, 3, 4, 5}, /*first_bidder=*/1);
  std::unique_ptr<TableSession> session = MustCreate(entry);
  EXPECT_EQ(
      session->Play(engine::kSpectator, Bid(2, 2), "", std::nullopt, false, kStart).status.code(),
      absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(session->Play(1, Bid(2, 2), "", std::nullopt, false, kStart).status.code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(session->seq(), 0u);
}

TEST(TableSessionTokenTest, TokensOpenTheirSeatOnly) {
  v1::TableLogEntry entry = CreatedEntry({Player("ana"), Bot("random"), Player("cem")}, 5);
  std::unique_ptr<TableSession> session = MustCreate(entry);
  EXPECT_EQ(*session->SeatOf(TokenOf(0)), 0);
  EXPECT_EQ(*session->SeatOf(TokenOf(2)), 2);
  EXPECT_EQ(*session->SeatOf(""), engine::kSpectator);
  EXPECT_EQ(session->SeatOf(TokenOf(1)).status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(session->SeatOf("guess").status().code(), absl::StatusCode::kPermissionDenied);

  EXPECT_TRUE(session->CheckPlayer(0, "ana").ok());
  EXPECT_TRUE(session->CheckPlayer(engine::kSpectator, "anyone").ok());
  EXPECT_EQ(session->CheckPlayer(2, "ana").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(session->CheckPlayer(1, "").code(), absl::StatusCode::kPermissionDenied);
}

TEST(TableSessionTokenTest, NewTokensAreLongAndDistinct) {
  const std::string a = NewSeatToken();
  const std::string b = NewSeatToken();
  EXPECT_EQ(a.size(), 43u);
  EXPECT_NE(a, b);
  EXPECT_EQ(SeatTokenSha256(a).size(), 64u);
  EXPECT_TRUE(SameDigest(SeatTokenSha256(a), SeatTokenSha256(a)));
  EXPECT_FALSE(SameDigest(SeatTokenSha256(a), SeatTokenSha256(b)));
}

}  // namespace
}  // namespace kahve::table
