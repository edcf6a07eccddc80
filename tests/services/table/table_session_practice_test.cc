// Practice tables in the session core (no network, no database): pause and resume hold the bots
// and the player, undo takes back the player's decision with the bot replies, redo plays them
// again, and replaying the log reproduces all of it.

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/services/table/table_session_testing.h"

namespace kahve::table {
namespace {

using testing::AllViews;
using testing::Bot;
using testing::CreatedEntry;
using testing::DriveClock;
using testing::kStart;
using testing::MustCreate;
using testing::Player;

constexpr int kPlayer = 1;

v1::TableLogEntry PracticeEntry(int bot_delay_ms = 0) {
  v1::TableLogEntry entry = CreatedEntry({Bot("random"), Player("pia"), Bot("heuristic")}, 17);
  entry.mutable_created()->set_practice(true);
  entry.mutable_created()->mutable_options()->set_bot_delay_ms(bot_delay_ms);
  return entry;
}

bool PlayerToAct(const TableSession& session) {
  const std::vector<int> to_act = session.game().SeatsToAct();
  return !to_act.empty() && to_act[0] == kPlayer;
}

// The session and every entry it logged, so a test can replay them on a fresh session.
struct Table {
  explicit Table(const v1::TableLogEntry& created) : created(created) {
    session = MustCreate(created);
  }
  void Log(std::vector<AppliedEntry> applied) {
    for (AppliedEntry& one : applied) log.push_back(std::move(one.entry));
  }
  // Lets the bots move until the player is to act (or the game ends).
  void BotsReply() { Log(DriveClock(session.get(), &now)); }
  // The player's first legal move.
  void PlayFirstLegal(const std::string& request_id) {
    const v1::Move move = session->game().LegalMoves(kPlayer).at(0);
    PlayResult result = session->Play(kPlayer, move, request_id, std::nullopt, false, now);
    ASSERT_TRUE(result.status.ok()) << result.status;
    log.push_back(result.applied->entry);
  }
  absl::StatusOr<PracticeResult> Practice(v1::PracticeChange::Kind kind,
                                          std::optional<uint64_t> expected = std::nullopt) {
    absl::StatusOr<PracticeResult> result = session->Practice(kPlayer, kind, expected, now);
    if (result.ok() && result->applied.has_value()) log.push_back(result->applied->entry);
    return result;
  }
  std::unique_ptr<TableSession> Replayed() const {
    std::unique_ptr<TableSession> replayed = MustCreate(created);
    for (const v1::TableLogEntry& entry : log) {
      const absl::Status status = replayed->Replay(entry);
      EXPECT_TRUE(status.ok()) << status;
    }
    return replayed;
  }

