// The table session over time: turn timeouts, away and back, resigning, whole games driven by the
// clock, and properties checked over many seeded games (replay, no leaks, resuming).

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/rng.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/table/table_session.h"
#include "tests/services/table/table_session_testing.h"

namespace kahve::table {
namespace {

using ::kahve::table::testing::Bid;
using ::kahve::table::testing::Bot;
using ::kahve::table::testing::CreatedEntry;
using ::kahve::table::testing::DriveClock;
using ::kahve::table::testing::kStart;
using ::kahve::table::testing::MustCreate;
using ::kahve::table::testing::Player;
using ::kahve::table::testing::PresetFirstRound;
using ::testing::ElementsAre;

constexpr uint64_t kSeededGames = 60;

TEST(TableSessionClockTest, AnAllBotGameRunsToItsResult) {
  std::unique_ptr<TableSession> session = MustCreate(CreatedEntry(
      {Bot("heuristic"), Bot("random"), Bot("heuristic"), Bot("random")}, /*seed=*/21));
  EXPECT_LE(session->NextDeadline(), kStart) << "a bot seat to act is due at once";
  absl::Time now = kStart;
  const std::vector<AppliedEntry> log = DriveClock(session.get(), &now);

  ASSERT_TRUE(session->over());
  ASSERT_TRUE(session->result().has_value());
  EXPECT_EQ(session->result()->seats_size(), 4);
  ASSERT_EQ(session->seq(), log.size());
  for (size_t i = 0; i < log.size(); ++i) {
    const v1::TableLogEntry& entry = log[i].entry;
    EXPECT_EQ(entry.seq(), i + 1);
    ASSERT_TRUE(entry.has_move());
    EXPECT_TRUE(entry.move().by_bot());
    EXPECT_EQ(entry.move().bot_reason(), kReasonBotSeat);
    // Only the last move carries the result.
    EXPECT_EQ(log[i].result.has_value(), i + 1 == log.size());
  }
  EXPECT_EQ(log.back().result->SerializeAsString(), session->result()->SerializeAsString());
  EXPECT_EQ(session->NextDeadline(), absl::InfiniteFuture());
  EXPECT_TRUE(session->Due(now + absl::Hours(1)).empty());

  const v1::Replay replay = session->ReplayRecord();
  EXPECT_EQ(replay.moves_size(), static_cast<int>(log.size()));
  EXPECT_EQ(replay.deal().seed(), 21u);
  EXPECT_EQ(session->Summary().ruleset(), "liars_dice");
  EXPECT_TRUE(session->Summary().over());
}

TEST(TableSessionClockTest, ATurnTimeoutLetsTheBotMoveOnceAndKeepsThePlayer) {
  v1::TableLogEntry entry = CreatedEntry(
      {Player("ana"), Bot("random"), Bot("random"), Bot("random")}, 11, /*turn_seconds=*/30);
  PresetFirstRound(&entry, {2, 2, 3, 4, 5}, /*first_bidder=*/0);
  std::unique_ptr<TableSession> session = MustCreate(entry);
  EXPECT_FALSE(session->StreamOpened(0, /*with_view=*/false, kStart).has_value());
  EXPECT_EQ(session->NextDeadline(), kStart + absl::Seconds(30));
  EXPECT_TRUE(session->Due(kStart + absl::Seconds(29)).empty());

  const absl::Time timeout = kStart + absl::Seconds(30);
  const std::vector<AppliedEntry> due = session->Due(timeout);
  ASSERT_FALSE(due.empty());
  EXPECT_EQ(due[0].entry.move().seat(), 0);
  EXPECT_TRUE(due[0].entry.move().by_bot());
  EXPECT_EQ(due[0].entry.move().bot_reason(), kReasonTimeout);
  for (size_t i = 1; i < due.size(); ++i) {
    EXPECT_EQ(due[i].entry.move().bot_reason(), kReasonBotSeat);
  }
  // The bots stopped at the player's next turn, which has a fresh clock.
  ASSERT_THAT(session->game().SeatsToAct(), ElementsAre(0));
  EXPECT_EQ(session->NextDeadline(), timeout + absl::Seconds(30));
  const v1::SeatStatus ana = session->SeatStatuses()[0];
  EXPECT_FALSE(ana.away());
  EXPECT_TRUE(ana.connected());
  EXPECT_EQ(FromTimestamp(ana.turn_deadline()), timeout + absl::Seconds(30));
  EXPECT_TRUE(session
                  ->Play(0, session->game().LegalMoves(0).back(), "", std::nullopt, false,
                         timeout + absl::Seconds(1))
                  .status.ok());
}

TEST(TableSessionClockTest, ASeatGoneBeyondGraceIsAwayUntilAStreamOpens) {
  v1::TableLogEntry entry =
      CreatedEntry({Player("ana"), Player("ben"), Bot("random"), Bot("random")}, 13);
  PresetFirstRound(&entry, {2, 2, 3, 4, 5}, /*first_bidder=*/0);
  std::unique_ptr<TableSession> session = MustCreate(entry);
  session->StreamOpened(0, /*with_view=*/false, kStart);
  session->StreamOpened(1, /*with_view=*/false, kStart);
  session->StreamClosed(0, /*with_view=*/false, kStart + absl::Seconds(1));
  EXPECT_EQ(session->NextDeadline(), kStart + absl::Seconds(11));
  EXPECT_TRUE(session->Due(kStart + absl::Seconds(10)).empty());

  const std::vector<AppliedEntry> due = session->Due(kStart + absl::Seconds(11));
  ASSERT_EQ(due.size(), 2u) << "away, then the bot's move; then ben, who is here, is to act";
  EXPECT_EQ(due[0].entry.seat_change().seat(), 0);
  EXPECT_EQ(due[0].entry.seat_change().kind(), v1::SeatChange::AWAY);
  EXPECT_EQ(due[1].entry.move().seat(), 0);
  EXPECT_EQ(due[1].entry.move().bot_reason(), kReasonAway);
  EXPECT_THAT(session->game().SeatsToAct(), ElementsAre(1));
  EXPECT_TRUE(session->SeatStatuses()[0].away());
  EXPECT_FALSE(session->SeatStatuses()[0].connected());
  EXPECT_EQ(session->NextDeadline(), absl::InfiniteFuture());

  std::optional<AppliedEntry> back = session->StreamOpened(0, /*with_view=*/false, kStart + absl::Seconds(20));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->entry.seq(), 3u);
  EXPECT_EQ(back->entry.seat_change().kind(), v1::SeatChange::BACK);
  EXPECT_FALSE(session->SeatStatuses()[0].away());
  EXPECT_FALSE(session->StreamOpened(0, /*with_view=*/false, kStart + absl::Seconds(21)).has_value());
  EXPECT_TRUE(session->Due(kStart + absl::Hours(1)).empty());
  EXPECT_EQ(session->SeatOutcomes()[0].bot_moves, 1);
}

TEST(TableSessionClockTest, AResignedSeatIsPlayedByTheBotToTheEnd) {
  std::unique_ptr<TableSession> session =
      MustCreate(CreatedEntry({Player("ana"), Bot("heuristic"), Bot("random")}, 17));
  session->StreamOpened(0, /*with_view=*/false, kStart);
  absl::StatusOr<ResignResult> resigned = session->Resign(0, kStart);
  ASSERT_TRUE(resigned.ok()) << resigned.status();
  EXPECT_EQ(resigned->seq, 1u);
  ASSERT_TRUE(resigned->applied.has_value());
  EXPECT_EQ(resigned->applied->entry.seat_change().kind(), v1::SeatChange::RESIGNED);

  absl::StatusOr<ResignResult> again = session->Resign(0, kStart + absl::Seconds(1));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->seq, 1u);
  EXPECT_FALSE(again->applied.has_value());
  EXPECT_EQ(session->Play(0, Bid(1, 2), "", std::nullopt, false, kStart).status.code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(session->Resign(1, kStart).status().code(), absl::StatusCode::kPermissionDenied);

  absl::Time now = kStart;
  const std::vector<AppliedEntry> log = DriveClock(session.get(), &now);
  ASSERT_TRUE(session->over());
  for (const AppliedEntry& applied : log) {
    if (applied.entry.move().seat() == 0) {
      EXPECT_EQ(applied.entry.move().bot_reason(), kReasonResigned);
    }
  }
  const SeatOutcome ana = session->SeatOutcomes()[0];
  EXPECT_TRUE(ana.resigned);
  EXPECT_EQ(ana.human_moves, 0);
  EXPECT_GT(ana.bot_moves, 0);
  EXPECT_TRUE(ana.mostly_bot_played());
  EXPECT_EQ(session->Resign(0, now).value().seq, 1u);
}

// A table whose log has every kind of entry: seat 0 comes and goes (away, back, "away" bot
// moves), seat 1 is connected, sometimes plays (and retries), sometimes times out, and sometimes
// resigns; the rest are bots.
struct PlayedTable {
  v1::TableLogEntry created;
  std::unique_ptr<TableSession> session;
  std::vector<AppliedEntry> log;
};

void PlayHumanMove(TableSession* session, engine::Rng* rng, int step, absl::Time now,
                   std::vector<AppliedEntry>* log) {
  const std::vector<v1::Move> legal = session->game().LegalMoves(1);
  if (legal.empty() || session->SeatStatuses()[1].resigned()) return;
  const v1::Move& move = legal[rng->Below(static_cast<uint32_t>(legal.size()))];
  const std::string request_id = absl::StrCat("step-", step);
  PlayResult result = session->Play(1, move, request_id, session->seq(), false, now);
  ASSERT_TRUE(result.status.ok()) << result.status;
  log->push_back(*result.applied);
  if (rng->Below(4) == 0) {
    PlayResult retry = session->Play(1, move, request_id, std::nullopt, false, now);
    EXPECT_TRUE(retry.duplicate);
    EXPECT_EQ(retry.seq, result.seq);
  }
}

PlayedTable PlaySeededTable(uint64_t seed) {
  const int players = 2 + static_cast<int>(seed % 5);
  std::vector<v1::SeatSpec> seats = {Player("p0")};
  if (players > 2) seats.push_back(Player("p1"));
  while (static_cast<int>(seats.size()) < players) {
    seats.push_back(Bot(seats.size() % 2 == 0 ? "heuristic" : "random"));
  }
  PlayedTable table;
  table.created = CreatedEntry(seats, seed, /*turn_seconds=*/5,
                               /*dice_per_player=*/1 + static_cast<int>(seed % 3));
  table.session = MustCreate(table.created);
  TableSession* session = table.session.get();
  if (players > 2) session->StreamOpened(1, /*with_view=*/false, kStart);
  engine::Rng rng(seed);
  absl::Time now = kStart;
  bool seat0_connected = false;
  for (int step = 0; step < 20'000 && !session->over(); ++step) {
    const uint32_t choice = rng.Below(16);
    if (choice == 0) {
      if (seat0_connected) {
        session->StreamClosed(0, /*with_view=*/false, now);
      } else if (std::optional<AppliedEntry> back = session->StreamOpened(0, /*with_view=*/false, now)) {
        table.log.push_back(*back);
      }
      seat0_connected = !seat0_connected;
    } else if (choice <= 3 && players > 2) {
      PlayHumanMove(session, &rng, step, now, &table.log);
    } else if (choice == 4 && players > 2 && rng.Below(40) == 0) {
      absl::StatusOr<ResignResult> resigned = session->Resign(1, now);
      EXPECT_TRUE(resigned.ok()) << resigned.status();
      if (resigned.ok() && resigned->applied) table.log.push_back(*resigned->applied);
    } else {
      for (AppliedEntry& applied : session->Due(now)) table.log.push_back(std::move(applied));
      now += absl::Seconds(1);
    }
  }
  EXPECT_TRUE(session->over()) << "seed " << seed;
  EXPECT_EQ(session->seq(), table.log.size());
  return table;
}

// What kind of entry `applied` is: a seat change's kind, a bot move's reason, or "player".
std::string KindOf(const AppliedEntry& applied) {
  const v1::TableLogEntry& entry = applied.entry;
  if (entry.has_seat_change()) return v1::SeatChange::Kind_Name(entry.seat_change().kind());
  return entry.move().by_bot() ? entry.move().bot_reason() : "player";
}

TEST(TableSessionPropertyTest, ReplayingTheLogReproducesTheTable) {
  std::map<std::string, int> kinds;
  for (uint64_t seed = 1; seed <= kSeededGames; ++seed) {
    const PlayedTable table = PlaySeededTable(seed);
    for (const AppliedEntry& applied : table.log) ++kinds[KindOf(applied)];
    std::unique_ptr<TableSession> replayed = MustCreate(table.created);
    for (const AppliedEntry& applied : table.log) {
      ASSERT_TRUE(replayed->Replay(applied.entry).ok()) << "seed " << seed;
      // Every recipient learns whose turn it is from the move's update itself.
      if (applied.entry.has_move()) {
        EXPECT_THAT(UpdateFor(applied, engine::kSpectator).move().to_act(),
                    ::testing::ElementsAreArray(replayed->game().SeatsToAct()))
            << "seed " << seed << " seq " << applied.entry.seq();
      }
    }
    const TableSession& original = *table.session;
    EXPECT_TRUE(replayed->game().SameState(original.game())) << "seed " << seed;
    EXPECT_EQ(replayed->seq(), original.seq());
    EXPECT_EQ(testing::AllViews(*replayed), testing::AllViews(original));
    EXPECT_EQ(replayed->ReplayRecord().SerializeAsString(),
              original.ReplayRecord().SerializeAsString());
    for (int seat = 0; seat < original.num_seats(); ++seat) {
      const SeatOutcome a = original.SeatOutcomes()[seat];
      const SeatOutcome b = replayed->SeatOutcomes()[seat];
      EXPECT_EQ(std::tie(a.resigned, a.away_at_end, a.human_moves, a.bot_moves),
                std::tie(b.resigned, b.away_at_end, b.human_moves, b.bot_moves));
    }
    // Request ids came back with the log: a retry of the last human move is still recognized.
    for (auto it = table.log.rbegin(); it != table.log.rend(); ++it) {
      const v1::MovePlayed& move = it->entry.move();
      if (!it->entry.has_move() || move.request_id().empty()) continue;
      PlayResult retry =
          replayed->Play(move.seat(), move.move(), move.request_id(), std::nullopt, false, kStart);
      EXPECT_TRUE(retry.duplicate) << "seed " << seed;
      EXPECT_EQ(retry.seq, it->entry.seq());
      break;
    }
  }
  // The logs held every kind of entry, so replay was tried on each.
  for (const char* kind : {"AWAY", "BACK", "RESIGNED", "player", kReasonBotSeat, kReasonTimeout,
                           kReasonAway, kReasonResigned}) {
    EXPECT_GT(kinds[kind], 0) << kind;
  }
}

TEST(TableSessionPropertyTest, SameSeedSameLog) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const PlayedTable a = PlaySeededTable(seed);
    const PlayedTable b = PlaySeededTable(seed);
    ASSERT_EQ(a.log.size(), b.log.size());
    for (size_t i = 0; i < a.log.size(); ++i) {
      EXPECT_EQ(a.log[i].entry.SerializeAsString(), b.log[i].entry.SerializeAsString());
    }
  }
}

