// What waiting does to a ticket: bots fill its table after the longest wait, the table shrinks to
// the minimum after the shrink wait, the ticket expires after its time to live; and a pass that
// finds a ticket cancelled since it read the queue leaves that ticket's match out, and only it.

#include <map>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

class MatchmakingWaitsTest : public MatchmakingTest {
 protected:
  // The seats of the table, as the player at `assignment` sees them.
  std::vector<v1::SeatStatus> SeatsOf(const std::string& player, const v1::Assignment& assignment) {
    auto view = View(assignment.table_id(), player, assignment.seat_token());
    EXPECT_TRUE(view.ok()) << view.status();
    if (!view.ok()) return {};
    return {view->seats().begin(), view->seats().end()};
  }
};

TEST_F(MatchmakingWaitsTest, BotsFillTheTableAfterTheTicketsLongestWait) {
  MatchmakerSettings settings = Settings();
  settings.bot_fill = true;  // the queue's longest wait stays an hour: the ticket's own is used
  StartOnSimulatedTime(settings);
  v1::EnqueueRequest request = LiarsDice(4);
  request.set_longest_wait_seconds(1);
  std::string ticket;
  ASSERT_TRUE(Enqueue("ana", request, &ticket).ok());
  AdvanceAndSettle(absl::Milliseconds(950));
  EXPECT_EQ(TicketsIn(kWaiting), 1) << "bots came before the longest wait";
  AdvanceAndSettle(absl::Milliseconds(100));
  const v1::Assignment assignment = AwaitAssignment("ana", ticket);
  const std::vector<v1::SeatStatus> seats = SeatsOf("ana", assignment);
  ASSERT_EQ(seats.size(), 4u) << "bots fill the preferred size";
  int bots = 0;
  for (const v1::SeatStatus& seat : seats) {
    if (seat.seat() == assignment.seat()) {
      EXPECT_EQ(seat.player_id(), "ana");
    } else {
      EXPECT_TRUE(seat.player_id().empty());
      EXPECT_FALSE(seat.bot_kind().empty());
      ++bots;
    }
  }
  EXPECT_EQ(bots, 3);
  const std::map<std::string, std::string> queue = {{"ruleset", "liars_dice"}, {"mode", "solo"}};
  EXPECT_EQ(Metric("kahve_matchmaking_bot_seats_total", queue), 3);
  EXPECT_EQ(Metric("kahve_matchmaking_bot_seats_total", {{"mode", "teams"}}), 0);
  EXPECT_EQ(AwaitMetric("kahve_matchmaking_wait_seconds", queue, 1), 1)
      << "one matched ticket, observed under its queue's ruleset and mode";
}

TEST_F(MatchmakingWaitsTest, NoBotsWhereTheQueueDoesNotAllowThem) {
  StartOnSimulatedTime(Settings());  // bot_fill off
  v1::EnqueueRequest request = LiarsDice(4);
  request.set_longest_wait_seconds(1);
  std::string ticket;
  ASSERT_TRUE(Enqueue("ana", request, &ticket).ok());
  AdvanceAndSettle(absl::Seconds(2));
  EXPECT_EQ(TicketsIn(kWaiting), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 0);
}

TEST_F(MatchmakingWaitsTest, TheTableShrinksToTheMinimumAfterTheShrinkWait) {
  MatchmakerSettings settings = Settings();
  settings.shrink_after = absl::Seconds(1);
  StartOnSimulatedTime(settings);
  std::string ana, bora;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ana).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(4), &bora).ok());
  // Two of four: nothing before the shrink wait.
  AdvanceAndSettle(absl::Milliseconds(950));
  EXPECT_EQ(TicketsIn(kWaiting), 2);
  AdvanceAndSettle(absl::Milliseconds(100));
  const v1::Assignment first = AwaitAssignment("ana", ana);
  const v1::Assignment second = AwaitAssignment("bora", bora);
  EXPECT_EQ(first.table_id(), second.table_id());
  EXPECT_EQ((std::set<int>{first.seat(), second.seat()}), (std::set<int>{0, 1}));
  const std::vector<v1::SeatStatus> seats = SeatsOf("ana", first);
  ASSERT_EQ(seats.size(), 2u) << "Liar's dice plays with two at the least";
  for (const v1::SeatStatus& seat : seats) EXPECT_FALSE(seat.player_id().empty());
}