  v1::TableLogEntry created;
  std::unique_ptr<TableSession> session;
  std::vector<v1::TableLogEntry> log;
  absl::Time now = kStart;
};

TEST(TableSessionPracticeTest, UndoTakesBackTheDecisionWithTheBotRepliesAndRedoRestoresThem) {
  Table table(PracticeEntry());
  table.BotsReply();
  ASSERT_TRUE(PlayerToAct(*table.session));
  const std::vector<std::string> before = AllViews(*table.session);
  const uint64_t moves_before = table.session->game().move_number();
  table.PlayFirstLegal("r1");
  table.BotsReply();
  const std::vector<std::string> after = AllViews(*table.session);
  const int replies = static_cast<int>(table.session->game().move_number() - moves_before) - 1;
  ASSERT_GT(replies, 0) << "the bots should have answered the player's move";
  EXPECT_EQ(table.session->PracticeState().undoable(), 1);

  absl::StatusOr<PracticeResult> undone = table.Practice(v1::PracticeChange::UNDONE);
  ASSERT_TRUE(undone.ok()) << undone.status();
  EXPECT_EQ(undone->applied->entry.practice().moves(), 1 + replies);
  EXPECT_EQ(AllViews(*table.session), before);
  EXPECT_EQ(table.session->PracticeState().undoable(), 0);
  EXPECT_EQ(table.session->PracticeState().redoable(), 1);
  // Every recipient's view travels with the update, the player's own for the player.
  ASSERT_EQ(undone->applied->views.size(), 4u);
  EXPECT_EQ(undone->applied->views[kPlayer + 1].SerializeAsString(), before[kPlayer + 1]);
  EXPECT_TRUE(table.session->Due(table.now).empty()) << "it is the player's turn again";

  absl::StatusOr<PracticeResult> redone = table.Practice(v1::PracticeChange::REDONE);
  ASSERT_TRUE(redone.ok()) << redone.status();
  EXPECT_EQ(redone->applied->entry.practice().moves(), 1 + replies);
  EXPECT_EQ(AllViews(*table.session), after);
  EXPECT_EQ(table.session->PracticeState().redoable(), 0);

  // Undo again: what a restart replays is the same table.
  ASSERT_TRUE(table.Practice(v1::PracticeChange::UNDONE).ok());
  std::unique_ptr<TableSession> replayed = table.Replayed();
  EXPECT_EQ(AllViews(*replayed), before);
  EXPECT_EQ(replayed->PracticeState().SerializeAsString(),
            table.session->PracticeState().SerializeAsString());
  EXPECT_EQ(replayed->ReplayRecord().moves_size(), table.session->ReplayRecord().moves_size());
  ASSERT_TRUE(replayed->Practice(kPlayer, v1::PracticeChange::REDONE, std::nullopt, kStart).ok());
  EXPECT_EQ(AllViews(*replayed), after);
}

TEST(TableSessionPracticeTest, ANewDecisionForgetsWhatCouldBeRedone) {
  Table table(PracticeEntry());
  table.BotsReply();
  table.PlayFirstLegal("r1");
  table.BotsReply();
  ASSERT_TRUE(table.Practice(v1::PracticeChange::UNDONE).ok());
  table.PlayFirstLegal("r2");
  EXPECT_EQ(table.session->PracticeState().redoable(), 0);
  const uint64_t seq = table.session->seq();
  EXPECT_EQ(table.Practice(v1::PracticeChange::REDONE).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(table.session->seq(), seq);
}

TEST(TableSessionPracticeTest, AnUndoneMovesRequestIdPlaysAgainRatherThanAnsweringFromMemory) {
  Table table(PracticeEntry());
  table.BotsReply();
  const v1::Move move = table.session->game().LegalMoves(kPlayer).at(0);
  ASSERT_TRUE(table.session->Play(kPlayer, move, "r1", std::nullopt, false, table.now).status.ok());
  table.BotsReply();
  ASSERT_TRUE(table.Practice(v1::PracticeChange::UNDONE).ok());
  const uint64_t seq = table.session->seq();
  const PlayResult again = table.session->Play(kPlayer, move, "r1", std::nullopt, false, table.now);
  ASSERT_TRUE(again.status.ok()) << again.status;
  EXPECT_FALSE(again.duplicate) << "the move was taken back: nothing to answer from memory";
  EXPECT_TRUE(again.applied.has_value());
  EXPECT_EQ(again.seq, seq + 1);
}

// Bots playing out a practice game its only player left would only fill the log (issue 28): the
// resignation closes the table at once, with one entry, paused or not.
TEST(TableSessionPracticeTest, ResigningClosesTheTableAtOnceWithOneEntry) {
  Table table(PracticeEntry());
  table.BotsReply();
  ASSERT_TRUE(table.Practice(v1::PracticeChange::PAUSED).ok());
  const uint64_t seq = table.session->seq();
  absl::StatusOr<ResignResult> resigned = table.session->Resign(kPlayer, table.now);
  ASSERT_TRUE(resigned.ok()) << resigned.status();
  ASSERT_TRUE(resigned->applied.has_value());
  EXPECT_EQ(resigned->seq, seq + 1);
  const v1::TableLogEntry& entry = resigned->applied->entry;
  ASSERT_TRUE(entry.has_closed());
  EXPECT_EQ(entry.closed().reason(), v1::TableClosed::PRACTICE_RESIGNED);
  // Nothing more is played: the deal shows (where the table has a commitment to open).
  EXPECT_EQ(resigned->applied->reveal.has_value(), table.session->commitment() != nullptr);
  table.log.push_back(entry);
  EXPECT_TRUE(table.session->over());
  EXPECT_FALSE(table.session->result().has_value());
  EXPECT_EQ(table.session->NextDeadline(), absl::InfiniteFuture());
  EXPECT_TRUE(table.session->Due(table.now + absl::Hours(1)).empty()) << "no bot plays on";
  EXPECT_TRUE(table.session->ViewFor(kPlayer).legal_moves.empty());
  EXPECT_EQ(table.session->SeatedPlayers(), 0);

  // A retry answers the first resignation; nothing else applies any more.
  absl::StatusOr<ResignResult> again = table.session->Resign(kPlayer, table.now);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->applied.has_value());
  EXPECT_EQ(again->seq, seq + 1);
  EXPECT_EQ(table.session->Practice(kPlayer, v1::PracticeChange::RESUMED, std::nullopt, table.now)
                .status()
                .code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(table.session->Close(v1::TableClosed::PRACTICE_EXPIRED, table.now).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(table.session->seq(), seq + 1);

  // The log replays to the same closed table, and its records say so.
  std::unique_ptr<TableSession> replayed = table.Replayed();
  EXPECT_TRUE(replayed->over());
  ASSERT_TRUE(replayed->closed().has_value());
  EXPECT_EQ(replayed->closed()->reason(), v1::TableClosed::PRACTICE_RESIGNED);
  const v1::Replay record = replayed->ReplayRecord();
  EXPECT_TRUE(record.has_closed());
  EXPECT_FALSE(record.has_result());
  const v1::TableUpdate snapshot = replayed->SnapshotFor(kPlayer);
  EXPECT_TRUE(snapshot.snapshot().over());
  EXPECT_TRUE(snapshot.snapshot().has_closed());
  EXPECT_EQ(AllViews(*replayed), AllViews(*table.session));
}

TEST(TableSessionPracticeTest, AnIdleTableClosesAndAnOrdinaryTableNever) {
  Table table(PracticeEntry());
  table.BotsReply();
  ASSERT_TRUE(PlayerToAct(*table.session));
  const v1::Move move = table.session->game().LegalMoves(kPlayer).at(0);
  absl::StatusOr<AppliedEntry> closed =
      table.session->Close(v1::TableClosed::PRACTICE_EXPIRED, table.now);
  ASSERT_TRUE(closed.ok()) << closed.status();
  EXPECT_EQ(closed->entry.closed().reason(), v1::TableClosed::PRACTICE_EXPIRED);
  EXPECT_TRUE(table.session->over());
  const PlayResult played =
      table.session->Play(kPlayer, move, "late", std::nullopt, false, table.now);
  EXPECT_EQ(played.status.code(), absl::StatusCode::kFailedPrecondition) << played.status;

  std::unique_ptr<TableSession> rated = MustCreate(CreatedEntry({Player("ana"), Player("ben")}, 3));
  EXPECT_EQ(rated->Close(v1::TableClosed::PRACTICE_EXPIRED, kStart).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(rated->over());
  // At an ordinary table a resignation still hands the seat to a bot.
  absl::StatusOr<ResignResult> resigned = rated->Resign(0, kStart);
  ASSERT_TRUE(resigned.ok());
  EXPECT_TRUE(resigned->applied->entry.has_seat_change());
  EXPECT_FALSE(rated->over());
}

TEST(TableSessionPracticeTest, APauseHoldsTheBotsAndThePlayerUntilResumed) {
  Table table(PracticeEntry(/*bot_delay_ms=*/2000));
  table.BotsReply();
  ASSERT_TRUE(PlayerToAct(*table.session));
  table.PlayFirstLegal("r1");
  // The next bot waits its delay after the player's move.
  EXPECT_EQ(table.session->NextDeadline(), table.now + absl::Seconds(2));
  EXPECT_TRUE(table.session->Due(table.now + absl::Seconds(1)).empty());

  ASSERT_TRUE(table.Practice(v1::PracticeChange::PAUSED).ok());
  EXPECT_TRUE(table.session->PracticeState().paused());
  EXPECT_EQ(table.session->NextDeadline(), absl::InfiniteFuture());
  EXPECT_TRUE(table.session->Due(table.now + absl::Hours(1)).empty());
  // Pausing again changes nothing and logs nothing.
  const uint64_t seq = table.session->seq();
  absl::StatusOr<PracticeResult> again = table.Practice(v1::PracticeChange::PAUSED);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->applied.has_value());
  EXPECT_EQ(again->seq, seq);

  table.now += absl::Minutes(5);
  ASSERT_TRUE(table.Practice(v1::PracticeChange::RESUMED).ok());
  // The bot waits its delay again from the resume.
  EXPECT_EQ(table.session->NextDeadline(), table.now + absl::Seconds(2));
  table.BotsReply();
  EXPECT_GT(table.session->seq(), seq + 1) << "the bots moved after the resume";
}

TEST(TableSessionPracticeTest, ThePlayerCannotMoveWhilePaused) {
  Table table(PracticeEntry());
  table.BotsReply();
  ASSERT_TRUE(PlayerToAct(*table.session));
  ASSERT_TRUE(table.Practice(v1::PracticeChange::PAUSED).ok());
  const std::vector<std::string> views = AllViews(*table.session);
  const uint64_t seq = table.session->seq();
  const PlayResult played = table.session->Play(
      kPlayer, table.session->game().LegalMoves(kPlayer).at(0), "r1", std::nullopt, false, kStart);
  EXPECT_EQ(played.status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(played.status.message().find("paused"), std::string::npos) << played.status;
  EXPECT_EQ(table.session->seq(), seq);
  EXPECT_EQ(AllViews(*table.session), views);
}

TEST(TableSessionPracticeTest, BadPracticeCallsGetPreciseErrorsAndChangeNothing) {
  Table table(PracticeEntry());
  table.BotsReply();
  const uint64_t seq = table.session->seq();
  const std::vector<std::string> views = AllViews(*table.session);
  auto code = [&](int seat, v1::PracticeChange::Kind kind,
                  std::optional<uint64_t> expected = std::nullopt) {
    return table.session->Practice(seat, kind, expected, table.now).status().code();
  };
  EXPECT_EQ(code(kPlayer, v1::PracticeChange::UNDONE), absl::StatusCode::kFailedPrecondition)
      << "nothing to undo yet";
  EXPECT_EQ(code(kPlayer, v1::PracticeChange::REDONE), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(code(engine::kSpectator, v1::PracticeChange::PAUSED),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(code(0, v1::PracticeChange::PAUSED), absl::StatusCode::kPermissionDenied)
      << "a bot's seat";
  EXPECT_EQ(code(kPlayer, v1::PracticeChange::PAUSED, seq + 1), absl::StatusCode::kAborted);
  EXPECT_EQ(code(kPlayer, v1::PracticeChange::KIND_UNSPECIFIED),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(table.session->seq(), seq);
  EXPECT_EQ(AllViews(*table.session), views);

  // A log entry carrying what is derived, or a wrong count, does not replay.
  v1::TableLogEntry forged;
  forged.set_seq(seq + 1);
  *forged.mutable_at() = ToTimestamp(table.now);
  forged.mutable_practice()->set_kind(v1::PracticeChange::PAUSED);
  forged.mutable_practice()->mutable_state()->set_paused(true);
  EXPECT_EQ(table.session->Replay(forged).code(), absl::StatusCode::kInvalidArgument);
  table.PlayFirstLegal("r1");
  forged.set_seq(table.session->seq() + 1);
  forged.mutable_practice()->Clear();
  forged.mutable_practice()->set_kind(v1::PracticeChange::UNDONE);
  forged.mutable_practice()->set_moves(7);
  EXPECT_EQ(table.session->Replay(forged).code(), absl::StatusCode::kInvalidArgument);

  // After resigning the table is closed; there is nothing to take back.
  ASSERT_TRUE(table.session->Resign(kPlayer, table.now).ok());
  EXPECT_EQ(code(kPlayer, v1::PracticeChange::UNDONE), absl::StatusCode::kFailedPrecondition);
}

// A stream with_view resumed over undos and redos gets, with every missed update, the view and
// legal moves a stream open all along got: the views are rebuilt from the moves in force then.
TEST(TableSessionPracticeTest, AResumeWithViewRebuildsTheViewsAcrossUndoAndRedo) {
  Table table(PracticeEntry());
  ASSERT_FALSE(table.session->StreamOpened(kPlayer, /*with_view=*/true, table.now).has_value());
  ASSERT_FALSE(table.session->StreamOpened(engine::kSpectator, true, table.now).has_value());
  std::vector<AppliedEntry> applied;
  auto keep = [&applied](std::vector<AppliedEntry> entries) {
    for (AppliedEntry& entry : entries) applied.push_back(std::move(entry));
  };
  auto play = [&] {
    const v1::Move move = table.session->game().LegalMoves(kPlayer).back();
    PlayResult result = table.session->Play(kPlayer, move, "", std::nullopt, false, table.now);
    ASSERT_TRUE(result.status.ok()) << result.status;
    applied.push_back(*std::move(result.applied));
  };
  auto practice = [&](v1::PracticeChange::Kind kind) {
    absl::StatusOr<PracticeResult> result = table.Practice(kind);
    ASSERT_TRUE(result.ok()) << result.status();
    applied.push_back(*std::move(result->applied));
  };
  keep(DriveClock(table.session.get(), &table.now));
  play();
  keep(DriveClock(table.session.get(), &table.now));
  play();
  keep(DriveClock(table.session.get(), &table.now));
  practice(v1::PracticeChange::UNDONE);
  practice(v1::PracticeChange::UNDONE);
  practice(v1::PracticeChange::REDONE);
  play();
  keep(DriveClock(table.session.get(), &table.now));
  practice(v1::PracticeChange::UNDONE);
  practice(v1::PracticeChange::PAUSED);
  practice(v1::PracticeChange::REDONE);
  practice(v1::PracticeChange::RESUMED);
  keep(DriveClock(table.session.get(), &table.now));
  ASSERT_FALSE(HasFailure());
  ASSERT_EQ(applied.size(), table.session->seq());

  for (const int recipient : {kPlayer, engine::kSpectator}) {
    for (const uint64_t after : {uint64_t{0}, uint64_t{3}, applied.size() - 4}) {
      SCOPED_TRACE(absl::StrCat("recipient ", recipient, ", after seq ", after));
      auto resumed = table.session->ResumeFor(recipient, after, /*with_view=*/true);
      ASSERT_TRUE(resumed.ok() && resumed->has_value());
      ASSERT_EQ((*resumed)->size(), applied.size() - after);
      for (size_t index = after; index < applied.size(); ++index) {
        v1::TableUpdate live = UpdateFor(applied[index], recipient);
        ASSERT_TRUE(applied[index].live_views.at(recipient + 1).has_value());
        AttachView(*applied[index].live_views[recipient + 1], live);
        const v1::TableUpdate& again = (**resumed)[index - after];
        ASSERT_TRUE(again.has_view());
        EXPECT_EQ(again.SerializeAsString(), live.SerializeAsString()) << "seq " << live.seq();
      }
    }
  }
}

TEST(TableSessionPracticeTest, AnOrdinaryTableHasNoPracticeCalls) {
  std::unique_ptr<TableSession> session =
      MustCreate(CreatedEntry({Player("ana"), Player("ben")}, 3));
  EXPECT_EQ(session->Practice(0, v1::PracticeChange::PAUSED, std::nullopt, kStart).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(session->seq(), 0u);
}

TEST(TableSessionPracticeTest, APracticeTableSeatsExactlyOnePlayer) {
  v1::TableLogEntry two = CreatedEntry({Player("ana"), Player("ben"), Bot("random")}, 3);
  two.mutable_created()->set_practice(true);
  const auto refused = TableSession::Create(two);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("one player"), std::string::npos) << refused.status();
  v1::TableLogEntry slow = PracticeEntry(10001);
  EXPECT_EQ(TableSession::Create(slow).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace kahve::table