TEST(TableSessionPropertyTest, NoUpdateCarriesAnotherSeatsPrivateEvents) {
  int private_events_delivered = 0;
  for (uint64_t seed = 1; seed <= kSeededGames; ++seed) {
    const PlayedTable table = PlaySeededTable(seed);
    for (const AppliedEntry& applied : table.log) {
      for (int recipient = engine::kSpectator; recipient < table.session->num_seats();
           ++recipient) {
        const v1::TableUpdate update = UpdateFor(applied, recipient);
        EXPECT_EQ(update.seq(), applied.entry.seq());
        for (const v1::Event& event : update.move().events()) {
          if (!event.has_private_to()) continue;
          EXPECT_NE(recipient, engine::kSpectator) << "seed " << seed;
          EXPECT_EQ(event.private_to(), recipient) << "seed " << seed;
          ++private_events_delivered;
        }
        // Nothing the recipient may see is held back either.
        EXPECT_EQ(update.move().events_size(),
                  static_cast<int>(engine::VisibleTo(applied.events, recipient).size()));
      }
    }
  }
  EXPECT_GT(private_events_delivered, 0) << "the games rolled dice after a challenge";
}

TEST(TableSessionPropertyTest, ResumingSendsExactlyTheMissedUpdates) {
  std::vector<v1::SeatSpec> seats;
  for (int seat = 0; seat < 10; ++seat) seats.push_back(Bot("random"));
  std::unique_ptr<TableSession> session = MustCreate(CreatedEntry(seats, /*seed=*/99));
  absl::Time now = kStart;
  const std::vector<AppliedEntry> log = DriveClock(session.get(), &now);
  const uint64_t seq = session->seq();
  ASSERT_GT(seq, kRecentEntries + 10) << "the game must outgrow the ring";

  for (const uint64_t missed : {uint64_t{1}, uint64_t{10}, uint64_t{kRecentEntries}}) {
    auto resumed = session->ResumeFor(/*seat=*/3, seq - missed);
    ASSERT_TRUE(resumed.ok());
    ASSERT_TRUE(resumed->has_value()) << missed;
    const std::vector<v1::TableUpdate>& updates = **resumed;
    ASSERT_EQ(updates.size(), missed);
    for (size_t i = 0; i < updates.size(); ++i) {
      const uint64_t expected_seq = seq - missed + 1 + i;
      EXPECT_EQ(updates[i].seq(), expected_seq);
      EXPECT_EQ(updates[i].SerializeAsString(),
                UpdateFor(log[expected_seq - 1], 3).SerializeAsString());
    }
  }
  auto too_old = session->ResumeFor(3, seq - kRecentEntries - 1);
  ASSERT_TRUE(too_old.ok());
  EXPECT_FALSE(too_old->has_value()) << "too old: the caller sends a snapshot";
  auto up_to_date = session->ResumeFor(3, seq);
  ASSERT_TRUE(up_to_date.ok());
  EXPECT_TRUE((*up_to_date)->empty());
  EXPECT_EQ(session->ResumeFor(3, seq + 1).status().code(), absl::StatusCode::kOutOfRange);

  const v1::TableUpdate snapshot = session->SnapshotFor(3);
  EXPECT_EQ(snapshot.seq(), seq);
  EXPECT_EQ(snapshot.snapshot().seq(), seq);
  EXPECT_EQ(snapshot.snapshot().view().seat(), 3);
  EXPECT_TRUE(snapshot.snapshot().over());
  EXPECT_EQ(snapshot.snapshot().seats_size(), 10);
}

TEST(TableSessionPropertyTest, ReplayRefusesALogThatDoesNotFit) {
  const PlayedTable table = PlaySeededTable(/*seed=*/4);
  std::unique_ptr<TableSession> replayed = MustCreate(table.created);
  ASSERT_GE(table.log.size(), 2u);
  EXPECT_FALSE(replayed->Replay(table.log[1].entry).ok()) << "a gap in the seqs";
  // A move the rules refuse cannot have been logged.
  v1::TableLogEntry tampered = table.log[0].entry;
  v1::MovePlayed* move = tampered.mutable_move();
  move->set_seat(replayed->game().SeatsToAct().front());
  *move->mutable_move() = Bid(1, 9);
  move->set_by_bot(true);
  move->set_bot_reason(kReasonBotSeat);
  const absl::Status refused = replayed->Replay(tampered);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.message()), ::testing::HasSubstr("log entry 1 of table table-1"));
  EXPECT_EQ(replayed->seq(), 0u);
  EXPECT_TRUE(replayed->Replay(table.log[0].entry).ok());
  EXPECT_EQ(replayed->seq(), 1u);
}

}  // namespace
}  // namespace kahve::table