TEST_F(MatchmakingWaitsTest, AWaitingTicketExpiresAndItsPlayerMayQueueAgain) {
  MatchmakerSettings settings = Settings();
  settings.ticket_ttl = absl::Minutes(10);
  StartOnSimulatedTime(settings);
  std::string ticket;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ticket).ok());
  AdvanceAndSettle(absl::Minutes(10) - absl::Seconds(1));
  EXPECT_EQ(TicketsIn(kExpired), 0) << "expired before its time to live";
  AdvanceAndSettle(absl::Seconds(2));
  EXPECT_EQ(TicketsIn(kExpired), 1);
  const Watched watched = WatchUntil("ana", ticket, v1::TicketUpdate::EXPIRED);
  ASSERT_FALSE(watched.updates.empty());
  EXPECT_EQ(watched.updates.back().state(), v1::TicketUpdate::EXPIRED);
  EXPECT_TRUE(watched.status.ok()) << watched.status.error_message();
  EXPECT_EQ(TicketsIn(kExpired), 1);
  const std::map<std::string, std::string> expired = {
      {"ruleset", "liars_dice"}, {"mode", "solo"}, {"reason", "expired"}};
  EXPECT_EQ(AwaitMetric("kahve_matchmaking_tickets_ended_total", expired, 1), 1);
  EXPECT_EQ(Metric("kahve_matchmaking_tickets_ended_total", {{"reason", "cancelled"}}), 0);
  EXPECT_EQ(Metric("kahve_matchmaking_wait_seconds", {}), 0)
      << "an expired ticket waited for nothing";
  std::string again;
  EXPECT_TRUE(Enqueue("ana", LiarsDice(4), &again).ok());
  EXPECT_NE(again, ticket);
}

TEST_F(MatchmakingWaitsTest, QueueFiguresAreRefreshedAtMostEveryTwoSeconds) {
  StartMatchmaker(Settings());
  std::string ana, bora, cem;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ana).ok());
  // While ana watches for 1.5 s the queue grows (passes run every 50 ms) ...
  std::thread joiners([&] {
    absl::SleepFor(absl::Milliseconds(300));
    EXPECT_TRUE(Enqueue("bora", LiarsDice(4), &bora).ok());
    EXPECT_TRUE(Enqueue("cem", LiarsDice(4), &cem).ok());
  });
  const Watched first = WatchUntil("ana", ana, v1::TicketUpdate::MATCHED, absl::Milliseconds(1500));
  joiners.join();
  // ... but she hears of it once only: her first state, then nothing within 2 s.
  ASSERT_EQ(first.updates.size(), 1u);
  EXPECT_EQ(first.updates[0].queue_size(), 1);
  // A new watch starts with the figures as they are now.
  const Watched again = WatchUntil("ana", ana, v1::TicketUpdate::MATCHED, absl::Milliseconds(500));
  ASSERT_FALSE(again.updates.empty());
  EXPECT_EQ(again.updates[0].queue_size(), 3);
}

TEST_F(MatchmakingWaitsTest, AMatchWithATicketCancelledMeanwhileIsLeftOutAlone) {
  // No passes: the test forms the matches itself, as a pass that read the queue before the cancel.
  mm_ = std::make_unique<MatchmakerServer>(url(), Settings(), Peers(), /*start_passes=*/false);
  std::vector<std::string> tickets(4);
  const std::vector<std::string> names = {"ana", "bora", "cem", "deniz"};
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(Enqueue(names[i], LiarsDice(2), &tickets[i]).ok());
  ASSERT_TRUE(Cancel("bora", tickets[1]).ok());

  common::Metrics metrics;
  common::PgPool pool(WithMatchmakingStatements({.url = url(), .size = 1, .name = "test"}),
                      &metrics.registry());
  MatchmakingStore store(&pool);
  auto match_of = [&](const std::string& id, int a, int b) {
    PendingMatch match;
    match.match_id = id;
    match.queue_key = "test";
    match.host_id = "nowhere";
    match.ticket_ids = {tickets[a], tickets[b]};
    match.seats = {{tickets[a], names[a], 0}, {tickets[b], names[b], 1}};
    return match;
  };
  auto recorded =
      store.matches.RecordFormedMatches({match_of("mt-a", 0, 1), match_of("mt-b", 2, 3)});
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  ASSERT_EQ(recorded->size(), 1u);
  EXPECT_EQ(recorded->front().match_id, "mt-b");
  EXPECT_EQ(Count("SELECT count(*) FROM mm_matches"), 1);
  EXPECT_EQ(TicketsIn(kPlacing), 2);
  EXPECT_EQ(TicketsIn(kWaiting), 1) << "ana waits on; her match is off";
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets WHERE match_id = 'mt-b'"), 2);
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets WHERE match_id = 'mt-a'"), 0);
}

}  // namespace
}  // namespace kahve::matchmaking
